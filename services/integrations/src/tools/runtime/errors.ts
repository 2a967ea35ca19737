/**
 * A failure worth retrying (network error, timeout of a service call, 429, 5xx, an unreachable
 * registry): the activity throws it as retryable so Temporal tries again; synchronous routes answer
 * it as a failed tool result.
 */
export class TransientToolError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** What the call answered (an HTTP response's data, status and headers), kept in an answered failure. */
    readonly output?: unknown,
  ) {
    super(message);
    this.name = 'TransientToolError';
  }
}

/** The message of anything thrown, or the spec's fallback. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === 'string' && err) return err;
  return 'Unknown error occurred';
}

/**
 * A secret's text as given and as a URL or form carries it: percent-encoded (encodeURIComponent) and
 * form-encoded (spaces as +). Callers add the forms their texts may also hold.
 */
export function encodedForms(value: string): string[] {
  return [value, encodeURIComponent(value), new URLSearchParams([['', value]]).toString().slice(1)];
}

/** Replaces every secret's text with [REDACTED] (tokens, keys, passwords never leave in results, errors or logs). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[REDACTED]');
  return out;
}

/**
 * Every secret's text replaced by [REDACTED] inside the strings (and keys) of a value, at any depth;
 * the value itself when none is in it. Walks the value rather than its JSON text, so a secret with
 * characters JSON escapes is found and the value's shape is kept.
 */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  const found = secrets.filter((s) => s.length >= 4);
  if (found.length === 0 || value === undefined || value === null) return value;
  const json = JSON.stringify(value);
  if (json === undefined || !found.some((s) => json.includes(JSON.stringify(s).slice(1, -1)))) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, found);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k, found), walk(x)]));
    return v;
  };
  return walk(value);
}

/** Proxy error text in logs is cut to 200 characters (spec 000 §8), the last one an ellipsis when cut. */
export function forLog(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
