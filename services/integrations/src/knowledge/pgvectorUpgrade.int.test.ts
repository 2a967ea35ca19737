import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { createDatabase, migrate, type Database } from '@weft/platform';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import { integrationsMigrations, upgradeToPgvector } from '../migrations/index.js';
import type { IntegrationsDB } from '../db.js';
import type { InternalRoutes } from '../tools/runtime/types.js';
import { detectVectorStore } from './vectorStore.js';
import { PGVECTOR, QUERY, TEXTS, WITHOUT, ZERO_TEXT, call, databaseUrl, embeddingType, ok, recordingLogger, scratchDatabase, search, useOpenAIFake } from './vectorTestSupport.js';

/*
 * The start-time upgrade (upgradeToPgvector): a schema whose embeddings were stored as double
 * precision[] before pgvector was installed, or while the extension could not be created, becomes a
 * pgvector one with the same search answers. On a server without pgvector the tests say so in their
 * names and check that the exact store stays.
 */
const { routesOn } = useOpenAIFake();
const CONVERTED = 'knowledge embeddings converted to pgvector';
const NOT_INSTALLED = 'pgvector is not installed on the Postgres server: knowledge search uses the exact store (bash infra/scripts/pgvector.sh installs it)';

/** Two bases holding TEXTS (1-4, 5-7, tagged as in vectorStore.int.test.ts), a zero-vector chunk and a chunk of another dimension. */
async function fill(db: Kysely<IntegrationsDB>, texts: string[]): Promise<string[]> {
  const routes = routesOn(db);
  const base = async (name: string) => ok<{ knowledgeBase: { id: string } }>(await call(routes, 'POST', '/knowledge', { name })).knowledgeBase.id;
  const bases = [await base('Orchard'), await base('Market')];
  const docs: string[] = [];
  for (const [i, content] of texts.entries()) {
    const tags = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`tag${n}`, n === i + 1 ? 'yes' : 'no']));
    docs.push(ok<{ documentsCreated: Array<{ id: string }> }>(await call(routes, 'POST', `/knowledge/${bases[i < 4 ? 0 : 1]}/documents`, { name: `fruit${i + 1}`, content, ...tags })).documentsCreated[0]!.id);
  }
  ok(await call(routes, 'POST', `/knowledge/${bases[0]}/documents/${docs[0]}/chunks`, { content: ZERO_TEXT }));
  const store = await detectVectorStore(db);
  await sql`INSERT INTO knowledge_chunks (id, knowledge_base_id, document_id, chunk_index, content, token_count, embedding_model, embedding)
    VALUES (${randomUUID()}, ${bases[0]}, ${docs[0]}, 99, 'Three numbers only', 4, 'text-embedding-3-small', ${store.value([1, 2, 3])})`.execute(db);
  return bases;
}

type Answer = Array<{ id: string; content: string; similarity: number }>;
/** What a few searches answer: everything by a query, by a chunk's own text, filtered by a tag, by a zero vector. */
async function answers(routes: InternalRoutes, bases: string[]): Promise<Answer[]> {
  const queries = [{ query: QUERY }, { query: TEXTS[2] }, { query: QUERY, filters: { tag2: 'yes' } }, { query: `${ZERO_TEXT}?` }];
  const out: Answer[] = [];
  for (const q of queries) out.push((await search(routes, { knowledgeBaseIds: bases, topK: 100, ...q })).results.map((r) => ({ id: r.id, content: r.content, similarity: r.similarity })));
  return out;
}
/** The same chunks in the same order, similarities equal to 5 digits (pgvector keeps single precision). */
function expectSameAnswers(after: Answer[], before: Answer[]) {
  expect(after.map((a) => a.map((r) => r.id))).toEqual(before.map((a) => a.map((r) => r.id)));
  for (const [i, a] of after.entries()) for (const [j, r] of a.entries()) expect(r.similarity).toBeCloseTo(before[i]![j]!.similarity, 5);
}

describe('a schema migrated before pgvector was installed', () => {
  it(
    PGVECTOR
      ? 'is converted to pgvector by two instances starting at once, once, with the same search answers; starting again changes nothing'
      : `${WITHOUT}keeps the exact store, and each start says pgvector is not installed`,
    async () => {
      const database = await createTestDatabase<IntegrationsDB>('integrations_upgrade', integrationsMigrations('exact'));
      const second = await createDatabase<IntegrationsDB>(databaseUrl, database.schema, { max: 2 });
      try {
        // What the default migration leaves where pgvector is not installed: the exact column, unmarked.
        await sql`COMMENT ON COLUMN knowledge_chunks.embedding IS NULL`.execute(database.db);
        const bases = await fill(database.db, TEXTS);
        const before = await answers(routesOn(database.db), bases);
        expect(before.map((a) => a.length)).toEqual([8, 8, 1, 8]);

        const [a, b] = [recordingLogger(), recordingLogger()];
        const kinds = await Promise.all([upgradeToPgvector(database.db, a.logger), upgradeToPgvector(second.db, b.logger)]);
        const lines = [...a.lines, ...b.lines].map((l) => [l.level, l.msg]);
        if (PGVECTOR) {
          expect(kinds).toEqual(['pgvector', 'pgvector']);
          expect(lines).toEqual([[30, CONVERTED]]);
          expect([...a.lines, ...b.lines][0]).toMatchObject({ chunks: 9 });
        } else {
          expect(kinds).toEqual(['exact', 'exact']);
          expect(lines).toEqual([
            [30, NOT_INSTALLED],
            [30, NOT_INSTALLED],
          ]);
        }
        expect(await embeddingType(database.db)).toBe(PGVECTOR ? 'vector' : 'double precision[]');
        expect((await detectVectorStore(second.db)).kind).toBe(PGVECTOR ? 'pgvector' : 'exact');
        const routes = routesOn(second.db);
        expectSameAnswers(await answers(routes, bases), before);

        const again = recordingLogger();
        expect(await upgradeToPgvector(database.db, again.logger)).toBe(PGVECTOR ? 'pgvector' : 'exact');
        expect(again.lines.map((l) => l.msg)).toEqual(PGVECTOR ? [] : [NOT_INSTALLED]);
        // New chunks are stored in the converted column and ranked with the old ones.
        ok(await call(routes, 'POST', `/knowledge/${bases[1]}/documents`, { name: 'again', content: `${TEXTS[2]} Again.` }));
        const found = await search(routes, { knowledgeBaseIds: bases, query: TEXTS[2], topK: 2 });
        // Both score 1 (the fake embeds a text by its first 8 characters), so their order is a tie's: compare them as a set.
        expect(found.results.map((r) => [r.content, r.similarity]).sort()).toEqual([
          [TEXTS[2], 1],
          [`${TEXTS[2]} Again.`, 1],
        ].sort());
      } finally {
        await second.close();
        await database.drop();
      }
    },
  );

  it(
    PGVECTOR
      ? 'without the right to create the extension the exact store stays, with one warning naming why; once an operator creates it, the next start converts'
      : `${WITHOUT}a role without superuser rights keeps the exact store, told pgvector is not installed`,
    async () => {
      const scratch = await scratchDatabase();
      const role = `weft_vectors_${uniqueSuffix()}`;
      await scratch.server(`CREATE ROLE "${role}" NOLOGIN NOSUPERUSER`);
      let limited: Database<IntegrationsDB> | undefined;
      try {
        await scratch.admin(`GRANT CREATE ON DATABASE "${scratch.name}" TO "${role}"`);
        // The service connected as a role that may create its schema but not the (untrusted) extension.
        const pool = new pg.Pool({ connectionString: scratch.url, max: 2, options: `-c search_path=integrations,public -c role=${role}` });
        await pool.query('CREATE SCHEMA IF NOT EXISTS integrations');
        const db = new Kysely<IntegrationsDB>({ dialect: new PostgresDialect({ pool }) });
        limited = { db, schema: 'integrations', pool, close: () => db.destroy() };
        await migrate(limited, integrationsMigrations('auto'));
        expect(await embeddingType(db)).toBe('double precision[]');
        const bases = await fill(db, TEXTS.slice(0, 5));
        const before = await answers(routesOn(db), bases);

        const start = recordingLogger();
        expect(await upgradeToPgvector(db, start.logger)).toBe('exact');
        if (!PGVECTOR) {
          expect(start.lines.map((l) => [l.level, l.msg])).toEqual([[30, NOT_INSTALLED]]);
          return;
        }
        expect(start.lines.map((l) => [l.level, l.msg])).toEqual([
          [
            40,
            'pgvector is installed on the Postgres server but the extension could not be created (permission denied to create extension "vector"): knowledge search uses the exact store. A superuser can run CREATE EXTENSION vector in this database; the next start converts the embeddings.',
          ],
        ]);
        expect(start.lines[0]!.err?.message).toBe('permission denied to create extension "vector"');
        expect(await embeddingType(db)).toBe('double precision[]');
        expectSameAnswers(await answers(routesOn(db), bases), before);

        await scratch.admin('CREATE EXTENSION vector');
        const next = recordingLogger();
        expect(await upgradeToPgvector(db, next.logger)).toBe('pgvector');
        expect(next.lines.map((l) => [l.level, l.msg])).toEqual([[30, CONVERTED]]);
        expect(await embeddingType(db)).toBe('vector');
        expectSameAnswers(await answers(routesOn(db), bases), before);
      } finally {
        await limited?.close();
        await scratch.drop();
        await scratch.server(`DROP ROLE IF EXISTS "${role}"`);
      }
    },
  );
});
