import type { ToolConfig, ToolParam } from '../types.js';
import { defineTool, may, need } from './define.js';

const BASE = 'https://{projectId}.supabase.co/rest/v1/{table}';
const HEADERS = { apikey: '{apiKey}', Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' };

const common: Record<string, ToolParam> = {
  projectId: need('string', 'user', 'Your Supabase project ID (e.g., jdrkgepadsdopsntdlom)'),
  table: need('string', 'user', 'The name of the Supabase table'),
  apiKey: need('string', 'user', 'Your Supabase service role secret key'),
};

const filter = (required: boolean, what: string): ToolParam =>
  required
    ? need('string', 'llm', `PostgREST filter to find the ${what} (e.g., "id=eq.123")`)
    : may('string', 'llm', `PostgREST filter to find the ${what} (e.g., "id=eq.123")`);

/** Supabase table tools over the PostgREST API. */
export const supabaseTools: ToolConfig[] = [
  defineTool({
    id: 'supabase_query',
    name: 'Supabase Query',
    description: 'Query data from a Supabase table',
    params: { ...common, filter: filter(false, 'rows'), orderBy: may('string', 'llm', 'Column to order by (add DESC for descending)'), limit: may('number', 'llm', 'Maximum number of rows to return') },
    request: { method: 'GET', url: `${BASE}?select=*`, headers: HEADERS },
  }),
  defineTool({
    id: 'supabase_get_row',
    name: 'Supabase Get Row',
    description: 'Get a single row from a Supabase table based on filter criteria',
    params: { ...common, filter: filter(true, 'row') },
    request: { method: 'GET', url: `${BASE}?select=*&limit=1`, headers: HEADERS },
  }),
  defineTool({
    id: 'supabase_insert',
    name: 'Supabase Insert',
    description: 'Insert data into a Supabase table',
    params: { ...common, data: need('array', 'llm', 'The rows to insert (a single object is wrapped in an array)') },
    request: { method: 'POST', url: `${BASE}?select=*`, headers: { ...HEADERS, Prefer: 'return=representation' } },
  }),
  defineTool({
    id: 'supabase_update',
    name: 'Supabase Update Row',
    description: 'Update rows in a Supabase table based on filter criteria',
    params: { ...common, filter: filter(true, 'rows to update'), data: need('object', 'llm', 'Data to update in the matching rows') },
    request: { method: 'PATCH', url: `${BASE}?{filter}`, headers: { ...HEADERS, Prefer: 'return=representation' } },
  }),
  defineTool({
    id: 'supabase_delete',
    name: 'Supabase Delete Row',
    description: 'Delete rows from a Supabase table based on filter criteria',
    params: { ...common, filter: filter(true, 'rows to delete') },
    request: { method: 'DELETE', url: `${BASE}?{filter}`, headers: { ...HEADERS, Prefer: 'return=representation' } },
  }),
];
