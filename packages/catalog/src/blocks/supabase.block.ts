import { operationTool, parseJson, text, toInt } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { longInput, operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = {
  query: 'supabase_query',
  get_row: 'supabase_get_row',
  insert: 'supabase_insert',
  update: 'supabase_update',
  delete: 'supabase_delete',
} as const;

/** Maps the form to the tool: data parsed (insert wraps one object in an array), filter trimmed and omitted when empty. */
function supabaseParams(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { projectId: p.projectId, table: p.table, apiKey: p.apiKey };
  const filter = text(p.filter);
  if (filter !== '') out.filter = filter;
  if (p.operation === 'insert' || p.operation === 'update') {
    const data = parseJson(p.data);
    const value = data.ok ? data.value : p.data;
    out.data = p.operation === 'insert' && !Array.isArray(value) ? [value] : value;
  }
  if (p.operation === 'query') {
    const orderBy = text(p.orderBy);
    if (orderBy !== '') out.orderBy = orderBy;
    if (text(p.limit) !== '') out.limit = toInt(p.limit, 100);
  }
  return out;
}

/** Supabase: query, read, insert, update and delete table rows over PostgREST. */
export const supabaseBlock: BlockConfig = {
  type: 'supabase',
  name: 'Supabase',
  description: 'Use Supabase database',
  longDescription:
    'Integrate with Supabase to manage your database with powerful data operations. Query, get, insert, update and delete rows using PostgREST filters.',
  docsLink: 'https://docs.weft.dev/tools/supabase',
  category: 'tools',
  bgColor: '#1C1C1C',
  icon: 'SupabaseIcon',
  subBlocks: [
    operationField([['query', 'Get Many Rows'], ['get_row', 'Get a Row'], ['insert', 'Create a Row'], ['update', 'Update a Row'], ['delete', 'Delete a Row']]),
    shortInput('projectId', 'Project ID', 'Your Supabase project ID (e.g., jdrkgepadsdopsntdlom)', { layout: 'half' }),
    shortInput('table', 'Table', 'Name of the table', { layout: 'half' }),
    secretField('apiKey', 'Service Role Secret', 'Your Supabase service role secret key'),
    { ...longInput('data', 'Data', '{\n  "column1": "value1",\n  "column2": "value2"\n}'), type: 'code', condition: when('operation', ['insert', 'update']) },
    shortInput('filter', 'Filter (PostgREST syntax)', 'id=eq.123', { condition: when('operation', ['query', 'get_row', 'update', 'delete']) }),
    shortInput('orderBy', 'Order By', 'column_name (add DESC for descending)', { layout: 'half', condition: when('operation', 'query') }),
    shortInput('limit', 'Limit', '100', { layout: 'half', condition: when('operation', 'query') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, () => 'Invalid Supabase operation'), params: supabaseParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    projectId: { type: 'string', required: true },
    table: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    data: { type: 'json', required: false },
    filter: { type: 'string', required: false },
    orderBy: { type: 'string', required: false },
    limit: { type: 'number', required: false },
  },
  outputs: { message: 'string', results: 'json' },
};

/** Re-exported for the dropdown test: the operations offered. */
export const SUPABASE_OPERATIONS = Object.keys(TOOL_BY_OPERATION);
