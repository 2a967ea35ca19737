import type { ToolConfig, ToolParam } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const API = 'https://api.airtable.com/v0/{baseId}/{tableId}';
const common: Record<string, ToolParam> = {
  accessToken: accessToken('Airtable'),
  baseId: need('string', 'user', 'ID of the Airtable base'),
  tableId: need('string', 'user', 'ID or name of the table'),
};

const tool = toolFamily({ baseUrl: API, headers: bearer(), common, oauth: oauth('airtable', SCOPES.airtable) });

/** Airtable record tools. */
export const airtableTools: ToolConfig[] = [
  tool('airtable_list_records', 'Airtable List Records', 'Read records from an Airtable table', 'GET', '?maxRecords={maxRecords}&filterByFormula={filterFormula}', {
    maxRecords: may('number', 'user', 'Maximum number of records to return'),
    filterFormula: may('string', 'llm', 'Formula to filter records'),
  }),
  tool('airtable_get_record', 'Airtable Get Record', 'Retrieve a single record from an Airtable table by its ID', 'GET', '/{recordId}', {
    recordId: need('string', 'llm', 'ID of the record to retrieve'),
  }),
  tool('airtable_create_records', 'Airtable Create Records', 'Write new records to an Airtable table', 'POST', '', {
    records: need('json', 'llm', 'Array of records to create, each with a `fields` object'),
  }),
  tool('airtable_update_record', 'Airtable Update Record', 'Update an existing record in an Airtable table by ID', 'PATCH', '/{recordId}', {
    recordId: need('string', 'llm', 'ID of the record to update'),
    fields: need('json', 'llm', 'An object containing the field names and their new values'),
  }),
  tool('airtable_update_multiple_records', 'Airtable Update Multiple Records', 'Update multiple existing records in an Airtable table', 'PATCH', '', {
    records: need('json', 'llm', 'Array of records to update, each with an `id` and a `fields` object'),
  }),
];
