import { operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, operationField, shortInput, when } from './fields.js';

/** Airtable operation → tool id. */
export const AIRTABLE_TOOLS = {
  list: 'airtable_list_records',
  get: 'airtable_get_record',
  create: 'airtable_create_records',
  update: 'airtable_update_record',
  updateMultiple: 'airtable_update_multiple_records',
} as const;

/** Airtable: list, get, create and update records. */
export const airtableBlock: BlockConfig = {
  type: 'airtable',
  name: 'Airtable',
  description: 'Read, create, and update Airtable',
  longDescription:
    'Integrate Airtable to manage table records. List, get, create and update records, one or many at a time, with an optional filter formula.',
  docsLink: 'https://docs.weft.dev/tools/airtable',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'AirtableIcon',
  subBlocks: [
    operationField([['list', 'List Records'], ['get', 'Get Record'], ['create', 'Create Records'], ['update', 'Update Record'], ['updateMultiple', 'Update Multiple Records']]),
    credentialField('airtable', 'airtable', 'Airtable Account', SCOPES.airtable, { id: 'credential' }),
    shortInput('baseId', 'Base ID', 'Enter your base ID (e.g., appXXXXXXXXXXXXXX)'),
    shortInput('tableId', 'Table ID', 'Enter table ID (e.g., tblXXXXXXXXXXXXXX)'),
    shortInput('recordId', 'Record ID', 'ID of the record (e.g., recXXXXXXXXXXXXXX)', { condition: when('operation', ['get', 'update']) }),
    shortInput('maxRecords', 'Max Records', 'Maximum records to return', { layout: 'half', condition: when('operation', 'list') }),
    shortInput('filterFormula', 'Filter Formula', 'Airtable formula to filter records (optional)', { condition: when('operation', 'list') }),
    { id: 'records', title: 'Records (JSON Array)', type: 'code', layout: 'full', placeholder: 'For Create: `[{ "fields": { ... } }]`', condition: when('operation', ['create', 'updateMultiple']) },
    { id: 'fields', title: 'Fields (JSON Object)', type: 'code', layout: 'full', placeholder: 'Fields to update: `{ "Field Name": "New Value" }`', condition: when('operation', 'update') },
  ],
  tools: {
    access: Object.values(AIRTABLE_TOOLS),
    config: { tool: operationTool(AIRTABLE_TOOLS, (op) => `Invalid Airtable operation: ${op}`) },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    baseId: { type: 'string', required: true },
    tableId: { type: 'string', required: true },
    recordId: { type: 'string', required: false },
    maxRecords: { type: 'number', required: false },
    filterFormula: { type: 'string', required: false },
    records: { type: 'json', required: false },
    fields: { type: 'json', required: false },
  },
  outputs: { records: 'json', record: 'json', metadata: 'json' },
};
