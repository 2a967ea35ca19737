import { clamp, parseJson, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, type CallSpec, type Obj } from '../http.js';

/** Mem0 search and list limits (§9): 1 to 50, default 10. */
const LIMIT = { default: 10, min: 1, max: 50 } as const;

async function mem0(io: ToolIO, p: Obj, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<unknown> {
  const { path, ...rest } = spec;
  const res = await call(io, { ...rest, url: `${io.baseUrl('mem0')}${path}`, headers: { Authorization: `Token ${text(p.apiKey)}` } });
  if (!res.ok) throw new ToolError(`Mem0 API error: ${apiMessage(res)}`, res.status);
  return res.data;
}

/** Messages as a non-empty JSON array of {role, content} (§5). */
function messages(value: unknown): unknown[] {
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError('Messages must be valid JSON');
  const items = list(parsed.value);
  if (items.length === 0) throw new ToolError('Messages must be a non-empty array');
  if (!items.every((m) => typeof obj(m).role === 'string' && obj(m).content !== undefined)) throw new ToolError('Each message must have role and content');
  return items;
}

/** A memory list from either answer shape (a bare list or {results}). */
const results = (data: unknown) => (Array.isArray(data) ? data : list(obj(data).results));
const limit = (p: Obj) => clamp(toInt(p.limit, LIMIT.default), LIMIT.min, LIMIT.max);

export const mem0Tools: ServiceTool[] = [
  // Mem0 queues an add by default and answers only {message, status: PENDING, event_id}; async_mode false answers the memories written.
  serviceTool('mem0_add_memories', async (p, io) => {
    const data = await mem0(io, p, { method: 'POST', path: '/v1/memories/', json: { messages: messages(p.messages), user_id: text(p.userId), version: 'v2', async_mode: false } });
    const added = results(data).map(obj);
    return { ids: added.map((m) => m.id), memories: added.map((m) => ({ id: m.id, memory: m.memory ?? obj(m.data).memory ?? '', event: m.event })) };
  }),
  serviceTool('mem0_search_memories', async (p, io) => {
    const data = await mem0(io, p, { method: 'POST', path: '/v2/memories/search/', json: { query: text(p.query), filters: { user_id: text(p.userId) }, top_k: limit(p) } });
    const found = results(data).map(obj);
    return { searchResults: found, ids: found.map((m) => m.id) };
  }),
  serviceTool('mem0_get_memories', async (p, io) => {
    const memoryId = text(p.memoryId);
    if (memoryId) {
      const memory = obj(await mem0(io, p, { path: `/v1/memories/${seg(memoryId)}/` }));
      return { memories: [memory], ids: [memory.id] };
    }
    const and: Obj[] = [{ user_id: text(p.userId) }];
    const range: Obj = {};
    if (text(p.startDate)) range.gte = text(p.startDate);
    if (text(p.endDate)) range.lte = text(p.endDate);
    if (Object.keys(range).length > 0) and.push({ created_at: range });
    // Mem0 reads the page and its size from the query string of this POST, not from the body.
    const found = results(await mem0(io, p, { method: 'POST', path: '/v2/memories/', query: { page: 1, page_size: limit(p) }, json: { filters: { AND: and } } })).map(obj);
    return { memories: found, ids: found.map((m) => m.id) };
  }),
];
