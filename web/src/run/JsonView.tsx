import { memo } from 'react';

/** Longest string shown whole; longer ones are cut with a count of what was left out. */
const MAX_TEXT = 2_000;
/** Entries of an object or array shown before "… n more". */
const MAX_ENTRIES = 200;

function Leaf({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="json-null">{String(value)}</span>;
  if (typeof value === 'string') {
    const cut = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}… (${value.length - MAX_TEXT} more characters)` : value;
    return <span className="json-string">{JSON.stringify(cut)}</span>;
  }
  if (typeof value === 'number') return <span className="json-number">{value}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span>{String(value)}</span>;
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const label = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (typeof value !== 'object' || value === null) {
    return (
      <div>
        {label}
        <Leaf value={value} />
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  if (entries.length === 0) {
    return (
      <div>
        {label}
        <span className="json-null">{Array.isArray(value) ? '[]' : '{}'}</span>
      </div>
    );
  }
  return (
    <details open={depth < 2}>
      <summary>
        {label}
        <span className="json-null">{summary}</span>
      </summary>
      <div className="json-children">
        {entries.slice(0, MAX_ENTRIES).map(([k, v]) => (
          <Node key={k} name={k} value={v} depth={depth + 1} />
        ))}
        {entries.length > MAX_ENTRIES && <div className="json-null">… {entries.length - MAX_ENTRIES} more</div>}
      </div>
    </details>
  );
}

/** A JSON value as a tree whose objects and arrays fold (open two levels deep). */
export const JsonView = memo(function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <div className="json-view" aria-label={label} role="group">
      <Node value={value} depth={0} />
    </div>
  );
});
