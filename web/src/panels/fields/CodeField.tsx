import { lazy, Suspense, useContext, useId } from 'react';
import { REFERENCE_TOKEN_SOURCE, type SubBlockConfig } from '@weft/catalog';
import { LoadBoundary } from '../../ui/LoadBoundary';
import { referenceOptions } from '../references';
import { useDraft } from '../useDraft';
import type { ReferenceChoices } from './codeCompletion';
import { FormContext } from './FormContext';

const CodeEditor = lazy(() => import('./CodeEditor'));

/** JSON, not JavaScript: schemas, bodies and data (by id, title or placeholder). */
export function codeLanguage(field: SubBlockConfig): 'javascript' | 'json' {
  if (field.id === 'code') return 'javascript';
  const words = `${field.id} ${field.title ?? ''} ${field.placeholder ?? ''}`.toLowerCase();
  return /json|schema|body|data|format|messages|filter|headers|records|fields|memories/.test(words) ? 'json' : 'javascript';
}

/**
 * A code field's name: its title, else its id as words (the function block's `code` is "Code") —
 * never the bare id, which read "codeJavaScript" run into the language hint.
 */
export function codeFieldName(field: SubBlockConfig, label: string): string {
  if (field.title !== undefined && field.title.trim() !== '') return label;
  const words = field.id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A `<reference>` or `{{KEY}}` as the runner reads them (no `g` flag: one instance serves every test). */
const REFERENCE_TOKEN = new RegExp(REFERENCE_TOKEN_SOURCE);

/**
 * Why a code field's text is not what its language needs, or undefined: JSON that does not parse
 * (text holding a `<reference>` or `{{KEY}}` as the runner reads them is only JSON once the run fills them in, so it is let be).
 */
export function codeFieldProblem(language: 'javascript' | 'json', text: string): string | undefined {
  if (language !== 'json' || text.trim() === '' || REFERENCE_TOKEN.test(text)) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    return `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** The language hint shown beside a code field's name (not part of it). */
export const codeHint = (language: 'javascript' | 'json') => (language === 'json' ? 'JSON' : 'JavaScript');

/**
 * A code field (function code, JSON, schemas) in CodeMirror; sent on leaving it. JSON that does
 * not parse is sent as typed too — leaving the block must not throw the user's text away (n8n
 * keeps such text and marks the field; Sim stores whatever is typed) — and the field says it is not
 * valid JSON whenever it shows it; the block's own checks (the run, the deploy check) name the field
 * where the value must be JSON; the API block sends a body that is not JSON as text. `<` offers the block's upstream outputs and `{{` the
 * environment variables, as text fields do.
 */
export function CodeField({ field, value, onChange, label: given }: { field: SubBlockConfig; value: unknown; onChange(v: unknown): void; label: string }) {
  const id = useId();
  const env = useContext(FormContext);
  const readOnly = env?.readOnly ?? false;
  const label = codeFieldName(field, given);
  // Read when a menu opens: the workflow as it is then (the form's env reads it through a getter).
  const references = (): ReferenceChoices | null =>
    env ? { refs: referenceOptions(env.state, env.blockId), envKeys: env.envKeys, refsAllowed: field.connectionDroppable !== false } : null;
  const language = codeLanguage(field);
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const { draft, change, onFocus, onBlur } = useDraft(text, (t) => {
    if (t !== text) onChange(t);
    return true;
  });
  const error = codeFieldProblem(language, draft);
  return (
    <div className="field field-code" onFocus={onFocus}>
      <div className="field-head">
        <label htmlFor={id}>{label}</label>
        <span className="field-hint">{codeHint(language)}</span>
      </div>
      {/* The editor's file not loading (a rebuild while edits were unsaved) leaves a plain box that still edits the field. */}
      <LoadBoundary
        fallback={(message) => (
          <>
            <textarea id={id} className="input mono" value={draft} rows={6} aria-label={label} placeholder={field.placeholder} readOnly={readOnly} onChange={(e) => change(e.target.value)} onBlur={onBlur} />
            <span className="field-hint">{message}</span>
          </>
        )}
      >
        <Suspense fallback={<textarea id={id} className="input mono" readOnly value={draft} rows={4} aria-label={label} />}>
          <CodeEditor value={draft} language={language} label={label} placeholder={field.placeholder} onChange={change} onBlur={onBlur} minHeight={field.id === 'code' ? 160 : 80} readOnly={readOnly} references={references} />
        </Suspense>
      </LoadBoundary>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
