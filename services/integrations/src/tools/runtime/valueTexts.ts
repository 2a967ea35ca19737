import { renameKeys } from '@weft/catalog';

/** What an object met again inside itself becomes (a cause chain that loops). */
const CIRCULAR = '[Circular]';

const isPlain = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Objects that hold no text to search, kept as they are: a Date, a RegExp, bytes (binary is not decoded to be searched). */
const holdsNoText = (v: object): boolean => v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v) || v instanceof ArrayBuffer;

/** What JSON would write for an object with a toJSON method (a URL: its href), or undefined. */
function jsonOf(v: object): { json: unknown } | undefined {
  if (isPlain(v) || !('toJSON' in v) || typeof v.toJSON !== 'function') return undefined;
  const toJSON: unknown = v.toJSON;
  return typeof toJSON === 'function' ? { json: Reflect.apply(toJSON, v, ['']) } : undefined;
}

/** An Error's own properties (message, stack, cause, errors, code…), each with its descriptor and value. */
function errorParts(err: Error): Array<[PropertyKey, PropertyDescriptor, unknown]> {
  return Reflect.ownKeys(err).map((key) => {
    const d = Object.getOwnPropertyDescriptor(err, key) ?? {};
    return [key, d, 'value' in d ? d.value : Reflect.get(err, key)];
  });
}

/** Calls `visit` with every string and object key a value holds at any depth: the texts `walkValue` rewrites. */
export function visitTexts(value: unknown, visit: (text: string) => void, path = new Set<object>()): void {
  if (typeof value === 'string') {
    visit(value);
    return;
  }
  if (value === null || typeof value !== 'object' || path.has(value)) return;
  path.add(value);
  const json = Array.isArray(value) ? undefined : jsonOf(value);
  if (Array.isArray(value)) for (const v of value) visitTexts(v, visit, path);
  else if (json) visitTexts(json.json, visit, path);
  else if (isPlain(value))
    for (const k of Object.keys(value)) {
      visit(k);
      visitTexts(Reflect.get(value, k), visit, path);
    }
  else if (value instanceof Set) for (const v of value) visitTexts(v, visit, path);
  else if (value instanceof Map)
    for (const [k, v] of value) {
      visitTexts(k, visit, path);
      visitTexts(v, visit, path);
    }
  else if (value instanceof Error) for (const [, , v] of errorParts(value)) visitTexts(v, visit, path);
  else if (!holdsNoText(value))
    for (const [k, v] of Object.entries(value)) {
      visit(k);
      visitTexts(v, visit, path);
    }
  path.delete(value);
}

/** A Map's entries with `rewrite` applied to its string keys, never merging two (as renameKeys), and `walk` to the rest. */
function mapEntries(map: Map<unknown, unknown>, rewrite: (t: string) => string, walk: (v: unknown) => unknown): Array<[unknown, unknown]> {
  const entries = [...map];
  const stringKeys = entries.flatMap(([k], i) => (typeof k === 'string' ? [[k, i] as const] : []));
  const names = new Map(Object.entries(renameKeys(stringKeys, rewrite)).map(([name, i]) => [i, name]));
  return entries.map(([k, v], i) => [typeof k === 'string' ? (names.get(i) ?? k) : walk(k), walk(v)]);
}

/**
 * A copy of a value with `rewrite` applied to every string and plain object key at any depth (keys
 * never merged: renameKeys). Arrays, plain objects, Maps and Sets are rebuilt; an Error becomes an
 * object of its class (same prototype) with each own property rewritten; an object with toJSON
 * becomes what toJSON answers, rewritten; a Date, a RegExp and binary data are kept as they are; an
 * object met again inside itself becomes '[Circular]'.
 */
export function walkValue(value: unknown, rewrite: (t: string) => string, path = new Set<object>()): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (value === null || typeof value !== 'object' || holdsNoText(value)) return value;
  if (path.has(value)) return CIRCULAR;
  path.add(value);
  const walk = (v: unknown): unknown => walkValue(v, rewrite, path);
  const json = jsonOf(value);
  let out: unknown;
  if (json) out = walk(json.json);
  else if (Array.isArray(value)) out = value.map(walk);
  else if (value instanceof Set) out = new Set([...value].map(walk));
  else if (value instanceof Map) out = new Map(mapEntries(value, rewrite, walk));
  else if (value instanceof Error) {
    const copy: object = Object.create(Object.getPrototypeOf(value));
    for (const [key, d, v] of errorParts(value)) {
      Object.defineProperty(copy, key, { value: walk(v), writable: d.writable ?? true, enumerable: d.enumerable ?? false, configurable: d.configurable ?? true });
    }
    out = copy;
  } else out = renameKeys(Object.entries(value).map(([k, x]) => [k, walk(x)] as const), rewrite);
  path.delete(value);
  return out;
}
