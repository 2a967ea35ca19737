import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import { DOCUMENT_CONTENT, EMBEDDING_DEFAULTS, EMBEDDING_MODEL_PRICES, KNOWLEDGE_TOP_K, clamp, documentFileName, validateKnowledgeDocument } from '@weft/catalog';
import { MODEL_KEY_VARIABLES, type CreateEmbeddingsInput, type CreateEmbeddingsOutput } from '@weft/contracts';
import { ToolError } from '../tools/serviceTool.js';
import { TransientToolError, errorMessage } from '../tools/runtime/errors.js';
import type { RouteRequest } from '../tools/runtime/types.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { IntegrationsDB } from '../db.js';
import { ModelProviderError, ModelRequestError } from '../models/errors.js';
import { chunkText, chunkingOptions, estimateTokens, DEFAULT_CHUNKING, CHARS_PER_TOKEN, type ChunkingOptions } from '../knowledge/chunking.js';
import { MAX_DIMENSIONS, vectorStoreCache } from '../knowledge/vectorStore.js';
import { isFileLink, parseFile } from './files.routes.js';
import { json, objectBody, str, type Route } from './router.js';

/** The model layer's embeddings call (models/embeddings.ts, bound to the operator's model config). */
export type Embed = (input: CreateEmbeddingsInput) => Promise<CreateEmbeddingsOutput>;

export interface KnowledgeDeps {
  db: Kysely<IntegrationsDB>;
  policy: AddressPolicy;
  embed: Embed;
}

const TAGS = ['tag1', 'tag2', 'tag3', 'tag4', 'tag5', 'tag6', 'tag7'] as const;
type Tag = (typeof TAGS)[number];
type Tags = Record<Tag, string | null>;

/** Texts per embeddings request (OpenAI takes up to 2,048; smaller requests fail and retry cheaper). */
const EMBED_BATCH = 100;
/** Longest chunk or query, in characters: the embedding models take 8,191 tokens per input. */
export const MAX_EMBED_CHARS = 8000 * CHARS_PER_TOKEN;
/** Documents per request, knowledge bases per search, name and description lengths. */
const MAX_DOCUMENTS = 100;
const MAX_SEARCH_BASES = 100;
const NAME_MAX = 255;
const DESCRIPTION_MAX = 10_000;
const PAGE = { default: 100, max: 1000 } as const;
export const SEARCH_REQUIRES_BASES = 'Knowledge base IDs are required for search';

type BaseRow = Selectable<IntegrationsDB['knowledge_bases']>;
type DocumentRow = Selectable<IntegrationsDB['knowledge_documents']>;
type ChunkRow = { id: string; chunk_index: number; content: string; token_count: number; enabled: boolean; created_at: Date; updated_at: Date; document_id: string };

function baseView(row: BaseRow, counts?: { documents: number; chunks: number }) {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    description: row.description,
    embeddingModel: row.embedding_model,
    chunkingConfig: row.chunking as ChunkingOptions,
    ...(counts ? { documentCount: counts.documents, chunkCount: counts.chunks } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function tagsOf(row: Tags): Partial<Record<Tag, string>> {
  return Object.fromEntries(TAGS.flatMap((t) => (row[t] ? [[t, row[t]]] : [])));
}

/** A document as spec 001 §3 describes it (id, name, type, enabled, dates), with its sizes and tags. */
function documentView(row: DocumentRow) {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledge_base_id,
    name: row.name,
    type: row.mime_type,
    enabled: row.enabled,
    fileSize: row.file_size,
    characterCount: row.character_count,
    chunkCount: row.chunk_count,
    tokenCount: row.token_count,
    tags: tagsOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A chunk as spec 001 §3 describes it. */
function chunkView(row: ChunkRow) {
  return {
    id: row.id,
    documentId: row.document_id,
    chunkIndex: row.chunk_index,
    content: row.content,
    contentLength: row.content.length,
    tokenCount: row.token_count,
    enabled: row.enabled,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The workspace a call runs in: the gateway sets it after its access check, the runner from the run. */
function workspaceOf(req: RouteRequest): string {
  if (!req.context.workspaceId) throw new ToolError('workspaceId is required', 400);
  return req.context.workspaceId;
}

function textField(body: Record<string, unknown>, field: string, max: number, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ToolError(`${field} is required`, 400);
    return undefined;
  }
  if (typeof v !== 'string') throw new ToolError(`${field} must be a string`, 400);
  const t = v.trim();
  if (required && !t) throw new ToolError(`${field} is required`, 400);
  if (t.length > max) throw new ToolError(`${field} must be at most ${max} characters`, 400);
  return t;
}

/** Tag values (strings or numbers; blanks are no tag), from an object's tag1..tag7. */
function tagValues(source: Record<string, unknown>, field: string): Tags {
  const tags = Object.fromEntries(TAGS.map((t) => [t, null])) as Tags;
  for (const t of TAGS) {
    const v = source[t];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v !== 'string' && typeof v !== 'number') throw new ToolError(`${field}${t} must be a string`, 400);
    const s = String(v).trim();
    if (s.length > NAME_MAX) throw new ToolError(`${field}${t} must be at most ${NAME_MAX} characters`, 400);
    tags[t] = s || null;
  }
  return tags;
}

function page(query: Record<string, string>): { limit: number; offset: number } {
  const limit = query.limit === undefined ? PAGE.default : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE.max) throw new ToolError(`limit must be a whole number from 1 to ${PAGE.max}`, 400);
  // A whole number past 2^53 reaches Postgres as 1e+23, which is no bigint.
  if (!Number.isSafeInteger(offset) || offset < 0) throw new ToolError('offset must be a whole number of at least 0', 400);
  return { limit, offset };
}

/** The topK of a search: default 10, a number clamped to 1..100 (spec 001 §5), anything else refused. */
export function searchTopK(value: unknown): number {
  if (value === undefined || value === null || value === '') return KNOWLEDGE_TOP_K.default;
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n)) throw new ToolError(`topK must be a number from ${KNOWLEDGE_TOP_K.min} to ${KNOWLEDGE_TOP_K.max}`, 400);
  return clamp(Math.trunc(n), KNOWLEDGE_TOP_K.min, KNOWLEDGE_TOP_K.max);
}

/** Knowledge base ids: a list or one comma separated string (spec 001 §5). */
function baseIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const ids = [...new Set(list.map((v) => (typeof v === 'string' ? v.trim() : '')).filter(Boolean))];
  if (ids.length === 0) throw new ToolError(SEARCH_REQUIRES_BASES, 400);
  if (ids.length > MAX_SEARCH_BASES) throw new ToolError(`knowledgeBaseIds may name at most ${MAX_SEARCH_BASES} knowledge bases`, 400);
  return ids;
}

/** Search filters: `filters {tag1..tag7}` and the tool's flat tag1..tag7, blank values ignored. */
function searchFilters(body: Record<string, unknown>): Partial<Record<Tag, string>> {
  const given = body.filters ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new ToolError('filters must be an object of tag1 to tag7 values', 400);
  for (const key of Object.keys(given)) if (!(TAGS as readonly string[]).includes(key)) throw new ToolError(`Unknown filter: ${key} (filters are tag1 to tag7)`, 400);
  const flat = tagValues(body, '');
  const nested = tagValues(given as Record<string, unknown>, 'filters.');
  return tagsOf(Object.fromEntries(TAGS.map((t) => [t, nested[t] ?? flat[t]])) as Tags);
}

function embeddingModel(value: unknown): string {
  if (value === undefined || value === null || value === '') return EMBEDDING_DEFAULTS.model;
  if (typeof value !== 'string' || !(value.trim() in EMBEDDING_MODEL_PRICES)) {
    throw new ToolError(`embeddingModel must be one of ${Object.keys(EMBEDDING_MODEL_PRICES).join(', ')}`, 400);
  }
  return value.trim();
}

type Cost = { input: number; output: number; total: number; tokens: { prompt: number; completion: number; total: number }; model: string };

/**
 * Embeds texts through the model layer in batches, with the caller's OPENAI_API_KEY (their
 * environment variable) or else the operator's. A missing key or a refused request is the caller's
 * to fix (400/502 with the provider's message); a provider that failed transiently may be retried.
 */
async function embedAll(embed: Embed, texts: string[], model: string, envVars: Record<string, string>): Promise<{ vectors: number[][]; cost: Cost }> {
  const vectors: number[][] = [];
  const cost: Cost = { input: 0, output: 0, total: 0, tokens: { prompt: 0, completion: 0, total: 0 }, model };
  const apiKey = envVars[MODEL_KEY_VARIABLES.openai];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    let out: CreateEmbeddingsOutput;
    try {
      out = await embed({ input: texts.slice(i, i + EMBED_BATCH), model, encodingFormat: 'float', ...(apiKey ? { apiKey } : {}) });
    } catch (err) {
      if (err instanceof ModelRequestError) throw new ToolError(err.message, 400);
      if (err instanceof ModelProviderError && err.retryable) throw new TransientToolError(`Failed to generate embeddings: ${err.message}`, err.status);
      throw new ToolError(`Failed to generate embeddings: ${errorMessage(err)}`, 502);
    }
    for (const e of out.embeddings) {
      if (typeof e === 'string') throw new ToolError('Failed to generate embeddings: the model answered base64 instead of floats', 502);
      // Checked before Postgres sees it: pgvector refuses an empty vector, a non-number and more than 16,000.
      if (!Array.isArray(e) || e.length === 0 || e.length > MAX_DIMENSIONS || !e.every(Number.isFinite)) {
        throw new ToolError(`Failed to generate embeddings: the model answered an embedding that is not a list of 1 to ${MAX_DIMENSIONS} numbers`, 502);
      }
      vectors.push(e);
    }
    cost.input += out.cost.input;
    cost.output += out.cost.output;
    cost.total += out.cost.total;
    cost.tokens.prompt += out.usage.prompt_tokens;
    cost.tokens.total += out.usage.total_tokens;
  }
  if (vectors.length !== texts.length) throw new ToolError(`Failed to generate embeddings: ${texts.length} texts, ${vectors.length} embeddings`, 502);
  return { vectors, cost };
}

interface NewDocument {
  name: string;
  mimeType: string;
  fileSize: number;
  content: string;
  tags: Tags;
}

/** The documents of a POST …/documents: the spec's `documents[]` of files, or one text document (the tool's name and content). */
async function documentsOf(body: Record<string, unknown>, policy: AddressPolicy): Promise<NewDocument[]> {
  if (body.documents === undefined) {
    // Text, or a number taken as its text (a tool's value); true, a list or an object was stored as its String().
    for (const field of ['name', 'content'] as const) {
      const v = body[field];
      if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number') throw new ToolError(`Document ${field} error: Document ${field} must be text`, 400);
    }
    const problem = validateKnowledgeDocument(body.name, body.content);
    if (problem) throw new ToolError(problem, 400);
    const content = String(body.content);
    return [{ name: documentFileName(String(body.name)), mimeType: 'text/plain', fileSize: Buffer.byteLength(content), content, tags: tagValues(body, '') }];
  }
  if (!Array.isArray(body.documents) || body.documents.length === 0 || body.documents.length > MAX_DOCUMENTS) {
    throw new ToolError(`documents must be a list of 1 to ${MAX_DOCUMENTS} documents`, 400);
  }
  const out: NewDocument[] = [];
  for (const [i, raw] of body.documents.entries()) {
    const field = `documents[${i}].`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ToolError(`documents[${i}] must be an object`, 400);
    const d = raw as Record<string, unknown>;
    const filename = typeof d.filename === 'string' ? d.filename.trim() : '';
    // The name's rules first, before the file is fetched (its content is checked once parsed).
    const nameProblem = validateKnowledgeDocument(filename, 'x'.repeat(DOCUMENT_CONTENT.min));
    if (nameProblem) throw new ToolError(nameProblem, 400);
    const fileUrl = str(d, 'fileUrl');
    if (!fileUrl.trim()) throw new ToolError(`${field}fileUrl is required`, 400);
    if (!isFileLink(fileUrl)) throw new ToolError(`${field}fileUrl must be an http(s) URL or a data: link`, 400);
    const mimeType = str(d, 'mimeType').trim();
    const parsed = await parseFile(fileUrl, mimeType, policy, filename);
    const problem = validateKnowledgeDocument(filename, parsed.content);
    if (problem) throw new ToolError(problem, 400);
    out.push({ name: filename, mimeType: mimeType || parsed.fileType, fileSize: parsed.size, content: parsed.content, tags: tagValues(d, field) });
  }
  return out;
}

/**
 * Knowledge bases (spec 001 §5, §7; issue 11): per workspace, documents from text or files (the file
 * parser's code), chunked and embedded through the model layer, vectors in Postgres (pgvector when the
 * server has it, exact cosine in SQL otherwise), and search `{results, query, totalResults, cost}`.
 * Every route works inside the call's workspace: a knowledge base of another one is not found.
 */
export function knowledgeRoutes(deps: KnowledgeDeps): Route[] {
  const { db } = deps;
  // Detected at the first use; again when another instance converted the column (each statement using it is a read or one transaction).
  const vectors = vectorStoreCache(db);

  async function baseIn(workspaceId: string, id: string): Promise<BaseRow> {
    const row = await db.selectFrom('knowledge_bases').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
    if (!row) throw new ToolError(`Knowledge base not found: ${id}`, 404);
    return row as BaseRow;
  }

  async function documentIn(baseId: string, id: string): Promise<DocumentRow> {
    const row = await db.selectFrom('knowledge_documents').selectAll().where('id', '=', id).where('knowledge_base_id', '=', baseId).executeTakeFirst();
    if (!row) throw new ToolError(`Document not found: ${id}`, 404);
    return row as DocumentRow;
  }

  /** The route's knowledge base (`:id`) in the call's workspace, and its document (`:documentId`). */
  const baseFor = (req: RouteRequest, p: Record<string, string>) => baseIn(workspaceOf(req), p.id ?? '');
  const documentFor = async (req: RouteRequest, p: Record<string, string>) => {
    const base = await baseFor(req, p);
    return { base, doc: await documentIn(base.id, p.documentId ?? '') };
  };

  async function counts(ids: string[]): Promise<Map<string, { documents: number; chunks: number }>> {
    if (ids.length === 0) return new Map();
    const docs = await db.selectFrom('knowledge_documents').select(['knowledge_base_id', (eb) => eb.fn.countAll<string>().as('n')]).where('knowledge_base_id', 'in', ids).groupBy('knowledge_base_id').execute();
    const chunks = await db.selectFrom('knowledge_chunks').select(['knowledge_base_id', (eb) => eb.fn.countAll<string>().as('n')]).where('knowledge_base_id', 'in', ids).groupBy('knowledge_base_id').execute();
    const of = (rows: Array<{ knowledge_base_id: string; n: string }>, id: string) => Number(rows.find((r) => r.knowledge_base_id === id)?.n ?? 0);
    return new Map(ids.map((id) => [id, { documents: of(docs, id), chunks: of(chunks, id) }]));
  }

  async function writeBase(req: RouteRequest, p: Record<string, string>): Promise<BaseRow> {
    const b = objectBody(req.body);
    const base = await baseFor(req, p);
    const name = textField(b, 'name', NAME_MAX, false);
    if (name === '') throw new ToolError('name must not be empty', 400);
    const description = textField(b, 'description', DESCRIPTION_MAX, false);
    const row = await db
      .updateTable('knowledge_bases')
      .set({ ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}), updated_at: sql`now()` })
      .where('id', '=', base.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return row as BaseRow;
  }

  return [
    {
      method: 'POST',
      path: '/knowledge/search',
      async handle(req) {
        const b = objectBody(req.body);
        const ids = baseIds(b.knowledgeBaseIds);
        const workspaceId = workspaceOf(req);
        const query = textField(b, 'query', MAX_EMBED_CHARS, true) ?? '';
        const topK = searchTopK(b.topK);
        const filters = searchFilters(b);
        const bases = await db.selectFrom('knowledge_bases').select(['id', 'embedding_model']).where('workspace_id', '=', workspaceId).where('id', 'in', ids).execute();
        const missing = ids.find((id) => !bases.some((k) => k.id === id));
        if (missing) throw new ToolError(`Knowledge base not found: ${missing}`, 404);
        const byModel = new Map<string, string[]>();
        for (const k of bases) byModel.set(k.embedding_model, [...(byModel.get(k.embedding_model) ?? []), k.id]);
        const results: Array<Record<string, unknown> & { similarity: number; id: string }> = [];
        const cost: Cost = { input: 0, output: 0, total: 0, tokens: { prompt: 0, completion: 0, total: 0 }, model: [...byModel.keys()].join(',') };
        for (const [model, modelBases] of byModel) {
          const embedded = await embedAll(deps.embed, [query], model, req.envVars);
          const q = embedded.vectors[0] ?? [];
          cost.input += embedded.cost.input;
          cost.output += embedded.cost.output;
          cost.total += embedded.cost.total;
          cost.tokens.prompt += embedded.cost.tokens.prompt;
          cost.tokens.total += embedded.cost.tokens.total;
          const tagWhere = Object.entries(filters).map(([t, v]) => sql`d.${sql.ref(t)} = ${v}`);
          const found = await vectors.withStore((store) => sql<ChunkRow & Tags & { knowledge_base_id: string; document_name: string; distance: number | null }>`
            SELECT c.id, c.document_id, c.knowledge_base_id, c.chunk_index, c.content, c.token_count, c.enabled, c.created_at, c.updated_at,
                   d.name AS document_name, d.tag1, d.tag2, d.tag3, d.tag4, d.tag5, d.tag6, d.tag7, ${store.distance(q)} AS distance
            FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id
            WHERE c.knowledge_base_id = ANY(${modelBases}::text[]) AND c.embedding_model = ${model} AND c.enabled AND d.enabled
              AND ${store.sameDimension(q)} ${tagWhere.length ? sql`AND ${sql.join(tagWhere, sql` AND `)}` : sql``}
            ORDER BY distance ASC NULLS LAST, c.id
            LIMIT ${topK}`.execute(db));
          for (const r of found.rows) {
            results.push({
              id: r.id,
              content: r.content,
              documentId: r.document_id,
              documentName: r.document_name,
              knowledgeBaseId: r.knowledge_base_id,
              chunkIndex: r.chunk_index,
              metadata: tagsOf(r),
              similarity: r.distance === null ? 0 : Math.round((1 - Number(r.distance)) * 1e6) / 1e6,
            });
          }
        }
        results.sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id));
        const top = results.slice(0, topK);
        return json({ results: top, query, totalResults: top.length, cost });
      },
    },
    {
      method: 'GET',
      path: '/knowledge',
      async handle(req) {
        const { limit, offset } = page(req.query);
        const rows = (await db.selectFrom('knowledge_bases').selectAll().where('workspace_id', '=', workspaceOf(req)).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()) as BaseRow[];
        const n = await counts(rows.map((r) => r.id));
        return json({ knowledgeBases: rows.map((r) => baseView(r, n.get(r.id))) });
      },
    },
    {
      method: 'POST',
      path: '/knowledge',
      async handle(req) {
        const b = objectBody(req.body);
        const workspaceId = workspaceOf(req);
        const name = textField(b, 'name', NAME_MAX, true) ?? '';
        const description = textField(b, 'description', DESCRIPTION_MAX, false) ?? '';
        const chunking = chunkingOptions(b.chunkingConfig, 'chunkingConfig');
        const row = (await db
          .insertInto('knowledge_bases')
          .values({ id: randomUUID(), workspace_id: workspaceId, name, description, embedding_model: embeddingModel(b.embeddingModel), chunking: JSON.stringify(chunking), created_by: req.context.actorId ?? '' })
          .returningAll()
          .executeTakeFirstOrThrow()) as BaseRow;
        return json({ knowledgeBase: baseView(row, { documents: 0, chunks: 0 }) }, 201);
      },
    },
    {
      method: 'GET',
      path: '/knowledge/:id',
      async handle(req, p) {
        const row = await baseFor(req, p);
        return json({ knowledgeBase: baseView(row, (await counts([row.id])).get(row.id)) });
      },
    },
    { method: 'PUT', path: '/knowledge/:id', handle: async (req, p) => json({ knowledgeBase: baseView(await writeBase(req, p)) }) },
    { method: 'PATCH', path: '/knowledge/:id', handle: async (req, p) => json({ knowledgeBase: baseView(await writeBase(req, p)) }) },
    {
      method: 'DELETE',
      path: '/knowledge/:id',
      async handle(req, p) {
        const row = await baseFor(req, p);
        await db.deleteFrom('knowledge_bases').where('id', '=', row.id).execute();
        return json({ success: true });
      },
    },
    {
      method: 'GET',
      path: '/knowledge/:id/documents',
      async handle(req, p) {
        const base = await baseFor(req, p);
        const { limit, offset } = page(req.query);
        const rows = await db.selectFrom('knowledge_documents').selectAll().where('knowledge_base_id', '=', base.id).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
        return json({ documents: (rows as DocumentRow[]).map(documentView) });
      },
    },
    {
      method: 'POST',
      path: '/knowledge/:id/documents',
      async handle(req, p) {
        const b = objectBody(req.body);
        const base = await baseFor(req, p);
        const options = chunkingOptions(b.processingOptions, 'processingOptions', (base.chunking as ChunkingOptions | null) ?? DEFAULT_CHUNKING);
        const docs = await documentsOf(b, deps.policy);
        const chunked = docs.map((d) => chunkText(d.content, options).map((c) => c.content));
        const { vectors: embedded } = await embedAll(deps.embed, chunked.flat(), base.embedding_model, req.envVars);
        const created = await vectors.withStore((store) => db.transaction().execute(async (trx) => {
          const rows: DocumentRow[] = [];
          let at = 0;
          for (const [i, d] of docs.entries()) {
            const texts = chunked[i] ?? [];
            const documentId = randomUUID();
            const tokenCount = texts.reduce((s, t) => s + estimateTokens(t), 0);
            const doc = await trx
              .insertInto('knowledge_documents')
              .values({ id: documentId, knowledge_base_id: base.id, name: d.name, mime_type: d.mimeType, file_size: d.fileSize, character_count: d.content.length, chunk_count: texts.length, token_count: tokenCount, ...d.tags })
              .returningAll()
              .executeTakeFirstOrThrow();
            rows.push(doc as DocumentRow);
            const values = texts.map((content, index) => ({
              id: randomUUID(),
              knowledge_base_id: base.id,
              document_id: documentId,
              chunk_index: index,
              content,
              token_count: estimateTokens(content),
              embedding_model: base.embedding_model,
              embedding: store.value(embedded[at + index] ?? []),
            }));
            at += texts.length;
            for (let k = 0; k < values.length; k += 500) await trx.insertInto('knowledge_chunks').values(values.slice(k, k + 500)).execute();
          }
          await trx.updateTable('knowledge_bases').set({ updated_at: sql`now()` }).where('id', '=', base.id).execute();
          return rows;
        }));
        return json({ documentsCreated: created.map(documentView) }, 201);
      },
    },
    {
      method: 'GET',
      path: '/knowledge/:id/documents/:documentId',
      async handle(req, p) {
        return json({ document: documentView((await documentFor(req, p)).doc) });
      },
    },
    {
      method: 'DELETE',
      path: '/knowledge/:id/documents/:documentId',
      async handle(req, p) {
        const { doc } = await documentFor(req, p);
        await db.deleteFrom('knowledge_documents').where('id', '=', doc.id).execute();
        return json({ success: true });
      },
    },
    {
      method: 'GET',
      path: '/knowledge/:id/documents/:documentId/chunks',
      async handle(req, p) {
        const { doc } = await documentFor(req, p);
        const { limit, offset } = page(req.query);
        const rows = await db
          .selectFrom('knowledge_chunks')
          .select(['id', 'document_id', 'chunk_index', 'content', 'token_count', 'enabled', 'created_at', 'updated_at'])
          .where('document_id', '=', doc.id)
          .orderBy('chunk_index')
          .limit(limit)
          .offset(offset)
          .execute();
        return json({ chunks: (rows as ChunkRow[]).map(chunkView) });
      },
    },
    {
      method: 'POST',
      path: '/knowledge/:id/documents/:documentId/chunks',
      async handle(req, p) {
        // The chunk tool's failures read 'Failed to upload chunk: …' (spec 001 §8).
        const failed = (message: string, status: number) => new ToolError(`Failed to upload chunk: ${message}`, status);
        let b: Record<string, unknown>;
        let base: BaseRow;
        let doc: DocumentRow;
        try {
          b = objectBody(req.body);
          ({ base, doc } = await documentFor(req, p));
        } catch (err) {
          throw err instanceof ToolError ? failed(err.message, err.status ?? 400) : err;
        }
        const content = typeof b.content === 'string' ? b.content.trim() : '';
        if (!content) throw failed('content is required', 400);
        if (content.length > MAX_EMBED_CHARS) throw failed(`content must be at most ${MAX_EMBED_CHARS} characters`, 400);
        if (b.enabled !== undefined && typeof b.enabled !== 'boolean') throw failed('enabled must be true or false', 400);
        const { vectors: embedded } = await embedAll(deps.embed, [content], base.embedding_model, req.envVars).catch((err: unknown) => {
          throw err instanceof ToolError ? failed(err.message, err.status ?? 400) : err;
        });
        const row = await vectors.withStore((store) => db.transaction().execute(async (trx) => {
          // The document row is the lock: two uploads to one document take the next indexes in turn.
          await trx.selectFrom('knowledge_documents').select('id').where('id', '=', doc.id).forUpdate().executeTakeFirstOrThrow();
          const last = await trx.selectFrom('knowledge_chunks').select((eb) => eb.fn.max('chunk_index').as('max')).where('document_id', '=', doc.id).executeTakeFirst();
          const tokens = estimateTokens(content);
          const inserted = await trx
            .insertInto('knowledge_chunks')
            .values({
              id: randomUUID(),
              knowledge_base_id: base.id,
              document_id: doc.id,
              chunk_index: last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1,
              content,
              token_count: tokens,
              enabled: b.enabled !== false,
              embedding_model: base.embedding_model,
              embedding: store.value(embedded[0] ?? []),
            })
            .returning(['id', 'document_id', 'chunk_index', 'content', 'token_count', 'enabled', 'created_at', 'updated_at'])
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('knowledge_documents')
            .set({ chunk_count: sql`chunk_count + 1`, token_count: sql`token_count + ${tokens}`, updated_at: sql`now()` })
            .where('id', '=', doc.id)
            .execute();
          return inserted as ChunkRow;
        }));
        return json({ chunk: chunkView(row) }, 201);
      },
    },
    {
      // The gateway's lookup before its access check (never served to callers): each id's workspace.
      method: 'POST',
      path: '/internal/knowledge/workspaces',
      async handle(req) {
        const b = objectBody(req.body);
        const ids = Array.isArray(b.ids) ? b.ids.filter((v): v is string => typeof v === 'string' && v !== '').slice(0, MAX_SEARCH_BASES) : [];
        const rows = ids.length ? await db.selectFrom('knowledge_bases').select(['id', 'workspace_id']).where('id', 'in', ids).execute() : [];
        return json({ workspaces: Object.fromEntries(rows.map((r) => [r.id, r.workspace_id])) });
      },
    },
  ];
}
