import { PINECONE_API_VERSION, parseJson, text, toBoolean, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, call, list, obj, seg, serviceTool, type ApiResponse, type CallSpec, type Obj } from '../http.js';

const DEFAULT_NAMESPACE = '__default__';

const headers = (p: Obj) => ({ 'Api-Key': text(p.apiKey), 'X-Pinecone-API-Version': PINECONE_API_VERSION });
/** The index host as given, with https:// when it has no scheme. */
const host = (p: Obj) => {
  const h = text(p.indexHost).replace(/\/+$/, '');
  return /^https?:\/\//.test(h) ? h : `https://${h}`;
};

/**
 * One Pinecone request; a failure is 'Pinecone {what} failed: {message}' (§8). §8's other message,
 * 'Vector search failed', is a vector search's failure whose answer carries no message of its own.
 */
async function pinecone(io: ToolIO, p: Obj, url: string, what: string, spec: Omit<CallSpec, 'url'> = {}): Promise<ApiResponse> {
  const res = await call(io, { ...spec, url, headers: { ...headers(p), ...spec.headers } });
  if (res.ok) return res;
  const message = apiMessage(res, '') || (res.json ? '' : res.text.trim());
  if (message === '' && what === 'vector search') throw new ToolError('Vector search failed', res.status);
  throw new ToolError(`Pinecone ${what} failed: ${message || apiMessage(res)}`, res.status);
}

/** A JSON parameter given as text or as a value. */
const json = (value: unknown): unknown => {
  const parsed = parseJson(value);
  if (!parsed.ok) throw new ToolError(`Invalid JSON: ${parsed.error}`);
  return parsed.value;
};
const asList = (value: unknown): unknown[] => {
  const v = json(value);
  return Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v];
};
const namespace = (p: Obj) => text(p.namespace) || DEFAULT_NAMESPACE;

/** Pinecone tools (API version 2025-01): embeddings, text upsert (NDJSON), text search, vector query, fetch. */
export const pineconeTools: ServiceTool[] = [
  serviceTool('pinecone_generate_embeddings', async (p, io) => {
    const inputs = asList(p.inputs).map((i) => (typeof i === 'string' ? { text: i } : i));
    const parameters = { input_type: 'passage', truncate: 'END', ...obj(json(p.parameters)) };
    const d = obj((await pinecone(io, p, `${io.baseUrl('pinecone')}/embed`, 'embedding generation', { method: 'POST', json: { model: text(p.model), inputs, parameters } })).data);
    return { data: list(d.data), model: d.model, vector_type: d.vector_type, usage: d.usage };
  }),
  serviceTool('pinecone_upsert_text', async (p, io) => {
    const records = asList(p.records);
    const res = await pinecone(io, p, `${host(p)}/records/namespaces/${seg(namespace(p))}/upsert`, 'upsert', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-ndjson' },
      body: records.map((r) => JSON.stringify(r)).join('\n'),
    });
    return { statusText: res.statusText || 'Created', upsertedCount: records.length };
  }),
  serviceTool('pinecone_search_text', async (p, io) => {
    const query: Obj = { inputs: { text: text(p.searchQuery) }, top_k: toInt(p.topK, 10) };
    const filter = json(p.filter);
    if (filter !== undefined && filter !== '') query.filter = filter;
    const body: Obj = { query };
    const fields = asList(p.fields);
    if (fields.length) body.fields = fields;
    const rerank = json(p.rerank);
    if (rerank !== undefined && rerank !== '') body.rerank = rerank;
    const d = obj((await pinecone(io, p, `${host(p)}/records/namespaces/${seg(namespace(p))}/search`, 'text search', { method: 'POST', json: body })).data);
    const matches = list(obj(d.result).hits).map((h) => {
      const hit = obj(h);
      return { id: hit._id, score: hit._score, metadata: hit.fields };
    });
    return { matches, usage: d.usage };
  }),
  serviceTool('pinecone_search_vector', async (p, io) => {
    const body: Obj = {
      namespace: text(p.namespace),
      vector: asList(p.vector),
      topK: toInt(p.topK, 10),
      includeValues: toBoolean(p.includeValues) === true,
      includeMetadata: toBoolean(p.includeMetadata) === true,
    };
    const filter = json(p.filter);
    if (filter !== undefined && filter !== '') body.filter = filter;
    const d = obj((await pinecone(io, p, `${host(p)}/query`, 'vector search', { method: 'POST', json: body })).data);
    const matches = list(d.matches).map((m) => {
      const x = obj(m);
      return { id: x.id, score: x.score, values: x.values, metadata: x.metadata };
    });
    return { matches, namespace: d.namespace };
  }),
  serviceTool('pinecone_fetch', async (p, io) => {
    const search = new URLSearchParams();
    for (const id of asList(p.ids)) search.append('ids', String(id));
    if (text(p.namespace)) search.append('namespace', text(p.namespace));
    const d = obj((await pinecone(io, p, `${host(p)}/vectors/fetch?${search.toString()}`, 'fetch')).data);
    const matches = Object.values(obj(d.vectors)).map((v) => {
      const x = obj(v);
      return { id: x.id, values: x.values, metadata: x.metadata };
    });
    return { matches, namespace: d.namespace };
  }),
];
