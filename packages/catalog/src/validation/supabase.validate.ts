import { isBlank, parseJson, text } from '../paramValues.js';

/** Supabase: data must be JSON for insert and update; delete needs a filter. */
export function validateSupabase(params: Record<string, unknown>): string | undefined {
  const op = params.operation;
  if ((op === 'insert' || op === 'update') && text(params.data) !== '' && !parseJson(params.data).ok) return 'Invalid JSON data format';
  if (op === 'delete' && isBlank(params.filter)) {
    return 'Filter is required for delete operations to prevent accidental deletion of all rows';
  }
  return undefined;
}
