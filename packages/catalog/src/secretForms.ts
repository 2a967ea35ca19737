/** Secrets shorter than this are never looked for: they would match inside nearly any text (a port, a word). */
export const MIN_SECRET_LENGTH = 4;

/** application/x-www-form-urlencoded (URLSearchParams): as encodeURIComponent, with spaces as + and !'()~ encoded too. */
function formEncoded(value: string): string {
  return encodeURIComponent(value)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** As JSON writes the text inside a string, and as ASCII-only JSON writers do (é as \u00e9). */
function jsonEscaped(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [json, json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)];
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
 * Every text a secret may show as in a result, an error or a log: as given, lower-cased,
 * percent-encoded (encodeURIComponent and encodeURI: a query or a redirect URL), form-encoded
 * (spaces as +: a form body a provider echoes) and JSON-escaped (a JSON body quoted in an error
 * text), without duplicates. Callers skip secrets under MIN_SECRET_LENGTH. Pure and free of Node
 * built-ins, so the runner's workflow code masks logs with the same forms the tool runtime redacts.
 */
export function secretForms(value: string): string[] {
  const forms = [value, value.toLowerCase(), safely(encodeURIComponent, value), safely(encodeURI, value), safely(formEncoded, value), ...jsonEscaped(value)];
  return [...new Set(forms.filter((f): f is string => f !== undefined))];
}
