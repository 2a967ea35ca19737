import { MIN_SECRET_LENGTH, type FormSearch, formSearch, replaceSpans, secretForms } from '@weft/catalog';
import { visitTexts, walkValue } from './valueTexts.js';

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
 * (secretForms: as given, percent-, form- and JSON-escaped, a long random one lower-cased too),
 * expanded once when built or added to; secrets under MIN_SECRET_LENGTH characters are left alone.
 */
export interface Redaction {
  /** Adds secrets known later (an OAuth token once fetched). */
  add(...values: ReadonlyArray<string | undefined>): void;
  /** The forms looked for, longest first. */
  readonly forms: readonly string[];
  /**
   * The text with every occurrence of every form of every secret replaced, occurrences that overlap
   * or touch as one [REDACTED] (secrets 'abcdef12345' and '12345XYZ' in 'abcdef12345XYZ': no tail
   * of either is left); only the forms the text holds are looked for (most texts hold none and come
   * back at once).
   */
  text(text: string): string;
  /**
   * Every form replaced (as in `text`) inside the strings and keys of a value, at any depth, never
   * merging two keys (`renameKeys`: a redacted key another already has becomes `[REDACTED] (2)`, so
   * no value is dropped); the value itself when none is in it. An Error becomes a copy of its class
   * with every own property (message, stack, cause, code…) redacted, a Map and a Set new ones with
   * their entries redacted, an object with toJSON (a URL) what toJSON answers, redacted; a Date and
   * binary data (typed arrays, ArrayBuffer) hold no text and are kept; an object met again inside
   * itself becomes '[Circular]'.
   */
  value(value: unknown): unknown;
}

const REDACTED = '[REDACTED]';

/** A call's Redaction of `values` (environment values, tokens, passwords); blanks and short ones are skipped. */
export function redaction(values: Iterable<string | undefined> = []): Redaction {
  const all = new Set<string>();
  let forms: string[] = [];
  let search: FormSearch = formSearch([]);
  // Every occurrence of the forms (of `among` only, when given), overlapping or touching ones merged: one marker each.
  const replaceIn = (t: string, among?: readonly number[]): string => (among?.length === 0 ? t : replaceSpans(t, search.spans(t, true, among), () => REDACTED));
  const text = (t: string): string => (forms.length === 0 || t.length < MIN_SECRET_LENGTH ? t : replaceIn(t));
  const self: Redaction = {
    add(...more) {
      const before = all.size;
      for (const value of more) if (value !== undefined && value.length >= MIN_SECRET_LENGTH) for (const form of secretForms(value)) all.add(form);
      if (all.size === before) return;
      forms = [...all].sort((a, b) => b.length - a.length);
      search = formSearch(forms);
    },
    get forms() {
      return forms;
    },
    text,
    value(value) {
      if (forms.length === 0 || value === undefined || value === null) return value;
      // Each text is searched for all forms; only the forms found somewhere are looked for when rewriting.
      const found = new Set<number>();
      visitTexts(value, (t) => {
        if (t.length >= MIN_SECRET_LENGTH) for (const i of search.holds(t)) found.add(i);
      });
      if (found.size === 0) return value;
      const among = [...found].sort((a, b) => a - b);
      return walkValue(value, (t) => replaceIn(t, among.filter((i) => t.includes(forms[i] ?? ''))));
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
