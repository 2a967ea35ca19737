import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import { integrationsMigrations, upgradeToPgvector } from '../migrations/index.js';
import type { IntegrationsDB } from '../db.js';
import type { InternalRoutes } from '../tools/runtime/types.js';
import { detectVectorStore, exact } from './vectorStore.js';
import { PGVECTOR, QUERY, TEXTS, WITHOUT, call, embeddingType, ok, search, silent, useOpenAIFake } from './vectorTestSupport.js';

/*
 * Instances already running when another one converts the embedding column at its start
 * (upgradeToPgvector): their knowledge routes detected the store before, and a statement the changed
 * type refuses makes them detect it again and run that statement once more with the new store.
 */
const { routesOn } = useOpenAIFake();

type Created = { documentsCreated: Array<{ id: string }> };
const addDocument = async (routes: InternalRoutes, base: string, name: string, content: string) => ok<Created>(await call(routes, 'POST', `/knowledge/${base}/documents`, { name, content })).documentsCreated[0]!.id;
const addChunk = async (routes: InternalRoutes, base: string, document: string, content: string) =>
  ok<{ chunk: { chunkIndex: number } }>(await call(routes, 'POST', `/knowledge/${base}/documents/${document}/chunks`, { content })).chunk;
const documentNames = async (routes: InternalRoutes, base: string) => ok<{ documents: Array<{ name: string }> }>(await call(routes, 'GET', `/knowledge/${base}/documents`)).documents.map((d) => d.name);
/** Contents and similarities, best first; chunks of one text tie at 1, in either order. */
const ranked = async (routes: InternalRoutes, bases: string[], query: string) =>
  (await search(routes, { knowledgeBaseIds: bases, query, topK: 100 })).results.map((r): [string, number] => [r.content, r.similarity]);
/** The same contents in the same order, similarities equal to 5 digits (pgvector keeps single precision). */
function expectSameRanking(after: Array<[string, number]>, before: Array<[string, number]>) {
  expect(after.map(([content]) => content)).toEqual(before.map(([content]) => content));
  for (const [i, [, similarity]] of after.entries()) expect(similarity).toBeCloseTo(before[i]![1], 5);
}

/** A base holding TEXTS, filled through `routes`. */
async function fill(routes: InternalRoutes): Promise<{ base: string; documents: string[] }> {
  const base = ok<{ knowledgeBase: { id: string } }>(await call(routes, 'POST', '/knowledge', { name: 'Orchard' })).knowledgeBase.id;
  const documents: string[] = [];
  for (const [i, content] of TEXTS.entries()) documents.push(await addDocument(routes, base, `fruit${i + 1}`, content));
  return { base, documents };
}

describe('knowledge routes of an instance running while the embedding column changes', () => {
  it(
    PGVECTOR
      ? 'created on the exact store, then the column converted to pgvector underneath: search, document and chunk add go on with the pgvector store'
      : `${WITHOUT}created on the exact store, the start finds nothing to convert and the routes go on with it`,
    async () => {
      const database = await createTestDatabase<IntegrationsDB>('integrations_redetect', integrationsMigrations('exact'));
      try {
        // What the default migration leaves where pgvector is not installed: the exact column, unmarked.
        await sql`COMMENT ON COLUMN knowledge_chunks.embedding IS NULL`.execute(database.db);
        const running = routesOn(database.db);
        const { base, documents } = await fill(running);
        const before = await ranked(running, [base], QUERY);
        expect(before).toHaveLength(TEXTS.length);
        // A second instance that detected the store before the conversion too, by one search.
        const writer = routesOn(database.db);
        expect(await ranked(writer, [base], QUERY)).toEqual(before);

        expect(await upgradeToPgvector(database.db, silent)).toBe(PGVECTOR ? 'pgvector' : 'exact');
        expect(await embeddingType(database.db)).toBe(PGVECTOR ? 'vector' : 'double precision[]');

        if (PGVECTOR) {
          // What the stale store's search statement raises, which makes the routes detect the store again.
          await expect(sql`SELECT ${exact.distance([1, 0])} FROM knowledge_chunks c`.execute(database.db)).rejects.toMatchObject({ code: '42883', message: 'function pg_catalog.unnest(vector) does not exist' });
        }
        expectSameRanking(await ranked(running, [base], QUERY), before);
        expect(await ranked(running, [base], QUERY)).toEqual(await ranked(routesOn(database.db), [base], QUERY));
        await addDocument(running, base, 'again', `${TEXTS[2]} Again.`);
        // The other one still holds the exact store: pgvector casts its double precision[] on assignment.
        expect(await addChunk(writer, base, documents[3]!, `${TEXTS[3]} Once more.`)).toMatchObject({ chunkIndex: 1 });
        expect(await ranked(writer, [base], TEXTS[2]!)).toEqual(await ranked(running, [base], TEXTS[2]!));
        expect((await ranked(running, [base], TEXTS[2]!)).slice(0, 2)).toEqual(expect.arrayContaining([[TEXTS[2], 1], [`${TEXTS[2]} Again.`, 1]]));
        expect((await ranked(running, [base], TEXTS[3]!)).slice(0, 2)).toEqual(expect.arrayContaining([[TEXTS[3], 1], [`${TEXTS[3]} Once more.`, 1]]));
        expect(await documentNames(running, base)).toEqual([...TEXTS.map((_, i) => `fruit${i + 1}.txt`), 'again.txt']);
      } finally {
        await database.drop();
      }
    },
  );

  it(
    PGVECTOR
      ? 'created on pgvector, then the column converted back to double precision[]: a document add, a chunk add and a search each fail once, detect the exact store and run again, once'
      : `${WITHOUT}created on the exact store (the migration's fallback), document add, chunk add and search keep it`,
    async () => {
      const database = await createTestDatabase<IntegrationsDB>('integrations_redetect', integrationsMigrations('auto'));
      try {
        const setup = routesOn(database.db);
        const { base, documents } = await fill(setup);
        const before = await ranked(setup, [base], QUERY);
        const stale = await detectVectorStore(database.db);
        // Three instances, each having detected the store by one use.
        const [adding, chunking, searching] = [routesOn(database.db), routesOn(database.db), routesOn(database.db)];
        for (const routes of [adding, chunking, searching]) expect(await ranked(routes, [base], QUERY)).toEqual(before);

        if (PGVECTOR) {
          // An operator going back to the exact store: its column keeps vectors at unit length.
          await sql`ALTER TABLE knowledge_chunks ALTER COLUMN embedding TYPE double precision[] USING embedding::real[]::double precision[]`.execute(database.db);
          await sql`UPDATE knowledge_chunks c SET embedding = (
              SELECT array_agg(u.x / n.norm ORDER BY u.i) FROM unnest(c.embedding) WITH ORDINALITY AS u(x, i), (SELECT sqrt(sum(y * y)) AS norm FROM unnest(c.embedding) AS v(y)) AS n)`.execute(database.db);
        }
        expect(await embeddingType(database.db)).toBe('double precision[]');
        if (PGVECTOR) {
          // What the stale store's statements raise: a write's value, a search's operator.
          await expect(sql`UPDATE knowledge_chunks SET embedding = ${stale.value([1, 0])}`.execute(database.db)).rejects.toMatchObject({ code: '42804' });
          await expect(sql`SELECT ${stale.distance([1, 0])} FROM knowledge_chunks c`.execute(database.db)).rejects.toMatchObject({ code: '42883' });
        }

        // 42804 (a vector stored into double precision[]) rolled the transaction back: one document, one chunk.
        await addDocument(adding, base, 'again', `${TEXTS[2]} Again.`);
        expect(await addChunk(chunking, base, documents[3]!, `${TEXTS[3]} Once more.`)).toMatchObject({ chunkIndex: 1 });
        expect(await documentNames(adding, base)).toEqual([...TEXTS.map((_, i) => `fruit${i + 1}.txt`), 'again.txt']);
        const chunks = await sql<{ n: string }>`SELECT count(*) AS n FROM knowledge_chunks`.execute(database.db);
        expect(Number(chunks.rows[0]?.n)).toBe(TEXTS.length + 2);

        // 42883 (no <=> on double precision[]) before the search ran again with the exact store.
        const after = await ranked(searching, [base], QUERY);
        expectSameRanking(after.filter(([content]) => TEXTS.includes(content)), before);
        expect((await ranked(searching, [base], TEXTS[2]!)).slice(0, 2)).toEqual(expect.arrayContaining([[TEXTS[2], 1], [`${TEXTS[2]} Again.`, 1]]));
        expect((await ranked(searching, [base], TEXTS[3]!)).slice(0, 2)).toEqual(expect.arrayContaining([[TEXTS[3], 1], [`${TEXTS[3]} Once more.`, 1]]));
      } finally {
        await database.drop();
      }
    },
  );
});
