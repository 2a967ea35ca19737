import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDatabase, migrate, type Database } from '@weft/platform';
import { createOpenAIFake, createTestDatabase, type OpenAIFake } from '@weft/testkit';
import type { CreateEmbeddingsOutput } from '@weft/contracts';
import { integrationsMigrations, upgradeToPgvector, type VectorColumn } from '../migrations/index.js';
import type { IntegrationsDB } from '../db.js';
import type { InternalRoutes } from '../tools/runtime/types.js';
import type { Embed } from '../routes/knowledge.routes.js';
import { detectVectorStore } from './vectorStore.js';
import { PGVECTOR, QUERY, TEXTS, WITHOUT, ZERO_TEXT, call, embeddingType, fakeEmbedOf, ok, recordingLogger, routesWith, scratchDatabase, search, type Result } from './vectorTestSupport.js';

/*
 * Both vector stores against this machine's Postgres. pgvector is optional (infra/scripts/pgvector.sh
 * installs it): without it the migration falls back to the exact store, and the tests named for
 * pgvector say so in their names and check that fallback instead. The exact store is forced in a
 * schema of its own, so it stays tested where pgvector is installed.
 */
let openai: OpenAIFake;
beforeAll(async () => {
  openai = await createOpenAIFake();
});
afterAll(async () => {
  await openai?.close();
});

const fakeEmbed = fakeEmbedOf(() => openai);
const routesOn = (db: Database<IntegrationsDB>['db'], embed: Embed = fakeEmbed) => routesWith(db, embed);

/** The fake's vector for a text (it embeds a text by its first 8 characters), and a cosine to check the SQL against. */
async function vectorOf(text: string): Promise<number[]> {
  const out = await fakeEmbed({ input: [text], model: 'text-embedding-3-small', apiKey: 'sk-vectors' });
  return out.embeddings[0] as number[];
}
function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  const norms = Math.hypot(...a) * Math.hypot(...b);
  return norms === 0 ? 0 : dot / norms;
}

interface Store {
  name: string;
  vectors: VectorColumn;
  kind: 'pgvector' | 'exact';
}
const STORES: Store[] = [
  { name: PGVECTOR ? 'pgvector' : `${WITHOUT}the exact fallback of the default migration`, vectors: 'auto', kind: PGVECTOR ? 'pgvector' : 'exact' },
  { name: 'the exact store (forced)', vectors: 'exact', kind: 'exact' },
];

describe.each(STORES)('knowledge search with $name', ({ vectors, kind }) => {
  let database: Database<IntegrationsDB> & { drop(): Promise<void> };
  let routes: InternalRoutes;
  let bases: [string, string];
  const ids = new Map<string, string>();

  beforeAll(async () => {
    database = await createTestDatabase<IntegrationsDB>('integrations_vectors', integrationsMigrations(vectors));
    routes = routesOn(database.db);
    const base = async (name: string) => ok<{ knowledgeBase: { id: string } }>(await call(routes, 'POST', '/knowledge', { name })).knowledgeBase.id;
    bases = [await base('Orchard'), await base('Market')];
    for (const [i, content] of TEXTS.entries()) {
      const tags = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`tag${n}`, n === i + 1 ? 'yes' : 'no']));
      const doc = ok<{ documentsCreated: Array<{ id: string }> }>(await call(routes, 'POST', `/knowledge/${bases[i < 4 ? 0 : 1]}/documents`, { name: `fruit${i + 1}`, content, ...tags }));
      ids.set(content, doc.documentsCreated[0]!.id);
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** The texts ranked by the cosine computed here, best first (the fixture has no ties). */
  async function ranked(query: string, texts: string[]): Promise<Array<{ content: string; similarity: number }>> {
    const q = await vectorOf(query);
    const scored = await Promise.all(texts.map(async (content) => ({ content, similarity: cosine(q, await vectorOf(content)) })));
    scored.sort((a, b) => b.similarity - a.similarity);
    for (let i = 1; i < scored.length; i++) expect(scored[i - 1]!.similarity - scored[i]!.similarity).toBeGreaterThan(1e-4);
    return scored;
  }
  function expectRanked(got: Result[], expected: Array<{ content: string; similarity: number }>) {
    expect(got.map((r) => r.content)).toEqual(expected.map((e) => e.content));
    for (const [i, r] of got.entries()) expect(r.similarity).toBeCloseTo(expected[i]!.similarity, 5);
  }

  it(`stores embeddings as ${kind === 'pgvector' ? 'a pgvector vector column' : 'double precision[]'} and detects it`, async () => {
    expect((await detectVectorStore(database.db)).kind).toBe(kind);
    expect(await embeddingType(database.db)).toBe(kind === 'pgvector' ? 'vector' : 'double precision[]');
  });

  it(`the start-time upgrade to pgvector leaves it as it is${vectors === 'exact' ? ' (forced exact, on any server)' : ''}`, async () => {
    const { logger, lines } = recordingLogger();
    expect(await upgradeToPgvector(database.db, logger)).toBe(kind);
    expect(await embeddingType(database.db)).toBe(kind === 'pgvector' ? 'vector' : 'double precision[]');
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('ranks every chunk of both bases by cosine similarity, and topK keeps the best (clamped to 1..100)', async () => {
    const expected = await ranked(QUERY, TEXTS);
    const all = await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: 100 });
    expect(all.totalResults).toBe(7);
    expectRanked(all.results, expected);
    for (const r of all.results) {
      const n = TEXTS.indexOf(r.content);
      expect(r).toMatchObject({ documentName: `fruit${n + 1}.txt`, knowledgeBaseId: bases[n < 4 ? 0 : 1], metadata: { [`tag${n + 1}`]: 'yes' } });
    }
    expectRanked((await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: 3 })).results, expected.slice(0, 3));
    expectRanked((await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: 0 })).results, expected.slice(0, 1));
    expectRanked((await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: '500' })).results, expected);
    expectRanked((await search(routes, { knowledgeBaseIds: `${bases[1]}`, query: QUERY })).results, expected.filter((e) => TEXTS.indexOf(e.content) >= 4));
  });

  it('filters by each of tag1 to tag7, nested in filters or flat, and by several tags at once', async () => {
    for (const [i, content] of TEXTS.entries()) {
      const tag = `tag${i + 1}`;
      const nested = await search(routes, { knowledgeBaseIds: bases, query: QUERY, filters: { [tag]: 'yes' } });
      expect(nested.results.map((r) => [r.content, r.metadata[tag]])).toEqual([[content, 'yes']]);
      expect((await search(routes, { knowledgeBaseIds: bases, query: QUERY, [tag]: 'yes' })).results.map((r) => r.content)).toEqual([content]);
    }
    const notFirstTwo = await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: 3, filters: { tag1: 'no', tag2: 'no' } });
    expectRanked(notFirstTwo.results, (await ranked(QUERY, TEXTS.slice(2))).slice(0, 3));
    expect((await search(routes, { knowledgeBaseIds: bases, query: QUERY, filters: { tag1: 'yes', tag2: 'yes' } })).results).toEqual([]);
  });

  it('a zero vector has similarity 0 (chunk or query), and a chunk of another dimension is left out, not an error', async () => {
    const doc = ids.get(TEXTS[0]!)!;
    ok(await call(routes, 'POST', `/knowledge/${bases[0]}/documents/${doc}/chunks`, { content: ZERO_TEXT }));
    const store = await detectVectorStore(database.db);
    // An embedding of three numbers, as a model of another size would give, among the 8-number ones.
    await sql`INSERT INTO knowledge_chunks (id, knowledge_base_id, document_id, chunk_index, content, token_count, embedding_model, embedding)
      VALUES (${randomUUID()}, ${bases[0]}, ${doc}, 99, 'Three numbers only', 4, 'text-embedding-3-small', ${store.value([1, 2, 3])})`.execute(database.db);
    const all = await search(routes, { knowledgeBaseIds: bases, query: QUERY, topK: 100 });
    expect(all.results.map((r) => r.content)).toEqual([...(await ranked(QUERY, TEXTS)).map((e) => e.content), ZERO_TEXT]);
    expect(all.results.at(-1)!.similarity).toBe(0);
    const byZero = await search(routes, { knowledgeBaseIds: bases, query: `${ZERO_TEXT}?`, topK: 100 });
    expect(byZero.results).toHaveLength(8);
    expect(byZero.results.map((r) => r.similarity)).toEqual(Array(8).fill(0));
    expect(byZero.results.map((r) => r.id)).toEqual(byZero.results.map((r) => r.id).sort((x, y) => x.localeCompare(y)));
  });

  it('refuses an embedding Postgres could not store (empty, not numbers, over 16,000 numbers) with a 502 naming it', async () => {
    const answering =
      (embedding: number[]): Embed =>
      () =>
        Promise.resolve<CreateEmbeddingsOutput>({ embeddings: [embedding], model: 'text-embedding-3-small', usage: { prompt_tokens: 1, total_tokens: 1 }, cost: { input: 0, output: 0, total: 0 } });
    const message = 'Failed to generate embeddings: the model answered an embedding that is not a list of 1 to 16000 numbers';
    for (const embedding of [[], [1, Number.NaN], Array<number>(16_001).fill(0.5)]) {
      const broken = routesOn(database.db, answering(embedding));
      expect(await call(broken, 'POST', `/knowledge/${bases[0]}/documents`, { name: 'broken', content: 'long enough content' })).toEqual({ status: 502, body: { success: false, error: message } });
      expect((await call(broken, 'POST', '/knowledge/search', { knowledgeBaseIds: bases, query: QUERY })).body).toEqual({ success: false, error: message });
    }
    // The largest size is stored and found.
    const large = Array.from({ length: 16_000 }, (_, i) => (i % 5) + 1);
    const big = routesOn(database.db, answering(large));
    ok(await call(big, 'POST', `/knowledge/${bases[1]}/documents`, { name: 'wide', content: 'Sixteen thousand numbers' }));
    const found = await search(big, { knowledgeBaseIds: [bases[1]], query: 'anything' });
    expect(found.results.map((r) => [r.content, r.similarity])).toEqual([['Sixteen thousand numbers', 1]]);
  });
});

describe('pgvector in a database of its own', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  const opened: Array<Database<IntegrationsDB>> = [];
  const open = async (schema: string) => {
    const database = await createDatabase<IntegrationsDB>(scratch.url, schema, { max: 4 });
    opened.push(database);
    return database;
  };
  beforeAll(async () => {
    scratch = await scratchDatabase();
  });
  afterAll(async () => {
    for (const d of opened) await d.close();
    await scratch?.drop();
  });

  it(
    PGVECTOR
      ? 'two instances migrating a fresh database at once both create or find the extension in public and use it; migrating again changes nothing'
      : `${WITHOUT}two instances migrating a fresh database at once both use the exact store`,
    async () => {
      const [a, b] = [await open('integrations_one'), await open('integrations_two')];
      await Promise.all([migrate(a, integrationsMigrations('auto')), migrate(b, integrationsMigrations('auto'))]);
      for (const d of [a, b]) expect((await detectVectorStore(d.db)).kind).toBe(PGVECTOR ? 'pgvector' : 'exact');
      const ext = await sql<{ schema: string }>`SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'vector'`.execute(a.db);
      expect(ext.rows).toEqual(PGVECTOR ? [{ schema: 'public' }] : []);
      expect((await migrate(a, integrationsMigrations('auto'))).results).toEqual([]);
      const routes = [routesOn(a.db), routesOn(b.db)];
      for (const r of routes) {
        const base = ok<{ knowledgeBase: { id: string } }>(await call(r, 'POST', '/knowledge', { name: 'Orchard' })).knowledgeBase.id;
        ok(await call(r, 'POST', `/knowledge/${base}/documents`, { name: 'apples', content: TEXTS[0] }));
        expect((await search(r, { knowledgeBaseIds: [base], query: TEXTS[0] })).results.map((x) => [x.content, x.similarity])).toEqual([[TEXTS[0], 1]]);
      }
    },
  );

  it(
    PGVECTOR
      ? 'an extension the operator created in another schema, off the search_path, is used by its schema-qualified names'
      : `${WITHOUT}a schema of the operator's keeps the exact store`,
    async () => {
      // This database already has the extension in public after the test above (when installed): a fresh one.
      const own = await scratchDatabase();
      try {
        if (PGVECTOR) await own.admin('CREATE SCHEMA vectors; CREATE EXTENSION vector WITH SCHEMA vectors');
        const database = await createDatabase<IntegrationsDB>(own.url, 'integrations_vectors', { max: 4 });
        try {
          await migrate(database, integrationsMigrations('auto'));
          const store = await detectVectorStore(database.db);
          expect(store.kind).toBe(PGVECTOR ? 'pgvector' : 'exact');
          expect(await embeddingType(database.db)).toBe(PGVECTOR ? 'vectors.vector' : 'double precision[]');
          const routes = routesOn(database.db);
          const base = ok<{ knowledgeBase: { id: string } }>(await call(routes, 'POST', '/knowledge', { name: 'Orchard' })).knowledgeBase.id;
          for (const content of TEXTS.slice(0, 3)) ok(await call(routes, 'POST', `/knowledge/${base}/documents`, { name: content.slice(0, 6), content }));
          const found = await search(routes, { knowledgeBaseIds: [base], query: TEXTS[2] });
          expect(found.results[0]).toMatchObject({ content: TEXTS[2], similarity: 1 });
          expect(found.results).toHaveLength(3);
        } finally {
          await database.close();
        }
      } finally {
        await own.drop();
      }
    },
  );
});
