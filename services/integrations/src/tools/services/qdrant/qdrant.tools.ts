import { parseJson, text, toBoolean, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, str, type Obj } from '../http.js';

async function qdrant(io: ToolIO, p: Obj, method: string, suffix: string, body: Obj): Promise<Obj> {
  const base = text(p.url).replace(/\/+$/, '');
  const res = await call(io, {
    method,
    url: `${base}/collections/${seg(text(p.collection))}/points${suffix}`,
    headers: text(p.apiKey) ? { 'api-key': text(p.apiKey) } : {},
    json: body,
  });
  const d = obj(res.data);
  if (!res.ok) throw new ToolError(`Qdrant request failed: ${str(obj(d.status).error) ?? apiMessage(res)}`, res.status);
  return d;
}

const json = (value: unknown): unknown => {
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError(`Invalid JSON: ${parsed.error}`);
  return parsed.value;
};
const flags = (p: Obj) => ({ with_payload: toBoolean(p.with_payload) === true, with_vector: toBoolean(p.with_vector) === true });

/** Qdrant point tools: upsert (PUT points), search (POST points/query), fetch (POST points). */
export const qdrantTools: ServiceTool[] = [
  serviceTool('qdrant_upsert_points', async (p, io) => {
    const d = await qdrant(io, p, 'PUT', '?wait=true', { points: list(json(p.points)) });
    return { status: d.status, data: d.result };
  }),
  serviceTool('qdrant_search_vector', async (p, io) => {
    const body: Obj = { query: list(json(p.vector)), limit: toInt(p.limit, 10), ...flags(p) };
    const filter = json(p.filter);
    if (filter !== undefined && filter !== '') body.filter = filter;
    const d = await qdrant(io, p, 'POST', '/query', body);
    return { status: d.status, data: list(obj(d.result).points) };
  }),
  serviceTool('qdrant_fetch_points', async (p, io) => {
    const d = await qdrant(io, p, 'POST', '', { ids: list(json(p.ids)), ...flags(p) });
    return { status: d.status, data: list(d.result) };
  }),
];
