import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createLogger, loadConfig, type Database } from '@weft/platform';
import { createOpenAIFake, createTestDatabase, type OpenAIFake } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { migrations } from '../migrations/index.js';
import type { IntegrationsDB } from '../db.js';
import type { InternalRoutes, RouteAnswer } from '../tools/runtime/types.js';
import { createInternalRoutes } from './index.js';
import { createBaseUrls } from '../tools/runtime/baseUrls.js';
import { createEmbeddings } from '../models/embeddings.js';
import { DEFAULT_BASE_URLS } from '../models/config.js';
import { chunkText } from '../knowledge/chunking.js';
import { detectVectorStore } from '../knowledge/vectorStore.js';
import { createToolExecutor, type ToolExecutor } from '../tools/runtime/executeTool.js';
import { serviceTools } from '../tools/services/index.js';
import { createToolRuntime } from '../runtime.js';
import { SandboxPool } from '../function/sandbox.js';

const ws1: CallContext = { workspaceId: 'ws-knowledge-1', workflowId: 'wf-k1', actorId: 'user-1' };
const ws2: CallContext = { workspaceId: 'ws-knowledge-2', workflowId: 'wf-k2', actorId: 'user-2' };
const USER_KEY = 'sk-user-key-1234';
const ENV = { OPENAI_API_KEY: USER_KEY };

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let openai: OpenAIFake;
let routes: InternalRoutes;
let keyless: InternalRoutes;
let tools: ToolExecutor;

function call(r: InternalRoutes, method: string, path: string, body?: unknown, ctx: CallContext = ws1, envVars: Record<string, string> = ENV, query: Record<string, string> = {}): Promise<RouteAnswer> {
  return r.handle({ method, path, query, body, context: ctx, envVars });
}
const ok = <T>(a: RouteAnswer): T => {
  if (a.status >= 400) throw new Error(`status ${a.status}: ${JSON.stringify(a.body)}`);
  return a.body as T;
};

type Base = { id: string; name: string; workspaceId: string; embeddingModel: string; chunkingConfig: Record<string, number>; documentCount: number; chunkCount: number };
type Doc = { id: string; name: string; type: string; enabled: boolean; chunkCount: number; tokenCount: number; characterCount: number; tags: Record<string, string>; createdAt: string; updatedAt: string };
type Chunk = { id: string; chunkIndex: number; content: string; contentLength: number; tokenCount: number; enabled: boolean; createdAt: string; updatedAt: string };
type Search = { results: Array<{ id: string; content: string; documentId: string; documentName: string; knowledgeBaseId: string; chunkIndex: number; similarity: number; metadata: Record<string, string> }>; query: string; totalResults: number; cost: { input: number; output: number; total: number; tokens: { prompt: number }; model: string } };

async function newBase(name = 'Handbook', ctx: CallContext = ws1, extra: Record<string, unknown> = {}): Promise<Base> {
  return ok<{ knowledgeBase: Base }>(await call(routes, 'POST', '/knowledge', { name, ...extra }, ctx)).knowledgeBase;
}
async function addText(baseId: string, name: string, content: string, extra: Record<string, unknown> = {}): Promise<Doc> {
  const out = ok<{ documentsCreated: Doc[] }>(await call(routes, 'POST', `/knowledge/${baseId}/documents`, { name, content, ...extra }));
  return out.documentsCreated[0]!;
}
const embeddingCalls = () => openai.server.requests.filter((r) => r.path === '/v1/embeddings');

/** The fake's vector for a text, asked of the fake itself, and a cosine in TypeScript to check the SQL against. */
async function vectorOf(text: string): Promise<number[]> {
  const res = await fetch(`${openai.baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: JSON.stringify({ input: [text], model: 'text-embedding-3-small' }) });
  return ((await res.json()) as { data: Array<{ embedding: number[] }> }).data[0]!.embedding;
}
function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

beforeAll(async () => {
  database = await createTestDatabase<IntegrationsDB>('integrations_knowledge', migrations);
  openai = await createOpenAIFake();
  const logger = createLogger('integrations', 'silent');
  const policy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
  const baseUrls = createBaseUrls({}, {});
  const config = (keys: Record<string, string>) => ({ baseUrls: { ...DEFAULT_BASE_URLS, openai: openai.baseUrl }, keys, azureApiVersion: '2024-07-01-preview' });
  routes = createInternalRoutes({ db: database.db, policy, baseUrls, logger, docsDir: null, embed: (input) => createEmbeddings(config({ openai: 'sk-operator' }), input) });
  keyless = createInternalRoutes({ db: database.db, policy, baseUrls, logger, docsDir: null, embed: (input) => createEmbeddings(config({}), input) });
  tools = createToolExecutor({
    policy,
    baseUrls,
    credentials: { accessToken: () => Promise.reject(new Error('no credentials here')) },
    customTools: { list: () => Promise.resolve([]) },
    internal: routes,
    serviceTools,
    logger,
    runCode: () => Promise.reject(new Error('no sandbox here')),
  });
});
afterAll(async () => {
  await openai?.close();
  await database?.drop();
});
beforeEach(() => {
  openai.reset();
});

describe('knowledge bases', () => {
  it('are created per workspace with the default model and chunking, listed, renamed and deleted; other workspaces do not see them', async () => {
    const base = await newBase('Handbook', ws1, { description: 'Company handbook' });
    expect(base).toMatchObject({ name: 'Handbook', workspaceId: ws1.workspaceId, embeddingModel: 'text-embedding-3-small', chunkingConfig: { chunkSize: 1024, chunkOverlap: 200, minCharactersPerChunk: 100 }, documentCount: 0 });
    const listed = ok<{ knowledgeBases: Base[] }>(await call(routes, 'GET', '/knowledge'));
    expect(listed.knowledgeBases.map((k) => k.id)).toContain(base.id);
    expect(ok<{ knowledgeBases: Base[] }>(await call(routes, 'GET', '/knowledge', undefined, ws2)).knowledgeBases.map((k) => k.id)).not.toContain(base.id);
    expect(await call(routes, 'GET', `/knowledge/${base.id}`, undefined, ws2)).toEqual({ status: 404, body: { success: false, error: `Knowledge base not found: ${base.id}` } });
    expect(await call(routes, 'DELETE', `/knowledge/${base.id}`, undefined, ws2)).toMatchObject({ status: 404 });
    expect(ok<{ knowledgeBase: Base }>(await call(routes, 'PATCH', `/knowledge/${base.id}`, { name: 'Staff handbook' })).knowledgeBase.name).toBe('Staff handbook');
    expect(ok(await call(routes, 'DELETE', `/knowledge/${base.id}`))).toEqual({ success: true });
    expect(await call(routes, 'GET', `/knowledge/${base.id}`)).toMatchObject({ status: 404 });
  });

  it('refuses bad input naming the field', async () => {
    const bad = async (body: unknown, ctx: CallContext = ws1) => (await call(routes, 'POST', '/knowledge', body, ctx)).body as { error: string };
    expect((await bad({})).error).toBe('name is required');
    expect((await bad({ name: 'x'.repeat(256) })).error).toBe('name must be at most 255 characters');
    expect((await bad({ name: 'K', embeddingModel: 'gpt-4o' })).error).toBe('embeddingModel must be one of text-embedding-3-small, text-embedding-3-large, text-embedding-ada-002');
    expect((await bad({ name: 'K', chunkingConfig: { chunkSize: 50 } })).error).toBe('chunkingConfig.chunkSize must be a whole number from 100 to 8000');
    expect((await bad('text')).error).toBe('body must be a JSON object');
    expect((await bad({ name: 'K' }, { workspaceId: '', workflowId: '' })).error).toBe('workspaceId is required');
    expect((await call(routes, 'GET', '/knowledge', undefined, ws1, ENV, { limit: '5000' })).body).toMatchObject({ error: 'limit must be a whole number from 1 to 1000' });
    // Past 2^53 a whole number reaches Postgres as 1e+23, which is no bigint: refused here, not a 500 there.
    expect(await call(routes, 'GET', '/knowledge', undefined, ws1, ENV, { offset: '99999999999999999999999' })).toMatchObject({ status: 400, body: { error: 'offset must be a whole number of at least 0' } });
  });

  it('reports which vector store the server gives: pgvector when installed, exact cosine otherwise', async () => {
    const available = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'vector'`.execute(database.db);
    const store = await detectVectorStore(database.db);
    // pgvector is optional (infra/scripts/pgvector.sh); knowledge/vectorStore.int.test.ts runs both stores.
    expect(store.kind).toBe(available.rows[0]!.n > 0 ? 'pgvector' : 'exact');
  });
});

describe('documents', () => {
  it('adds a text document: .txt appended, chunked 1024/200/100 and embedded with the caller’s key in batches of 100', async () => {
    const base = await newBase();
    const content = Array.from({ length: 6000 }, (_, i) => `Fact ${i}: the office plant number ${i} needs water on day ${i % 7}.`).join(' ');
    const doc = await addText(base.id, 'Plants', content, { tag1: 'garden', tag2: 7 });
    const expected = chunkText(content);
    expect(expected.length).toBeGreaterThan(100);
    expect(doc).toMatchObject({ name: 'Plants.txt', type: 'text/plain', enabled: true, chunkCount: expected.length, characterCount: content.length, tags: { tag1: 'garden', tag2: '7' } });
    const calls = embeddingCalls();
    expect(calls.length).toBe(Math.ceil(expected.length / 100));
    expect(calls.every((r) => r.headers.authorization === `Bearer ${USER_KEY}`)).toBe(true);
    expect((calls[0]!.body as { model: string; input: string[] }).model).toBe('text-embedding-3-small');
    expect(calls.flatMap((r) => (r.body as { input: string[] }).input)).toEqual(expected.map((c) => c.content));
    const chunks = ok<{ chunks: Chunk[] }>(await call(routes, 'GET', `/knowledge/${base.id}/documents/${doc.id}/chunks`, undefined, ws1, ENV, { limit: '1000' })).chunks;
    expect(chunks.map((c) => c.chunkIndex)).toEqual(expected.map((_, i) => i));
    expect(chunks[0]).toMatchObject({ content: expected[0]!.content, contentLength: expected[0]!.content.length, tokenCount: Math.ceil(expected[0]!.content.length / 4), enabled: true });
    expect(Math.max(...chunks.map((c) => c.contentLength))).toBeLessThanOrEqual(4096);
    const listed = ok<{ documents: Doc[] }>(await call(routes, 'GET', `/knowledge/${base.id}/documents`)).documents;
    expect(listed.map((d) => d.id)).toEqual([doc.id]);
    expect(ok<{ knowledgeBase: Base }>(await call(routes, 'GET', `/knowledge/${base.id}`)).knowledgeBase).toMatchObject({ documentCount: 1, chunkCount: expected.length });
  });

  it('adds files through the file parser (data links), keeping their names and tags, with chosen processing options', async () => {
    const base = await newBase('Files');
    const md = `# Travel policy\n\n${'Book trains for trips under five hours. '.repeat(40)}`;
    const csv = 'city,allowance\nOslo,120\nLisbon,90\n';
    const out = ok<{ documentsCreated: Doc[] }>(
      await call(routes, 'POST', `/knowledge/${base.id}/documents`, {
        documents: [
          { filename: 'travel.md', fileUrl: `data:text/markdown;base64,${Buffer.from(md).toString('base64')}`, fileSize: md.length, mimeType: 'text/markdown', tag3: 'policy' },
          { filename: 'allowances.csv', fileUrl: `data:text/csv,${encodeURIComponent(csv)}`, fileSize: csv.length, mimeType: 'text/csv' },
        ],
        processingOptions: { chunkSize: 100, minCharactersPerChunk: 100, chunkOverlap: 20, recipe: 'default', lang: 'en' },
        bulk: true,
      }),
    ).documentsCreated;
    expect(out.map((d) => [d.name, d.type, d.tags])).toEqual([
      ['travel.md', 'text/markdown', { tag3: 'policy' }],
      ['allowances.csv', 'text/csv', {}],
    ]);
    expect(out[0]!.chunkCount).toBe(chunkText(md, { chunkSize: 100, chunkOverlap: 20, minCharactersPerChunk: 100 }).length);
    expect(out[0]!.chunkCount).toBeGreaterThan(3);
    expect(out[1]!.chunkCount).toBe(1);
  });

  it('checks names and content with the spec’s prefixed messages, and stores nothing when one document fails', async () => {
    const base = await newBase('Rules');
    const post = async (body: unknown) => (await call(routes, 'POST', `/knowledge/${base.id}/documents`, body)).body as { error: string };
    expect((await post({ name: '', content: 'long enough content' })).error).toBe('Document name error: Document name is required');
    expect((await post({ name: 'n'.repeat(256), content: 'long enough content' })).error).toBe('Document name error: Document name must be 255 characters or less. Please use a shorter filename.');
    expect((await post({ name: 'a/b', content: 'long enough content' })).error).toBe('Document name error: Document name contains invalid characters. Avoid using: < > : " / \\ | ? *');
    expect((await post({ name: 'short', content: 'tiny' })).error).toBe('Document content error: Document content must be at least 10 characters long');
    // true, a list or an object is refused, not stored as its String() ("true.txt")
    for (const name of [true, ['a'], { a: 1 }]) expect((await post({ name, content: 'long enough content' })).error).toBe('Document name error: Document name must be text');
    expect((await post({ name: 'notes', content: ['long enough content'] })).error).toBe('Document content error: Document content must be text');
    expect((await post({ name: 'big', content: 'x'.repeat(1_000_001) })).error).toBe('Document content error: Document content exceeds maximum size of 1MB. Please split large content into smaller documents.');
    expect((await post({ documents: [] })).error).toBe('documents must be a list of 1 to 100 documents');
    expect((await post({ documents: [{ filename: 'a.txt' }] })).error).toBe('documents[0].fileUrl is required');
    expect((await post({ documents: [{ filename: 'ok.txt', fileUrl: 'data:text/plain,long%20enough%20text' }, { filename: 'bad?.txt', fileUrl: 'data:text/plain,x' }] })).error).toBe(
      'Document name error: Document name contains invalid characters. Avoid using: < > : " / \\ | ? *',
    );
    expect((await post({ name: 'ok', content: 'long enough content', processingOptions: { chunkOverlap: -1 } })).error).toBe('processingOptions.chunkOverlap must be a whole number from 0 to 511');
    expect((await post({ name: 'ok', content: 'long enough content', tag4: { a: 1 } })).error).toBe('tag4 must be a string');
    expect(ok<{ documents: Doc[] }>(await call(routes, 'GET', `/knowledge/${base.id}/documents`)).documents).toEqual([]);
    expect(embeddingCalls()).toHaveLength(0);
    expect(await call(routes, 'POST', `/knowledge/${base.id}/documents`, { name: 'x', content: 'long enough content' }, ws2)).toMatchObject({ status: 404, body: { error: `Knowledge base not found: ${base.id}` } });
  });

  it('accepts content of exactly 1,000,000 characters', async () => {
    const base = await newBase('Large');
    const doc = await addText(base.id, 'large.txt', `${'All work and no play. '.repeat(45_454)}abcdefghijkl`.slice(0, 1_000_000));
    expect(doc).toMatchObject({ name: 'large.txt', characterCount: 1_000_000 });
    expect(doc.chunkCount).toBeGreaterThan(300);
  });

  it('answers the model layer’s errors: no key anywhere, a refused key', async () => {
    const base = await newBase('Keys');
    expect(await call(keyless, 'POST', `/knowledge/${base.id}/documents`, { name: 'a', content: 'long enough content' }, ws1, {})).toMatchObject({ status: 400, body: { error: 'API key is required for OpenAI' } });
    expect(await call(routes, 'POST', `/knowledge/${base.id}/documents`, { name: 'a', content: 'long enough content' }, ws1, { OPENAI_API_KEY: 'bad-key' })).toMatchObject({
      status: 502,
      body: { error: expect.stringContaining('Failed to generate embeddings: 401') },
    });
    // The operator's key serves a caller without their own.
    await addText(base.id, 'b', 'long enough content');
    const withOperatorKey = await call(routes, 'POST', `/knowledge/${base.id}/documents`, { name: 'c', content: 'long enough content' }, ws1, {});
    expect(withOperatorKey.status).toBe(201);
    expect(embeddingCalls().at(-1)?.headers.authorization).toBe('Bearer sk-operator');
  });
});

describe('chunks', () => {
  it('uploads a chunk at the next index, embedded, and lists it; errors read "Failed to upload chunk: …"', async () => {
    const base = await newBase('Chunks');
    const doc = await addText(base.id, 'notes', 'The first note of the day is here.');
    const up = await call(routes, 'POST', `/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: '  Second note: lunch at noon.  ', enabled: true, workflowId: 'wf-k1' });
    expect(up.status).toBe(201);
    const chunk = (up.body as { chunk: Chunk }).chunk;
    expect(chunk).toMatchObject({ chunkIndex: 1, content: 'Second note: lunch at noon.', contentLength: 27, tokenCount: 7, enabled: true, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const again = ok<{ chunk: Chunk }>(await call(routes, 'POST', `/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: 'Third note.', enabled: false }));
    expect(again.chunk).toMatchObject({ chunkIndex: 2, enabled: false });
    expect(ok<{ document: Doc }>(await call(routes, 'GET', `/knowledge/${base.id}/documents/${doc.id}`)).document).toMatchObject({ chunkCount: 3 });
    const post = async (path: string, body: unknown, ctx = ws1) => (await call(routes, 'POST', path, body, ctx)).body as { error: string };
    expect((await post(`/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: ' ' })).error).toBe('Failed to upload chunk: content is required');
    expect((await post(`/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: 'x'.repeat(32_001) })).error).toBe('Failed to upload chunk: content must be at most 32000 characters');
    expect((await post(`/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: 'ok', enabled: 'yes' })).error).toBe('Failed to upload chunk: enabled must be true or false');
    expect((await post(`/knowledge/${base.id}/documents/nope/chunks`, { content: 'ok' })).error).toBe('Failed to upload chunk: Document not found: nope');
    expect((await post(`/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: 'ok' }, ws2)).error).toBe(`Failed to upload chunk: Knowledge base not found: ${base.id}`);
    expect((await call(routes, 'POST', `/knowledge/${base.id}/documents/${doc.id}/chunks`, { content: 'ok' }, ws1, { OPENAI_API_KEY: 'bad-key' })).body).toMatchObject({ error: expect.stringMatching(/^Failed to upload chunk: Failed to generate embeddings: 401/) });
  });
});

describe('search', () => {
  it('answers {results, query, totalResults, cost} ranked by exact cosine similarity, with filters, topK bounds and disabled chunks left out', async () => {
    const base = await newBase('Fruit');
    const other = await newBase('Veg');
    await addText(base.id, 'apples', 'Apples are red or green and grow on trees.', { tag1: 'fruit', tag2: 'tree' });
    await addText(base.id, 'bananas', 'Bananas are yellow and grow in bunches.', { tag1: 'fruit' });
    const carrots = await addText(other.id, 'carrots', 'Carrots are orange roots.', { tag1: 'veg' });
    const query = 'Apples are tasty';
    const res = ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [base.id, other.id], query, topK: 10, workflowId: 'wf-k1' }));
    expect(res.query).toBe(query);
    expect(res.totalResults).toBe(3);
    expect(res.results).toHaveLength(3);
    // The fake embeds a text by its first characters: the apples chunk is the query's twin.
    expect(res.results[0]).toMatchObject({ content: 'Apples are red or green and grow on trees.', documentName: 'apples.txt', knowledgeBaseId: base.id, chunkIndex: 0, metadata: { tag1: 'fruit', tag2: 'tree' } });
    expect(res.results[0]!.similarity).toBeCloseTo(1, 5);
    const q = await vectorOf(query);
    for (const r of res.results) expect(r.similarity).toBeCloseTo(cosine(q, await vectorOf(r.content)), 5);
    expect([...res.results].sort((a, b) => b.similarity - a.similarity)).toEqual(res.results);
    expect(res.cost).toMatchObject({ model: 'text-embedding-3-small', tokens: { prompt: expect.any(Number) } });
    expect(res.cost.tokens.prompt).toBeGreaterThan(0);

    // Comma separated ids, tag filters (nested and the tool's flat tags), topK clamped to 1..100.
    const byString = ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: `${base.id}, ${other.id}`, query, filters: { tag1: 'fruit' } }));
    expect(byString.results.map((r) => r.documentName).sort()).toEqual(['apples.txt', 'bananas.txt']);
    expect(ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [base.id], query, tag2: 'tree' })).results.map((r) => r.documentName)).toEqual(['apples.txt']);
    expect(ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [base.id, other.id], query, topK: 0 })).totalResults).toBe(1);
    expect(ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [base.id, other.id], query, topK: '500' })).totalResults).toBe(3);

    // A disabled chunk and a deleted document are not found.
    await call(routes, 'POST', `/knowledge/${other.id}/documents/${carrots.id}/chunks`, { content: 'Apples hidden here', enabled: false });
    expect(ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [other.id], query })).results.map((r) => r.content)).toEqual(['Carrots are orange roots.']);
    expect(ok(await call(routes, 'DELETE', `/knowledge/${other.id}/documents/${carrots.id}`))).toEqual({ success: true });
    expect(ok<Search>(await call(routes, 'POST', '/knowledge/search', { knowledgeBaseIds: [other.id], query })).results).toEqual([]);
  });

  it('refuses bad searches naming the field, and knowledge bases of another workspace', async () => {
    const base = await newBase('Search rules');
    const post = async (body: unknown, ctx = ws1) => (await call(routes, 'POST', '/knowledge/search', body, ctx)).body as { error: string };
    expect((await post({ query: 'x' })).error).toBe('Knowledge base IDs are required for search');
    expect((await post({ knowledgeBaseIds: ' , ', query: 'x' })).error).toBe('Knowledge base IDs are required for search');
    expect((await post({ knowledgeBaseIds: [base.id] })).error).toBe('query is required');
    expect((await post({ knowledgeBaseIds: [base.id], query: 'x', topK: 'many' })).error).toBe('topK must be a number from 1 to 100');
    expect((await post({ knowledgeBaseIds: [base.id], query: 'x', filters: { tag8: 'a' } })).error).toBe('Unknown filter: tag8 (filters are tag1 to tag7)');
    expect((await post({ knowledgeBaseIds: [base.id], query: 'x', filters: 'tag1' })).error).toBe('filters must be an object of tag1 to tag7 values');
    expect((await post({ knowledgeBaseIds: [base.id], query: 'x' }, ws2)).error).toBe(`Knowledge base not found: ${base.id}`);
    expect((await post({ knowledgeBaseIds: [base.id, 'missing-kb'], query: 'x' })).error).toBe('Knowledge base not found: missing-kb');
  });
});

describe('knowledge tools through the execution layer', () => {
  it('create document, upload chunk and search run their internal routes in the call’s workspace', async () => {
    const base = await newBase('Tools');
    const input = (toolId: string, params: Record<string, unknown>, context: CallContext = ws1) => ({ toolId, params, context, envVars: ENV });
    const created = await tools.execute(input('knowledge_create_document', { knowledgeBaseId: base.id, name: 'Launch', content: 'The launch is on Friday at nine.', tag1: 'launch' }), 'answer');
    expect(created).toMatchObject({ success: true, output: { documentsCreated: [{ name: 'Launch.txt', tags: { tag1: 'launch' }, chunkCount: 1 }] } });
    const documentId = (created.output as { documentsCreated: Doc[] }).documentsCreated[0]!.id;
    const uploaded = await tools.execute(input('knowledge_upload_chunk', { knowledgeBaseId: base.id, documentId, content: 'Bring the slides.' }), 'answer');
    expect(uploaded).toMatchObject({ success: true, output: { chunk: { chunkIndex: 1, content: 'Bring the slides.' } } });
    const found = await tools.execute(input('knowledge_search', { knowledgeBaseIds: base.id, query: 'The launch', topK: 1, tag1: 'launch' }), 'answer');
    expect(found).toMatchObject({ success: true, output: { query: 'The launch', totalResults: 1, results: [{ content: 'The launch is on Friday at nine.', documentId }] } });
    const elsewhere = await tools.execute(input('knowledge_search', { knowledgeBaseIds: base.id, query: 'The launch' }, ws2), 'answer');
    expect(elsewhere).toMatchObject({ success: false, error: `Knowledge base not found: ${base.id}` });
    const badName = await tools.execute(input('knowledge_create_document', { knowledgeBaseId: base.id, name: 'a:b', content: 'long enough content' }), 'answer');
    expect(badName).toMatchObject({ success: false, error: expect.stringMatching(/^Document name error:/) });
    expect(await tools.execute(input('knowledge_upload_chunk', { knowledgeBaseId: base.id, documentId: 'nope', content: 'x' }), 'answer')).toMatchObject({ success: false, error: 'Failed to upload chunk: Document not found: nope' });
  });
});

describe('the tool runtime', () => {
  it('embeds with the model config of its own environment (base URL and operator key)', async () => {
    const sandbox = new SandboxPool({ size: 1 });
    const rt = createToolRuntime({
      db: database.db,
      logger: createLogger('integrations', 'silent'),
      config: loadConfig({ ...process.env, WEFT_INSTANCE: 'tknowledge' }),
      env: { WEFT_OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-runtime-env' },
      registry: { getOAuthToken: () => Promise.reject(new Error('none')), listCustomTools: () => Promise.resolve({ toolsJson: '[]' }) },
      policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
      docsDir: null,
      sandbox,
    });
    try {
      const base = await newBase('Runtime');
      expect((await call(rt.routes, 'POST', `/knowledge/${base.id}/documents`, { name: 'r', content: 'long enough content' }, ws1, {})).status).toBe(201);
      expect(embeddingCalls().at(-1)?.headers.authorization).toBe('Bearer sk-runtime-env');
    } finally {
      await rt.close();
      await sandbox.close();
    }
  });
});
