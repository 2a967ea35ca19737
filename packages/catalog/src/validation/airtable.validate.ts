import { parseJson, text } from '../paramValues.js';

const OPERATIONS = ['list', 'get', 'create', 'update', 'updateMultiple'];

/** Airtable: a known operation, and parseable JSON for records (create, updateMultiple) or fields (update). */
export function validateAirtable(params: Record<string, unknown>): string | undefined {
  const op = text(params.operation);
  if (!OPERATIONS.includes(op)) return `Invalid Airtable operation: ${op}`;
  const source = op === 'create' || op === 'updateMultiple' ? params.records : op === 'update' ? params.fields : undefined;
  if (source === undefined) return undefined;
  const parsed = parseJson(source);
  return parsed.ok ? undefined : `Invalid JSON input for ${op} operation: ${parsed.error}`;
}
