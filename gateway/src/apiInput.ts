import { AppError } from '@weft/platform';
import { inputFormatFields, type InputField } from '@weft/catalog';
import { fieldsOf } from './fields.js';
import { NOT_A_JSON_OBJECT } from './validate.js';

/** What a state's blocks hold that the input check reads: the starter's mode and input format. */
interface StarterView {
  type?: unknown;
  subBlocks?: Record<string, { value?: unknown } | undefined>;
}

/**
 * The fields of the starter's "Input Format (for API calls)" that a run's input is checked against:
 * the form shows that field only while the starter runs manually (the default), so a starter in
 * webhook, schedule or chat mode asks for nothing however its hidden rows read.
 */
export function apiInputFields(blocks: Record<string, unknown>): InputField[] {
  const starter = Object.values(blocks).find((b): b is StarterView => typeof b === 'object' && b !== null && 'type' in b && b.type === 'starter');
  const mode = starter?.subBlocks?.startWorkflow?.value;
  if (mode !== undefined && mode !== null && mode !== '' && mode !== 'manual') return [];
  return inputFormatFields(starter?.subBlocks?.inputFormat?.value);
}

/** A value's kind, as an error names what was sent instead (never the value: it may be a secret). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}

function refuse(field: InputField, wanted: string, value: unknown): never {
  throw new AppError('validation', `Input field "${field.name}" must be ${wanted} (the workflow's input format), got ${kindOf(value)}`);
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One field's value as its type reads it. As Sim's API does, text that reads as the type is taken as
 * it (`"36"` for a number, `"true"` for a boolean, JSON text for an object or array, a number or
 * boolean for text); a value that cannot be read so is a 400 naming the field, where Sim would pass
 * it on unchanged for a block to trip over. null is no value.
 */
function asFieldType(field: InputField, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (field.type) {
    case 'number': {
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      return Number.isFinite(n) ? n : refuse(field, 'a number', value);
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
      return text === 'true' ? true : text === 'false' ? false : refuse(field, 'true or false', value);
    }
    case 'object': {
      const v = typeof value === 'string' ? parsedJson(value) : value;
      return isPlainObject(v) ? v : refuse(field, 'a JSON object', value);
    }
    case 'array': {
      const v = typeof value === 'string' ? parsedJson(value) : value;
      return Array.isArray(v) ? v : refuse(field, 'a JSON array', value);
    }
    case 'string':
      if (typeof value === 'string') return value;
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : refuse(field, 'text', value);
    default:
      // A type the form does not offer (written by hand or by an older form): taken as it comes.
      return value;
  }
}

/**
 * A run's input checked against the starter's input format: each field given is read as its type
 * (`asFieldType`); fields left out stay out (`<start.x>` reads null, as in Sim) and fields the format
 * does not name pass unchanged. With fields to read, the input must be an object of them.
 */
export function checkApiInput(fields: readonly InputField[], input: unknown): unknown {
  if (fields.length === 0 || input === null || input === undefined) return input;
  if (!isPlainObject(input)) {
    throw new AppError('validation', `Request body must be a JSON object of the workflow's input fields (${fields.map((f) => f.name).join(', ')}), got ${kindOf(input)}`);
  }
  const out: Record<string, unknown> = { ...input };
  for (const field of fields) {
    if (Object.hasOwn(input, field.name)) out[field.name] = asFieldType(field, input[field.name]);
  }
  return out;
}

/**
 * The run input of a body that came without a JSON content type (the JSON parser left it): text that
 * is JSON is taken as JSON — `curl -d '{"a":1}'` sends a form type, and Sim reads any body as JSON —
 * and a form as an object of its fields; anything else is a 400 naming the content type.
 */
export function inputOfText(contentType: string | undefined, text: string): unknown {
  if (text.trim() === '') return null;
  const json = parsedJson(text);
  // As the JSON parser answers a JSON body that is no object or array.
  if (json !== undefined && (typeof json !== 'object' || json === null)) throw new AppError('validation', NOT_A_JSON_OBJECT);
  if (json !== undefined) return json;
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') return fieldsOf(new URLSearchParams(text));
  const named = type === '' ? 'a body without Content-Type' : `Content-Type ${type.slice(0, 80)}`;
  throw new AppError('validation', `Request body must be JSON (Content-Type: application/json) or a form; ${named} that is not JSON was sent`);
}
