import { MIN_SECRET_LENGTH, renameKeys, secretForms } from '@weft/catalog';

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
   * The text with every form of every secret replaced by [REDACTED]: only the forms the text holds
   * are looked for (most texts hold none and come back at once), the longest first.
   */
  text(text: string): string;
  /**
   * Every form replaced inside the strings and keys of a value, at any depth, never merging two
   * keys (`renameKeys`: a redacted key another already has becomes `[REDACTED] (2)`, so no value
   * is dropped); the value itself when none is in it. Walks the value rather than its JSON text, so
   * a secret with characters JSON escapes is found and the value's shape is kept.
   */
  value(value: unknown): unknown;
}

const REDACTED = '[REDACTED]';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Up to this many texts searched for, each is looked for with String.includes; more, in one scan of the text (`Finder`). */
const INCLUDES_AT_MOST = 64;
/** The scan's table: hashes of a text's first PREFIX characters, 2^HASH_BITS slots. */
const PREFIX = MIN_SECRET_LENGTH;
const HASH_BITS = 16;
const hashAt = (t: string, i: number): number =>
  ((t.charCodeAt(i) << 12) ^ (t.charCodeAt(i + 1) << 8) ^ (t.charCodeAt(i + 2) << 4) ^ t.charCodeAt(i + 3) ^ (t.charCodeAt(i) >>> 4)) & ((1 << HASH_BITS) - 1);

/**
 * Which of some texts (`keys`) a text holds, as indexes into keys. A few are each looked for with
 * String.includes; many (hundreds of secrets, several forms each) would cost one pass of the text
 * per key, so the text is scanned once instead: at each position the hash of the next PREFIX
 * characters is looked up among the keys' (a table of their first characters), and only keys with
 * that hash are compared there. Either way a text holding no key costs at most one pass per key or
 * one pass in all, never the backtracking of one alternation of every key.
 */
function finder(keys: readonly string[]): (text: string) => number[] {
  if (keys.length <= INCLUDES_AT_MOST || keys.some((k) => k.length < PREFIX)) {
    return (text) => keys.flatMap((k, i) => (text.includes(k) ? [i] : []));
  }
  const slots = new Uint8Array(1 << HASH_BITS);
  const byHash = new Map<number, number[]>();
  keys.forEach((k, i) => {
    const h = hashAt(k, 0);
    slots[h] = 1;
    const list = byHash.get(h);
    if (list) list.push(i);
    else byHash.set(h, [i]);
  });
  return (text) => {
    const found = new Set<number>();
    const end = text.length - PREFIX;
    for (let at = 0; at <= end; at++) {
      const h = hashAt(text, at);
      if (slots[h] === 0) continue;
      for (const i of byHash.get(h) ?? []) if (!found.has(i) && text.startsWith(keys[i] as string, at)) found.add(i);
    }
    return [...found].sort((a, b) => a - b);
  };
}

/** Regular expressions of the sets of forms texts held lately, kept a while (a call redacts many texts holding the same secret). */
const PATTERNS_KEPT = 32;

/** A call's Redaction of `values` (environment values, tokens, passwords); blanks and short ones are skipped. */
export function redaction(values: Iterable<string | undefined> = []): Redaction {
  const all = new Set<string>();
  let forms: string[] = [];
  let inText: (text: string) => number[] = () => [];
  // Each form as it shows inside a JSON text: a value is searched once, in its JSON.
  let inJson: (json: string) => number[] = () => [];
  const patterns = new Map<string, RegExp>();
  const patternOf = (found: readonly number[]): RegExp => {
    const key = found.join(',');
    let pattern = patterns.get(key);
    if (!pattern) {
      // forms are longest first, so a form inside a longer one is replaced as part of the longer.
      pattern = new RegExp(found.map((i) => escapeRegExp(forms[i] as string)).join('|'), 'g');
      if (patterns.size >= PATTERNS_KEPT) patterns.delete(patterns.keys().next().value as string);
      patterns.set(key, pattern);
    }
    return pattern;
  };
  const replaceIn = (t: string, found: readonly number[]): string => (found.length === 0 ? t : t.replace(patternOf(found), REDACTED));
  const text = (t: string): string => (forms.length === 0 || t.length < PREFIX ? t : replaceIn(t, inText(t)));
  const self: Redaction = {
    add(...more) {
      const before = all.size;
      for (const value of more) if (value !== undefined && value.length >= MIN_SECRET_LENGTH) for (const form of secretForms(value)) all.add(form);
      if (all.size === before) return;
      forms = [...all].sort((a, b) => b.length - a.length);
      inText = finder(forms);
      inJson = finder(forms.map((f) => JSON.stringify(f).slice(1, -1)));
      patterns.clear();
    },
    get forms() {
      return forms;
    },
    text,
    value(value) {
      if (forms.length === 0 || value === undefined || value === null) return value;
      const json = JSON.stringify(value);
      if (json === undefined) return value;
      const found = inJson(json);
      if (found.length === 0) return value;
      // Only the forms the value holds somewhere are looked for in each of its strings.
      const candidates = found.map((i) => forms[i] as string);
      const inString = (t: string): string => replaceIn(t, candidates.flatMap((f, j) => (t.includes(f) ? [found[j] as number] : [])));
      const walk = (v: unknown): unknown => {
        if (typeof v === 'string') return inString(v);
        if (Array.isArray(v)) return v.map(walk);
        if (v !== null && typeof v === 'object') return renameKeys(Object.entries(v).map(([k, x]) => [k, walk(x)] as const), inString);
        return v;
      };
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
