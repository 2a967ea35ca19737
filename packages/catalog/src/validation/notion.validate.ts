import { parseJson, text } from '../paramValues.js';

const JSON_FIELDS: Readonly<Record<string, readonly string[]>> = {
  notion_query_database: ['filter', 'sorts'],
  notion_create_database: ['properties'],
};

/** Notion: JSON fields of the operation must parse. */
export function validateNotion(params: Record<string, unknown>): string | undefined {
  for (const field of JSON_FIELDS[text(params.operation)] ?? []) {
    const value = params[field];
    if (text(value) === '') continue;
    const parsed = parseJson(value);
    if (!parsed.ok) return `Invalid JSON for ${field}: ${parsed.error}`;
  }
  return undefined;
}
