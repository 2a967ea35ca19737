import { parseJson, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { call, fillTemplate, list, seg, serviceTool, type Obj } from '../http.js';

/**
 * One PostgREST call on a table; `filter` is PostgREST syntax (`id=eq.1&age=gt.30`), trimmed and
 * appended as is. A failure answers 'Error from Supabase: {status} {text}' (§8).
 */
async function rest(io: ToolIO, p: Obj, method: string, params: string[], json?: unknown): Promise<unknown[]> {
  const base = fillTemplate(io.baseUrl('supabase'), { projectId: text(p.projectId) });
  const filter = text(p.filter);
  const query = [...params, ...(filter ? [filter] : [])].join('&');
  const key = text(p.apiKey);
  const res = await call(io, {
    method,
    url: `${base}/rest/v1/${seg(text(p.table))}?${query}`,
    headers: { apikey: key, Authorization: `Bearer ${key}`, ...(method === 'GET' ? {} : { Prefer: 'return=representation' }) },
    ...(json === undefined ? {} : { json }),
  });
  if (!res.ok) throw new ToolError(`Error from Supabase: ${res.status} ${res.text}`, res.status);
  return list(res.data);
}

function data(value: unknown): unknown {
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError('Invalid JSON data format');
  return parsed.value;
}

/** `col DESC` → `col.desc`; default ascending. */
function order(value: unknown): string | undefined {
  const [col, dir] = text(value).split(/\s+/);
  if (!col) return undefined;
  return `order=${encodeURIComponent(col)}.${dir?.toLowerCase() === 'desc' ? 'desc' : 'asc'}`;
}

/** A failed Supabase tool answers its message and empty results beside the error (§8). */
function supabaseTool(id: string, execute: ServiceTool['execute']): ServiceTool {
  return serviceTool(id, async (p, io) => {
    try {
      return await execute(p, io);
    } catch (err) {
      if (err instanceof ToolError) throw new ToolError(err.message, err.status, { message: err.message, results: [] });
      throw err;
    }
  });
}

/** Supabase tools over PostgREST: query, get row, insert (a single object wrapped), update, delete (filter required). */
export const supabaseTools: ServiceTool[] = [
  supabaseTool('supabase_query', async (p, io) => {
    const limit = p.limit === undefined || p.limit === '' ? undefined : `limit=${toInt(p.limit, 100)}`;
    const results = await rest(io, p, 'GET', ['select=*', ...[order(p.orderBy), limit].filter((x): x is string => x !== undefined)]);
    return { message: `Successfully queried ${results.length} row(s) from ${text(p.table)}`, results };
  }),
  supabaseTool('supabase_get_row', async (p, io) => {
    const results = await rest(io, p, 'GET', ['select=*', 'limit=1']);
    return { message: results.length ? 'Successfully found row' : 'No row found matching the criteria', results };
  }),
  supabaseTool('supabase_insert', async (p, io) => {
    const value = data(p.data);
    const rows = Array.isArray(value) ? value : [value];
    const results = await rest(io, p, 'POST', ['select=*'], rows);
    return { message: `Successfully inserted ${results.length} row(s) into ${text(p.table)}`, results };
  }),
  supabaseTool('supabase_update', async (p, io) => {
    const results = await rest(io, p, 'PATCH', ['select=*'], data(p.data));
    return { message: `Successfully updated ${results.length} row(s) in ${text(p.table)}`, results };
  }),
  supabaseTool('supabase_delete', async (p, io) => {
    if (text(p.filter) === '') throw new ToolError('Filter is required for delete operations to prevent accidental deletion of all rows');
    const results = await rest(io, p, 'DELETE', ['select=*']);
    return { message: `Successfully deleted ${results.length} row(s) from ${text(p.table)}`, results };
  }),
];
