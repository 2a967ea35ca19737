import { createContext, memo, useContext, useState } from 'react';

/** Longest string shown whole; longer ones are cut with a count of what was left out. */
const MAX_TEXT = 2_000;
/** Entries of an object or array shown before "… n more". */
const MAX_ENTRIES = 200;

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

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

/**
 * Reads a stored value an answer left as a reference (`{$blobRef, bytes}`: past the 16 MB of values
 * one answer carries). Given by the run console for the execution shown; without it a reference
 * shows as what it is.
 */
export const StoredValueLoader = createContext<((ref: string) => Promise<unknown>) | null>(null);

/** `{$blobRef, bytes}` and nothing else: a value kept aside that the answer did not carry. */
function storedRef(value: unknown): { ref: string; bytes: number } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { $blobRef, bytes, ...rest } = value as { $blobRef?: unknown; bytes?: unknown };
  return typeof $blobRef === 'string' && Object.keys(rest).length === 0 ? { ref: $blobRef, bytes: Number(bytes) || 0 } : undefined;
}

type Loaded = { state: 'idle' } | { state: 'loading' } | { state: 'loaded'; value: unknown } | { state: 'failed'; message: string };

function StoredValue({ name, stored, depth }: { name?: string; stored: { ref: string; bytes: number }; depth: number }) {
  const load = useContext(StoredValueLoader);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' });
  if (loaded.state === 'loaded') return <Node name={name} value={loaded.value} depth={depth} />;
  const fetchIt = () => {
    if (!load) return;
    setLoaded({ state: 'loading' });
    load(stored.ref).then(
      (value) => setLoaded({ state: 'loaded', value }),
      (err: unknown) => setLoaded({ state: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
  };
  return (
    <div className="json-stored">
      {name !== undefined && <span className="json-key">{name}: </span>}
      <span className="json-null">stored value, {formatBytes(stored.bytes)}</span>{' '}
      {load && (
        <button type="button" className="btn btn-sm" onClick={fetchIt} disabled={loaded.state === 'loading'} aria-label={`Load value${name !== undefined ? ` ${name}` : ''}`}>
          {loaded.state === 'loading' ? 'Loading…' : 'Load value'}
        </button>
      )}
      {loaded.state === 'failed' && (
        <span className="log-error" role="alert">
          {' '}
          {loaded.message}
        </span>
      )}
    </div>
  );
}

function Node({ name, value, depth }: { name?: string; value: unknown; depth: number }) {
  const stored = storedRef(value);
  if (stored) return <StoredValue name={name} stored={stored} depth={depth} />;
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
