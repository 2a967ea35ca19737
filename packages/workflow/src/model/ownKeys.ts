/**
 * Blocks, sub-blocks and variables are plain objects keyed by ids users choose, so an id may be any
 * name: `constructor` or `toString` is an ordinary id. A plain index (`blocks[id]`) would find
 * Object.prototype's members under those names, and an assignment to `__proto__` would replace the
 * object's prototype, so ids are read and written through these.
 */

/** The value `record` holds under `key` itself, never one inherited (`constructor`, `toString`…). */
function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Whether `record` holds `key` itself. */
function hasOwnKey(record: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.hasOwn(record, key);
}

/** Sets `key` as an own property; `__proto__` too, which a plain assignment would take as the prototype. */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** An id no command may use: it cannot round-trip as a key of a JSON object (parsers drop it or take it as the prototype). */
const RESERVED_ID = '__proto__';

export { ownValue, hasOwnKey, setOwn, RESERVED_ID };
