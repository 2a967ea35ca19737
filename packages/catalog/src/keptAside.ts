/**
 * When a run's value is kept outside Temporal's history (stored among the run's values and passed by
 * reference): one threshold and one measure for the runner's workflow and the integrations worker,
 * which keeps large function and tool outputs aside itself. Pure: it runs in the workflow sandbox too.
 */

/** Values whose JSON text is longer than this many UTF-8 bytes are kept aside (256 KB). */
export const KEEP_ASIDE_OVER_BYTES = 256 * 1024;

/**
 * UTF-8 bytes of a text, without Buffer or TextEncoder (the workflow sandbox has neither for sure).
 * A lone surrogate counts 3 bytes, as the replacement character it is encoded as.
 */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: two units, four bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Whether a JSON text is longer than `limit` UTF-8 bytes; measured only when its length alone does
 * not tell (every UTF-16 unit is 1 to 3 bytes).
 */
export function overBytes(json: string, limit: number): boolean {
  if (json.length > limit) return true;
  if (json.length * 3 <= limit) return false;
  return utf8Bytes(json) > limit;
}
