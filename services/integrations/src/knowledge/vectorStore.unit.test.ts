import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import type { IntegrationsDB } from '../db.js';
import { TYPE_CHANGED_CODES, exact, pgvector, vectorStoreCache, type VectorStore } from './vectorStore.js';

// The statements as text, without a database; both stores run against Postgres in vectorStore.int.test.ts
// (pgvector when the server has it: infra/scripts/pgvector.sh).
const db = new Kysely<unknown>({
  dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() },
});
const text = (q: ReturnType<typeof sql>) => {
  const c = q.compile(db);
  return { sql: c.sql, parameters: c.parameters };
};

describe('vector stores', () => {
  it('pgvector: a vector literal cast to the extension schema’s type, its <=> operator and vector_dims', () => {
    const store = pgvector('public');
    expect(text(sql`${store.value([0.5, -1, 2e-7])}`)).toEqual({ sql: '$1::"public".vector', parameters: ['[0.5,-1,2e-7]'] });
    expect(text(sql`${store.distance([1, 0])}`)).toEqual({ sql: `coalesce(nullif(c.embedding OPERATOR("public".<=>) $1::"public".vector, 'NaN'), 1)`, parameters: ['[1,0]'] });
    expect(text(sql`${store.sameDimension([1, 0, 0])}`)).toEqual({ sql: '"public".vector_dims(c.embedding) = $1', parameters: [3] });
  });

  it('exact: float8 arrays stored at unit length, the distance one minus their dot product', () => {
    expect(text(sql`${exact.value([3, 4])}`)).toEqual({ sql: '$1::double precision[]', parameters: [[0.6, 0.8]] });
    expect(text(sql`${exact.value([0, 0])}`).parameters).toEqual([[0, 0]]);
    expect(text(sql`${exact.distance([0, 2])}`)).toEqual({
      sql: '(1 - (SELECT sum(a * b) FROM unnest(c.embedding, $1::double precision[]) AS t(a, b)))',
      parameters: [[0, 1]],
    });
    expect(text(sql`${exact.sameDimension([1, 2])}`)).toEqual({ sql: 'cardinality(c.embedding) = $1', parameters: [2] });
  });
});

describe('the vector store cache', () => {
  // What pg throws: a DatabaseError carrying the SQLSTATE.
  const pgError = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });
  const asIs = new Kysely<IntegrationsDB>({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() } });
  /** A cache whose detection answers the column's kind as the test sets it, counting detections. */
  function detecting(kind: { now: VectorStore }) {
    const seen = { detections: 0 };
    const cache = vectorStoreCache(asIs, async () => {
      seen.detections += 1;
      return kind.now;
    });
    return { cache, seen };
  }

  it('detects once, and again with a retry of the statement when a type error comes from a changed column', async () => {
    const kind = { now: exact };
    const { cache, seen } = detecting(kind);
    expect(await cache.withStore(async (s) => s.kind)).toBe('exact');
    expect(await cache.withStore(async (s) => s.kind)).toBe('exact');
    expect(seen.detections).toBe(1);

    // The column converted to pgvector (42883 on a search), then back (42804 on a write), then again.
    for (const code of [...TYPE_CHANGED_CODES]) {
      kind.now = kind.now === exact ? pgvector('public') : exact;
      const ran: string[] = [];
      const answer = await cache.withStore(async (s) => {
        ran.push(s.kind);
        if (ran.length === 1) throw pgError(code);
        return `ran with ${s.kind}`;
      });
      expect(answer).toBe(`ran with ${kind.now.kind}`);
      expect(ran).toEqual([kind.now === exact ? 'pgvector' : 'exact', kind.now.kind]);
      expect((await cache.current()).kind).toBe(kind.now.kind);
    }
    expect(seen.detections).toBe(1 + TYPE_CHANGED_CODES.size);
  });

  it('throws as before when the kind did not change, the retry fails too, the error is another one or detecting fails', async () => {
    const kind = { now: exact };
    const { cache, seen } = detecting(kind);
    const undefinedFunction = pgError('42883');
    let runs = 0;
    await expect(cache.withStore(async () => ((runs += 1), Promise.reject(undefinedFunction)))).rejects.toBe(undefinedFunction);
    expect([runs, seen.detections]).toEqual([1, 2]);

    // Changed, but the statement fails with the new store too: run twice, never a third time.
    kind.now = pgvector('public');
    runs = 0;
    const again = pgError('42804');
    await expect(cache.withStore(async () => ((runs += 1), Promise.reject(again)))).rejects.toBe(again);
    expect([runs, seen.detections]).toEqual([2, 3]);

    const uniqueViolation = pgError('23505');
    kind.now = exact;
    runs = 0;
    await expect(cache.withStore(async () => ((runs += 1), Promise.reject(uniqueViolation)))).rejects.toBe(uniqueViolation);
    expect([runs, seen.detections, (await cache.current()).kind]).toEqual([1, 3, 'pgvector']);

    const broken = vectorStoreCache(asIs, () => Promise.reject(new Error('connection refused')));
    await expect(broken.withStore(async (s) => s.kind)).rejects.toThrow('connection refused');
  });

  it('detects once for statements failing at once, and again after a failed detection', async () => {
    const kind = { now: exact };
    const { cache, seen } = detecting(kind);
    await cache.current();
    kind.now = pgvector('public');
    const kinds = await Promise.all(
      [1, 2, 3].map(() =>
        cache.withStore(async (s) => {
          if (s.kind === 'exact') throw pgError('42883');
          return s.kind;
        }),
      ),
    );
    expect(kinds).toEqual(['pgvector', 'pgvector', 'pgvector']);
    expect(seen.detections).toBe(2);

    let fail = true;
    const flaky = vectorStoreCache(asIs, async () => {
      if (fail) throw new Error('connection refused');
      return exact;
    });
    await expect(flaky.current()).rejects.toThrow('connection refused');
    fail = false;
    expect((await flaky.current()).kind).toBe('exact');
  });
});
