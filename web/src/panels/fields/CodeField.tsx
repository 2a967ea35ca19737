import { lazy, Suspense, useContext, useId } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { LoadBoundary } from '../../ui/LoadBoundary';
import { useDraft } from '../useDraft';
import { FormContext } from './FormContext';

const CodeEditor = lazy(() => import('./CodeEditor'));

/** JSON, not JavaScript: schemas, bodies and data (by id, title or placeholder). */
export function codeLanguage(field: SubBlockConfig): 'javascript' | 'json' {
  if (field.id === 'code') return 'javascript';
  const words = `${field.id} ${field.title ?? ''} ${field.placeholder ?? ''}`.toLowerCase();
  return /json|schema|body|data|format|messages|filter|headers|records|fields|memories/.test(words) ? 'json' : 'javascript';
}

/**
 * A code field (function code, JSON, schemas) in CodeMirror; sent on leaving it. JSON that does
 * not parse is shown as an error and not sent.
 */
export function CodeField({ field, value, onChange, label }: { field: SubBlockConfig; value: unknown; onChange(v: unknown): void; label: string }) {
  const id = useId();
  const readOnly = useContext(FormContext)?.readOnly ?? false;
  const language = codeLanguage(field);
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  const problem = (t: string) => {
    if (language !== 'json' || t.trim() === '' || /<[\w.]+>|\{\{[\w]+\}\}/.test(t)) return undefined;
    try {
      JSON.parse(t);
      return undefined;
    } catch (e) {
      return `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  const { draft, dirty, change, onFocus, onBlur } = useDraft(text, (t) => {
    if (problem(t)) return false;
    if (t !== text) onChange(t);
    return true;
  });
  const error = dirty ? problem(draft) : undefined;
  return (
    <div className="field field-code" onFocus={onFocus}>
      <label htmlFor={id}>
        {label}
        <span className="field-hint">{language === 'json' ? 'JSON' : 'JavaScript'}</span>
      </label>
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
          <CodeEditor value={draft} language={language} label={label} placeholder={field.placeholder} onChange={change} onBlur={onBlur} minHeight={field.id === 'code' ? 160 : 80} readOnly={readOnly} />
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
