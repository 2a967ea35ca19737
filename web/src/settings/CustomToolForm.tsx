import { lazy, Suspense } from 'react';
import { LoadBoundary } from '../ui/LoadBoundary';
import { TOOL_CODE_PLACEHOLDER, type ToolDraft } from './customTools';

const CodeEditor = lazy(() => import('../panels/fields/CodeEditor'));

/**
 * A custom tool's editor fields: its title, the parameter schema (JSON) and the code (JavaScript),
 * and why it cannot be saved; the settings page's editor and the agent's "Create a custom tool" dialog.
 */
export function CustomToolFields({ draft, onChange, problem }: { draft: ToolDraft; onChange(update: (draft: ToolDraft) => ToolDraft): void; problem: string | null }) {
  return (
    <>
      <label className="form-row">
        <span>Title</span>
        <input className="input" aria-label="Tool title" value={draft.title} onChange={(e) => onChange((d) => ({ ...d, title: e.target.value }))} />
      </label>
      <div className="form-row">
        <span>Schema (JSON)</span>
        <LoadBoundary>
          <Suspense fallback={<div className="code-editor loading" />}>
            <CodeEditor value={draft.schema} language="json" label="Tool schema" onChange={(schema) => onChange((d) => ({ ...d, schema }))} onBlur={() => {}} minHeight={180} />
          </Suspense>
        </LoadBoundary>
      </div>
      <div className="form-row">
        <span>Code (JavaScript; parameters are variables, return the result)</span>
        <LoadBoundary>
          <Suspense fallback={<div className="code-editor loading" />}>
            <CodeEditor value={draft.code} language="javascript" label="Tool code" placeholder={TOOL_CODE_PLACEHOLDER} onChange={(code) => onChange((d) => ({ ...d, code }))} onBlur={() => {}} minHeight={160} />
          </Suspense>
        </LoadBoundary>
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </>
  );
}
