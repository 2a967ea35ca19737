/*
 * Replay: the runner's workflow code masks run logs with these forms behind the patch 'secret-forms'
 * (services/runner: logMasking), and a masked error decides a failed block's {error} and whether a
 * value is kept aside. Any change to what this file answers (a form added or dropped, looksRandom,
 * the lengths) changes how runs recorded after that patch replay: put the runner's use of the new
 * answer behind a new patch id, keeping the old one's.
 */

/** Secrets shorter than this are never looked for: they would match inside nearly any text (a port, a word). */
export const MIN_SECRET_LENGTH = 4;

/**
 * Secrets at least this long that look random (upper-case letters and digits) are looked for
 * lower-cased too (a host or a log that lower-cases what it echoes). Shorter or word-like values
 * (`Prod`, `EU-WEST-1`, `TRUE`) are not: lower-cased they match ordinary words.
 */
export const MIN_LOWER_CASED_LENGTH = 12;

/** A secret worth looking for lower-cased: long, with an upper-case letter and a digit (a key, a token; not a word or a region). */
export function looksRandom(value: string): boolean {
  return value.length >= MIN_LOWER_CASED_LENGTH && /[A-Z]/.test(value) && /[0-9]/.test(value);
}

/** application/x-www-form-urlencoded (URLSearchParams): as encodeURIComponent, with spaces as + and !'()~ encoded too. */
function formEncoded(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A percent-encoded text with lower-case hex digits (%2f), as some encoders write it. */
const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());

/**
 * As JSON writes the text inside a string, as ASCII-only JSON writers do (é as \u00e9 or \u00E9),
 * and each with / escaped as \/ (PHP's json_encode, some Java writers).
 */
function jsonEscaped(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const ascii = (upper: boolean) =>
    json.replace(/[\u007f-\uffff]/g, (c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
  return [json, ascii(false), ascii(true)].flatMap((j) => [j, j.replace(/\//g, '\\/')]);
}

/** Encodes a text, or answers undefined for one that cannot be (a lone surrogate). */
function safely(encode: (v: string) => string, value: string): string | undefined {
  try {
    return encode(value);
  } catch {
    return undefined;
  }
}

/**
 * Every text a secret may show as in a result, an error or a log: as given, percent-encoded
 * (encodeURIComponent and encodeURI, upper- or lower-case hex: a query or a redirect URL),
 * form-encoded (spaces as +: a form body a provider echoes), JSON-escaped (a JSON body quoted in an
 * error text; \uXXXX either case, / as \/ or not) and, for a long random-looking secret only
 * (looksRandom), lower-cased; without duplicates. Each encoded form differs from the text only for a
 * secret with characters to encode, so a plain word is looked for as given only. Callers skip
 * secrets under MIN_SECRET_LENGTH. Pure and free of Node built-ins, so the runner's workflow code
 * masks logs with the same forms the tool runtime redacts.
 */
export function secretForms(value: string): string[] {
  const encoded = [safely(encodeURIComponent, value), safely(encodeURI, value), safely(formEncoded, value)].filter((f): f is string => f !== undefined);
  const forms = [value, ...(looksRandom(value) ? [value.toLowerCase()] : []), ...encoded, ...encoded.map(lowerHex), ...jsonEscaped(value)];
  return [...new Set(forms)];
}

/**
 * An object's entries with each key rewritten by `rename` (a secret in a key redacted or masked),
 * never merging two: a rewritten key that another entry already has gets ` (2)`, ` (3)`… so no
 * value is dropped; keys `rename` leaves alone keep their names. Order is kept.
 */
export function renameKeys(entries: ReadonlyArray<readonly [string, unknown]>, rename: (key: string) => string): Record<string, unknown> {
  const names = entries.map(([k]) => rename(k));
  const taken = new Set(entries.filter(([k], i) => names[i] === k).map(([k]) => k));
  return Object.fromEntries(
    entries.map(([k, v], i) => {
      const wanted = names[i] ?? k;
      if (wanted === k) return [k, v];
      let name = wanted;
      for (let n = 2; taken.has(name); n++) name = `${wanted} (${n})`;
      taken.add(name);
      return [name, v];
    }),
  );
}
