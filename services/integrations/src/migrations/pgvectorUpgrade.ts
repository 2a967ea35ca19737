import { sql, type Kysely, type Transaction } from 'kysely';
import type { Logger } from '@weft/platform';
import type { IntegrationsDB } from '../db.js';

/**
 * The comment `integrationsMigrations('exact')` puts on `knowledge_chunks.embedding`: a column marked
 * so stays double precision[] (the tests keep the exact search tested on a server with pgvector; an
 * operator may set it to keep the exact store too).
 */
export const EXACT_FORCED = 'weft: exact store forced, never converted to pgvector';

/** One key for every schema of the database: the extension is per database, and one conversion runs at a time. */
const LOCK = 'weft:knowledge:pgvector';

/** Runs `statement` in a savepoint: a failure rolls back only it, and is answered instead of thrown. */
async function attempt(trx: Transaction<IntegrationsDB>, statement: () => Promise<unknown>): Promise<Error | undefined> {
  await sql`SAVEPOINT pgvector_upgrade`.execute(trx);
  try {
    await statement();
    await sql`RELEASE SAVEPOINT pgvector_upgrade`.execute(trx);
    return undefined;
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT pgvector_upgrade`.execute(trx);
    return err instanceof Error ? err : new Error(String(err));
  }
}

async function extensionSchema(trx: Transaction<IntegrationsDB>): Promise<string | undefined> {
  const found = await sql<{ schema: string }>`SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`.execute(trx);
  return found.rows[0]?.schema;
}

/**
 * Run at each start, after the migrations: a schema whose embeddings are still double precision[]
 * (migrated before pgvector was installed, or when the extension could not be created) is converted
 * to pgvector's `vector` once the server has it, creating the extension in `public` when needed.
 * Under a database-wide advisory lock, so instances starting at once convert it once; idempotent;
 * never for a column marked EXACT_FORCED. A failure (no right to create the extension, a value the
 * conversion refuses) is logged as a warning naming it and leaves the exact store, never stops the
 * start. Answers the store the schema uses afterwards.
 */
export async function upgradeToPgvector(db: Kysely<IntegrationsDB>, logger: Logger): Promise<'pgvector' | 'exact'> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${LOCK}))`.execute(trx);
    const column = await sql<{ typname: string; note: string | null }>`
      SELECT t.typname, col_description(a.attrelid, a.attnum) AS note FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attrelid = to_regclass('knowledge_chunks') AND a.attname = 'embedding' AND NOT a.attisdropped`.execute(trx);
    const row = column.rows[0];
    if (row?.typname === 'vector') return 'pgvector';
    if (!row || row.note === EXACT_FORCED) return 'exact';

    let schema = await extensionSchema(trx);
    if (!schema) {
      const available = await sql`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`.execute(trx);
      if (available.rows.length === 0) {
        logger.info('pgvector is not installed on the Postgres server: knowledge search uses the exact store (bash infra/scripts/pgvector.sh installs it)');
        return 'exact';
      }
      const failed = await attempt(trx, () => sql`CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public`.execute(trx));
      // Another service's migration may have created it meanwhile (its CREATE and ours collide): use it.
      schema = await extensionSchema(trx);
      if (!schema) {
        logger.warn(
          { err: failed },
          `pgvector is installed on the Postgres server but the extension could not be created (${failed?.message ?? 'unknown error'}): knowledge search uses the exact store. A superuser can run CREATE EXTENSION vector in this database; the next start converts the embeddings.`,
        );
        return 'exact';
      }
    }

    const started = Date.now();
    const chunks = await sql<{ n: string }>`SELECT count(*) AS n FROM knowledge_chunks`.execute(trx);
    // The column has no fixed dimension, so chunks of every model convert; the exact store kept them
    // at unit length, which a cosine distance does not see.
    const vector = sql`${sql.id(schema)}.vector`;
    const failed = await attempt(trx, () => sql`ALTER TABLE knowledge_chunks ALTER COLUMN embedding TYPE ${vector} USING embedding::${vector}`.execute(trx));
    if (failed) {
      logger.warn({ err: failed }, `the knowledge embeddings could not be converted to pgvector (${failed.message}): knowledge search uses the exact store`);
      return 'exact';
    }
    logger.info({ chunks: Number(chunks.rows[0]?.n ?? 0), ms: Date.now() - started }, 'knowledge embeddings converted to pgvector');
    return 'pgvector';
  });
}
