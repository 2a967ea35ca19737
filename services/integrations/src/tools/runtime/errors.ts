import { MIN_SECRET_LENGTH, secretForms } from '@weft/catalog';

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
 * The secrets of one call, each in every form a result, error or log may carry it
 * (secretForms: as given, lower-cased, percent-, form- and JSON-escaped), expanded once when
 * built or added to, never per text; secrets under MIN_SECRET_LENGTH characters are left alone.
 */
export interface Redaction {
  /** Adds secrets known later (an OAuth token once fetched). */
  add(...values: ReadonlyArray<string | undefined>): void;
  /** The forms looked for, longest first. */
  readonly forms: readonly string[];
  /** The text with every form of every secret replaced by [REDACTED], in one pass. */
  text(text: string): string;
  /**
   * Every form replaced inside the strings (and keys) of a value, at any depth; the value itself
   * when none is in it. Walks the value rather than its JSON text, so a secret with characters JSON
   * escapes is found and the value's shape is kept.
   */
  value(value: unknown): unknown;
}

const REDACTED = '[REDACTED]';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A call's Redaction of `values` (environment values, tokens, passwords); blanks and short ones are skipped. */
export function redaction(values: Iterable<string | undefined> = []): Redaction {
  const all = new Set<string>();
  let forms: string[] = [];
  // Each form as it shows inside a JSON text: a value's quick check reads its JSON once.
  let inJson: string[] = [];
  let pattern: RegExp | undefined;
  const text = (t: string): string => (pattern === undefined ? t : t.replace(pattern, REDACTED));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
    return v;
  };
  const self: Redaction = {
    add(...more) {
      const before = all.size;
      for (const value of more) if (value !== undefined && value.length >= MIN_SECRET_LENGTH) for (const form of secretForms(value)) all.add(form);
      if (all.size === before) return;
      forms = [...all].sort((a, b) => b.length - a.length);
      inJson = forms.map((f) => JSON.stringify(f).slice(1, -1));
      pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
    },
    get forms() {
      return forms;
    },
    text,
    value(value) {
      if (pattern === undefined || value === undefined || value === null) return value;
      const json = JSON.stringify(value);
      if (json === undefined || !inJson.some((f) => json.includes(f))) return value;
      return walk(value);
    },
  };
  self.add(...values);
  return self;
}

/** Replaces every form of every secret with [REDACTED] (tokens, keys, passwords never leave in results, errors or logs). */
export function redact(text: string, secrets: Redaction): string {
  return secrets.text(text);
}

/** Every form of every secret replaced by [REDACTED] inside a value (Redaction.value). */
export function redactValue(value: unknown, secrets: Redaction): unknown {
  return secrets.value(value);
}

/** Proxy error text in logs is cut to 200 characters (spec 000 §8), the last one an ellipsis when cut. */
export function forLog(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
