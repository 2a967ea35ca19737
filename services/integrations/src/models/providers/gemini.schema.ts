/** Gemini's Schema (the OpenAPI 3.0 subset of generateContent) from a JSON schema, and the answer's values given back as the schema asked. */
import { isRecord, refKeys } from './schemaRefs.js';

/** Keys of Gemini's Schema object (the OpenAPI 3.0 subset of generateContent); any other is dropped. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/**
 * A value the schema asked for in another form, to be given back as the tool expects it: `path` is
 * where it sits in the arguments (property names, `*` for an array's items). `json`: asked for as a
 * JSON string (`object`: only an object is taken from it, as the schema was an object); `typed`: an
 * integer, number or boolean enum asked for as a STRING enum, turned back into the value it names.
 */
export type Fixup = { path: string[]; kind: 'json'; object: boolean } | { path: string[]; kind: 'typed'; values: unknown[] };

/** Formats Gemini takes, by type; any other is refused 400 ("format: only 'enum' and 'date-time' are supported for STRING type"). */
const FORMATS: Record<string, string[]> = { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] };

/** How deep `$ref`s are inlined along one path; a (recursive) ref deeper than that is asked for as a JSON string. */
const MAX_REF_DEPTH = 4;

interface SchemaContext {
  /** The schema `$ref`s point into (`#/$defs/…`, `#/definitions/…`, `#`). */
  root: unknown;
  /** Where the schema comes from, for a bad `$ref`'s message (RESPONSE_FORMAT_FIELD, toolParametersField). */
  where: string;
  refDepth: number;
  fixups: Fixup[];
}

/** The schema a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into the root) names; undefined when it names none. A malformed one fails as the user's (refKeys). */
function resolveRef(ref: string, path: string[], ctx: SchemaContext): unknown {
  if (ref === '#') return ctx.root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = ctx.root;
  for (const key of refKeys(ref, ctx.where, path)) {
    if (!isRecord(at) || !(key in at)) return undefined;
    at = at[key];
  }
  return at;
}

function withNote(description: unknown, note: string): string {
  return typeof description === 'string' && description ? `${description} (${note})` : note;
}

/** A value asked for as a JSON string: any JSON for an unresolved or too-deep `$ref`. */
function jsonString(out: Record<string, unknown>, path: string[], ctx: SchemaContext, object: boolean): Record<string, unknown> {
  ctx.fixups.push({ path, kind: 'json', object });
  return { ...out, type: 'string', description: withNote(out.description, object ? 'a JSON object written as a string' : 'a JSON value written as a string') };
}

/**
 * A JSON schema as Gemini's Schema: unknown keys dropped (`additionalProperties`, `$schema`,
 * `examples`, …), local `$ref`s inlined (to MAX_REF_DEPTH; deeper, a JSON string), `const` as a
 * one-value enum, `oneOf` as `anyOf`, `["x", "null"]` as a nullable x and `["x", "y"]` as an anyOf.
 * Gemini refuses an OBJECT without properties, an array whose `items` has no type, an enum that is
 * not strings or not on a STRING, and formats other than enum/date-time (STRING), int32/int64
 * (INTEGER), float/double (NUMBER): an object without properties becomes a STRING holding its JSON
 * (parsed back), untyped items strings, an integer/number/boolean enum a STRING enum of the values
 * written out (turned back into the values), another format a note in the description.
 */
function convertSchema(given: unknown, path: string[], ctx: SchemaContext): Record<string, unknown> {
  if (!isRecord(given)) return { type: 'string' };
  const schema = given;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, path, ctx);
    const { $ref: _ref, ...siblings } = schema;
    if (!isRecord(target) || ctx.refDepth >= MAX_REF_DEPTH) return jsonString(typeof siblings.description === 'string' ? { description: siblings.description } : {}, path, ctx, false);
    return convertSchema({ ...target, ...siblings }, path, { ...ctx, refDepth: ctx.refDepth + 1 });
  }
  const out: Record<string, unknown> = {};
  let type = schema.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    if (types.length < type.length) out.nullable = true;
    if (types.length > 1) {
      // Several types: one anyOf branch each; the description stays on the whole.
      const { type: _type, description, title, nullable: _nullable, ...rest } = schema;
      return {
        ...out,
        ...(typeof description === 'string' ? { description } : {}),
        ...(typeof title === 'string' ? { title } : {}),
        anyOf: types.map((t) => convertSchema({ ...rest, type: t }, path, ctx)),
      };
    }
    type = types[0];
  }
  if (schema.oneOf !== undefined && schema.anyOf === undefined) out.anyOf = schema.oneOf;
  for (const [k, v] of Object.entries(schema)) if (SCHEMA_KEYS.has(k) && k !== 'type' && k !== 'properties' && k !== 'items' && k !== 'anyOf' && k !== 'required' && k !== 'format' && k !== 'enum') out[k] = v;
  if (Array.isArray(out.anyOf ?? schema.anyOf)) {
    // The branches keep the path: an object without properties in one is parsed back where the model answers it.
    out.anyOf = ((out.anyOf ?? schema.anyOf) as unknown[]).map((s) => convertSchema(s, path, ctx));
    if (type === undefined) return out;
  }
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  if (type === undefined) type = isRecord(schema.properties) ? 'object' : schema.items !== undefined ? 'array' : values?.every((v) => typeof v === 'number') ? 'number' : 'string';
  const lower = String(type).toLowerCase();
  if (lower === 'object') {
    const props = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
    if (props.length === 0) return jsonString(out, path, ctx, true);
    out.type = 'object';
    out.properties = Object.fromEntries(props.map(([k, v]) => [k, convertSchema(v, [...path, k], ctx)]));
    if (Array.isArray(schema.required)) out.required = schema.required.filter((r) => typeof r === 'string' && props.some(([k]) => k === r));
    return out;
  }
  if (lower === 'array') {
    const items = schema.items;
    out.type = 'array';
    out.items = isRecord(items) && Object.keys(items).some((k) => SCHEMA_KEYS.has(k) || k === 'const' || k === 'oneOf' || k === '$ref') ? convertSchema(items, [...path, '*'], ctx) : { type: 'string' };
    return out;
  }
  out.type = lower;
  if (typeof schema.format === 'string') {
    if (FORMATS[lower]?.includes(schema.format)) out.format = schema.format;
    else out.description = withNote(out.description, `format: ${schema.format}`);
  }
  if (values) {
    const named = values.filter((v) => v !== null);
    if (named.length < values.length) out.nullable = true;
    if (named.length > 0) {
      if (lower !== 'string' || named.some((v) => typeof v !== 'string')) {
        // Gemini takes enums of strings on STRING only: the values are asked for written out, and given back typed.
        ctx.fixups.push({ path, kind: 'typed', values: named });
        out.type = 'string';
        delete out.format;
        delete out.minimum;
        delete out.maximum;
      }
      out.enum = named.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    }
  }
  return out;
}

/** A tool's parameters as Gemini's Schema; undefined for a tool without parameters (Gemini: leave it unset). `where` names them in errors. */
export function geminiParameters(parameters: Record<string, unknown>, where: string): { schema?: Record<string, unknown>; fixups: Fixup[] } {
  if (!isRecord(parameters.properties) || Object.keys(parameters.properties).length === 0) return { fixups: [] };
  const ctx: SchemaContext = { root: parameters, where, refDepth: 0, fixups: [] };
  return { schema: convertSchema(parameters, [], ctx), fixups: ctx.fixups };
}

/**
 * A response schema as Gemini's Schema, with the answer's values it asks for in another form; no
 * schema (and no fixups) when the answer is an object without properties (any JSON object: JSON mode
 * without a schema). A nested one is asked for as a JSON string.
 */
export function geminiResponseSchema(schema: Record<string, unknown>, where: string): { schema?: Record<string, unknown>; fixups: Fixup[] } {
  const ctx: SchemaContext = { root: schema, where, refDepth: 0, fixups: [] };
  const converted = convertSchema(schema, [], ctx);
  return ctx.fixups.some((f) => f.kind === 'json' && f.path.length === 0) ? { fixups: [] } : { schema: converted, fixups: ctx.fixups };
}

/** A value the model gave for a fixup, as the tool expects it (left as given when it is not one the fixup reads). */
function fixValue(value: unknown, fixup: Fixup): unknown {
  if (typeof value !== 'string') return value;
  if (fixup.kind === 'typed') {
    const match = fixup.values.find((v) => (typeof v === 'string' ? v : JSON.stringify(v)) === value);
    return match === undefined ? value : match;
  }
  try {
    const parsed = JSON.parse(value) as unknown;
    return !fixup.object || isRecord(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Gives back, in the model's arguments, the values the schema asked for in another form. */
function applyFixup(value: unknown, fixup: Fixup, at = 0): unknown {
  if (at === fixup.path.length) return fixValue(value, fixup);
  const head = fixup.path[at];
  if (head === '*') return Array.isArray(value) ? value.map((v) => applyFixup(v, fixup, at + 1)) : value;
  if (!isRecord(value) || head === undefined || !(head in value)) return value;
  return { ...value, [head]: applyFixup(value[head], fixup, at + 1) };
}

/** Gives back, in a tool call's arguments or a structured answer, every value the schema asked for in another form. */
export function applyFixups(value: unknown, fixups: Fixup[]): unknown {
  return fixups.reduce((v, fixup) => applyFixup(v, fixup), value);
}

/**
 * A structured answer (JSON text) with the values its schema asked for in another form given back
 * (`"4"` as 4, a JSON string as the object); as it is when nothing changes or it is not JSON.
 */
export function fixedAnswer(text: string, fixups: Fixup[]): string {
  if (fixups.length === 0) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const fixed = JSON.stringify(applyFixups(parsed, fixups));
  return fixed === JSON.stringify(parsed) ? text : fixed;
}
