import { MIN_SECRET_LENGTH } from './secretForms.js';
/*
 * Pure and free of Node built-ins: the tool runtime's redaction and the runner's workflow code (run
 * log masks, behind patch secret-overlap) find secrets in a text with the same two steps.
 */

/** Up to this many texts searched for, each is looked for with String.includes; more, in one scan of the text. */
const INCLUDES_AT_MOST = 64;
/** The scan's table: hashes of a text's first PREFIX characters, 2^HASH_BITS slots. */
const PREFIX = MIN_SECRET_LENGTH;
const HASH_BITS = 16;
const hashAt = (t: string, i: number): number =>
  ((t.charCodeAt(i) << 12) ^ (t.charCodeAt(i + 1) << 8) ^ (t.charCodeAt(i + 2) << 4) ^ t.charCodeAt(i + 3) ^ (t.charCodeAt(i) >>> 4)) & ((1 << HASH_BITS) - 1);

/** A stretch of a text that secrets cover: [start, end), and the forms that reach across it, in order. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  /** Indexes into the forms searched: the longest one at the span's start, then each that reaches past it. */
  readonly forms: readonly number[];
}

/** Looks for a list of texts (a call's secrets in all their forms) in texts. */
export interface FormSearch {
  /** Indexes of the forms `text` holds, in order. */
  holds(text: string): number[];
  /**
   * Every stretch of `text` covered by an occurrence of a form (of those at the indexes `among`
   * only, when given: the ones known to be in it), occurrences that overlap merged into one span,
   * and ones that merely touch too with `joinTouching`, so no part of any secret is left between two
   * replaced ones (secrets 'abcdef12345' and '12345XYZ' in 'abcdef12345XYZ': one span). Every
   * occurrence counts, a form overlapping itself too.
   */
  spans(text: string, joinTouching: boolean, among?: readonly number[]): SecretSpan[];
}

/**
 * Builds spans from occurrences given in order of start (at one start, the longest first): each one
 * overlapping (or, with joinTouching, touching) the span before extends it.
 */
function spanBuilder(joinTouching: boolean): { add(start: number, end: number, form: number): void; spans: SecretSpan[] } {
  const spans: Array<{ start: number; end: number; forms: number[] }> = [];
  let current: { start: number; end: number; forms: number[] } | undefined;
  return {
    spans,
    add(start, end, form) {
      if (current && (start < current.end || (joinTouching && start === current.end))) {
        if (end > current.end) {
          current.end = end;
          current.forms.push(form);
        }
      } else {
        current = { start, end, forms: [form] };
        spans.push(current);
      }
    },
  };
}

/**
 * A search of `keys`. A few are each looked for with String.includes / indexOf; many (hundreds of
 * secrets, several forms each) would cost one pass of the text per key, so the text is scanned
 * once instead: at each position the hash of the next PREFIX characters is looked up among the
 * keys' (a table of their first characters), and only keys with that hash are compared there.
 * Either way a text holding no key costs at most one pass per key or one pass in all, never the
 * backtracking of one alternation of every key. Spans are found the same way (one indexOf per
 * occurrence, or the one scan) and merged as they come, never by a pass over every position.
 */
export function formSearch(keys: readonly string[]): FormSearch {
  const indexOfEach = keys.length <= INCLUDES_AT_MOST || keys.some((k) => k.length < PREFIX);
  const slots = new Uint8Array(indexOfEach ? 0 : 1 << HASH_BITS);
  const byHash = new Map<number, number[]>();
  if (!indexOfEach)
    keys.forEach((k, i) => {
      const h = hashAt(k, 0);
      slots[h] = 1;
      const list = byHash.get(h);
      if (list) list.push(i);
      else byHash.set(h, [i]);
    });
  // At one position the longer key is met first (a key inside a longer one adds nothing to its span).
  for (const list of byHash.values()) list.sort((a, b) => (keys[b] ?? '').length - (keys[a] ?? '').length || a - b);
  /** Calls `found(at, i)` for every occurrence of a key (of the `wanted` ones only, when given) in one pass of the text. */
  const scan = (text: string, found: (at: number, i: number) => void, wanted?: Uint8Array): void => {
    const end = text.length - PREFIX;
    for (let at = 0; at <= end; at++) {
      const h = hashAt(text, at);
      if (slots[h] === 0) continue;
      for (const i of byHash.get(h) ?? []) if ((!wanted || wanted[i] === 1) && text.startsWith(keys[i] ?? '', at)) found(at, i);
    }
  };
  return {
    holds(text) {
      if (indexOfEach) {
        const found: number[] = [];
        for (let i = 0; i < keys.length; i++) if (text.includes(keys[i] ?? '')) found.push(i);
        return found;
      }
      const found = new Set<number>();
      scan(text, (_, i) => found.add(i));
      return [...found].sort((a, b) => a - b);
    },
    spans(text, joinTouching, among) {
      const built = spanBuilder(joinTouching);
      if (indexOfEach || (among !== undefined && among.length <= INCLUDES_AT_MOST)) {
        // Each key's occurrences, its own overlapping ones merged as found (a key repeated over a
        // whole text is one stretch, not one entry per position), then all stretches by start.
        const starts: number[] = [];
        const ends: number[] = [];
        const forms: number[] = [];
        const keep = (start: number, end: number, form: number): void => {
          starts.push(start);
          ends.push(end);
          forms.push(form);
        };
        let keysFound = 0;
        for (const i of among ?? keys.keys()) {
          const length = (keys[i] ?? '').length;
          if (length === 0) continue;
          const before = starts.length;
          let start = -1;
          let end = -1;
          for (let at = text.indexOf(keys[i] ?? ''); at !== -1; at = text.indexOf(keys[i] ?? '', at + 1)) {
            if (start !== -1 && (at < end || (joinTouching && at === end))) end = Math.max(end, at + length);
            else {
              if (start !== -1) keep(start, end, i);
              start = at;
              end = at + length;
            }
          }
          if (start !== -1) keep(start, end, i);
          if (starts.length > before) keysFound++;
        }
        const order = Uint32Array.from(starts.keys());
        if (keysFound > 1) order.sort((a, b) => (starts[a] ?? 0) - (starts[b] ?? 0) || (ends[b] ?? 0) - (ends[a] ?? 0));
        for (const o of order) built.add(starts[o] ?? 0, ends[o] ?? 0, forms[o] ?? 0);
      } else {
        let wanted: Uint8Array | undefined;
        if (among) {
          wanted = new Uint8Array(keys.length);
          for (const i of among) wanted[i] = 1;
        }
        scan(text, (start, i) => built.add(start, start + (keys[i] ?? '').length, i), wanted);
      }
      return built.spans;
    },
  };
}

/** `text` with each span replaced by what `shown(span)` answers. */
export function replaceSpans(text: string, spans: readonly SecretSpan[], shown: (span: SecretSpan) => string): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + shown(span);
    at = span.end;
  }
  return out + text.slice(at);
}
