import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { IntegrationsDB } from '../db.js';

/**
 * How chunk embeddings are stored and compared. The migration makes `knowledge_chunks.embedding` a
 * pgvector `vector` when the server has the extension, else `double precision[]` (converted at a later
 * start once the server has it: migrations/pgvectorUpgrade.ts); this reads which one it is. Both search exactly (no approximate index: each knowledge base may use its own model,
 * so the column has no fixed dimension); pgvector computes the cosine distance natively, the array
 * form as a dot product in SQL of vectors stored at unit length.
 */
export interface VectorStore {
  kind: 'pgvector' | 'exact';
  /** An embedding as a column value. */
  value(vector: number[]): RawBuilder<unknown>;
  /** Cosine distance (1 - cosine similarity; 1 when either is a zero vector) between the column `c.embedding` and `query`. */
  distance(query: number[]): RawBuilder<number>;
  /** Only rows whose embedding has the query's dimension (a mismatch cannot be compared). */
  sameDimension(query: number[]): RawBuilder<boolean>;
}

/** The most numbers an embedding may have: pgvector's `vector` stores up to 16,000 (the exact form takes the same limit). */
export const MAX_DIMENSIONS = 16_000;

/** pgvector installed in `schema`: its type, operator and function named with the schema (which need not be on the search_path). */
export function pgvector(schema: string): VectorStore {
  const type = sql`${sql.id(schema)}.vector`;
  const literal = (v: number[]) => sql`${`[${v.join(',')}]`}::${type}`;
  return {
    kind: 'pgvector',
    value: literal,
    // A zero vector has no direction: pgvector answers NaN, taken as 1 (similarity 0) as in the exact form.
    distance: (q) => sql<number>`coalesce(nullif(c.embedding OPERATOR(${sql.id(schema)}.<=>) ${literal(q)}, 'NaN'), 1)`,
    sameDimension: (q) => sql<boolean>`${sql.id(schema)}.vector_dims(c.embedding) = ${q.length}`,
  };
}

/** A vector scaled to length 1 (a zero vector stays zero), so a cosine is a dot product. */
export function unitLength(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

/** Without pgvector: vectors stored at unit length, the distance 1 - their dot product over the unnested pair (about 20% faster than dividing by norms on each search). */
export const exact: VectorStore = {
  kind: 'exact',
  value: (v) => sql`${unitLength(v)}::double precision[]`,
  distance: (q) => sql<number>`(1 - (SELECT sum(a * b) FROM unnest(c.embedding, ${unitLength(q)}::double precision[]) AS t(a, b)))`,
  sameDimension: (q) => sql<boolean>`cardinality(c.embedding) = ${q.length}`,
};

/** Reads the embedding column's type in the service's schema (cached per process: vectorStoreCache). */
export async function detectVectorStore(db: Kysely<IntegrationsDB>): Promise<VectorStore> {
  const found = await sql<{ typname: string; schema: string }>`
    SELECT t.typname, n.nspname AS schema FROM pg_attribute a
    JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE a.attrelid = to_regclass('knowledge_chunks') AND a.attname = 'embedding'`.execute(db);
  const row = found.rows[0];
  return row?.typname === 'vector' ? pgvector(row.schema) : exact;
}

/**
 * SQLSTATEs a statement built for the other column type raises: 42883 undefined_function (a search's
 * `unnest(vector)`, `cardinality(vector)`; `<=>` or `vector_dims` on double precision[]), 42804
 * datatype_mismatch (a `vector` value stored into double precision[]), 42846 cannot_coerce (an explicit
 * cast of the column between them: none of the stores' statements has one today). A double precision[]
 * value stored into a `vector` column raises nothing: pgvector casts it on assignment (at unit length,
 * which a cosine does not see).
 */
export const TYPE_CHANGED_CODES: ReadonlySet<string> = new Set(['42883', '42804', '42846']);

function sqlState(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export interface VectorStoreCache {
  /** The store detected at the first use (detected again after a failure). */
  current(): Promise<VectorStore>;
  /**
   * Runs `statement` with the current store. When it fails with an error a changed column type
   * explains (TYPE_CHANGED_CODES: another instance converted the column at its start, upgradeToPgvector),
   * the store is detected again and, if its kind changed, `statement` runs once more with it; any
   * other failure, or the same kind, is thrown as it was. `statement` must be safe to run twice: a
   * read, or writes in a transaction its failure rolled back.
   */
  withStore<T>(statement: (store: VectorStore) => Promise<T>): Promise<T>;
}

/** The vector store of a process, detected once and again when the column's type changed underneath it. */
export function vectorStoreCache(db: Kysely<IntegrationsDB>, detect: (db: Kysely<IntegrationsDB>) => Promise<VectorStore> = detectVectorStore): VectorStoreCache {
  let cached: Promise<VectorStore> | undefined;
  const detectAgain = (): Promise<VectorStore> => {
    const detected = detect(db).catch((err: unknown) => {
      if (cached === detected) cached = undefined;
      throw err;
    });
    cached = detected;
    return detected;
  };
  const current = () => cached ?? detectAgain();
  return {
    current,
    async withStore(statement) {
      const used = current();
      const store = await used;
      try {
        return await statement(store);
      } catch (err) {
        if (!TYPE_CHANGED_CODES.has(sqlState(err) ?? '')) throw err;
        // Requests failing at once detect once: the first replaces the store they all used.
        const fresh = await (cached === used ? detectAgain() : current()).catch(() => undefined);
        if (!fresh || fresh.kind === store.kind) throw err;
        return statement(fresh);
      }
    },
  };
}
