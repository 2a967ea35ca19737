import { ModelRequestError } from '../errors.js';

/** Where a schema came from, for its errors: the agent block's Response Format field. */
export const RESPONSE_FORMAT_FIELD = 'the Response Format (responseFormat)';

/** Where a tool's parameters came from, for their errors. */
export const toolParametersField = (name: string): string => `the parameters of tool "${name}"`;

/** An answer's field as a message names it (`*` for an array's items). */
const fieldOf = (path: string[]): string => (path.length === 0 ? 'the root' : `field ${path.join('.')}`);

/**
 * The keys a local `$ref` (`#/$defs/Name`, any JSON pointer written as a URI fragment) walks:
 * percent-escapes decoded (RFC 6901 §6), then `~1` and `~0`. A `%` that is not an escape
 * (`#/$defs/a%zz`) is the user's to fix (ModelRequestError naming the ref, its field and `where`),
 * never a URIError.
 */
export function refKeys(ref: string, where: string, path: string[]): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((raw) => {
      let key: string;
      try {
        key = decodeURIComponent(raw);
      } catch {
        const stray = /%(?![0-9a-fA-F]{2})/.exec(raw);
        const reason = stray ? `"${raw.slice(stray.index, stray.index + 3)}" is not a percent-escape (write a % as %25)` : `"${raw}" is not percent-encoded UTF-8`;
        throw new ModelRequestError(`Invalid $ref ${JSON.stringify(ref)} at ${fieldOf(path)} in ${where}: ${reason}`);
      }
      return key.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** A JSON object (not an array, not null). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks every local `$ref` of a schema sent as it is (OpenAI resolves refs itself) with refKeys,
 * so a bad one fails before the request as the user's error. `path` is the answer's field.
 */
export function checkRefs(schema: unknown, where: string, path: string[] = []): void {
  if (Array.isArray(schema)) {
    for (const s of schema) checkRefs(s, where, path);
    return;
  }
  if (!isRecord(schema)) return;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/')) refKeys(schema.$ref, where, path);
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'properties' || key === '$defs' || key === 'definitions') && isRecord(value)) {
      for (const [name, sub] of Object.entries(value)) checkRefs(sub, where, key === 'properties' ? [...path, name] : [`#/${key}/${name}`]);
    } else if (key === 'items') checkRefs(value, where, [...path, '*']);
    else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') checkRefs(value, where, path);
  }
}
