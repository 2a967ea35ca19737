import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { exact, pgvector } from './vectorStore.js';

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
