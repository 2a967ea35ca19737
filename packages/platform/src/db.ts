import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationResultSet } from 'kysely';

export type { Migration };

/** A service's database handle, bound to the service's own schema through search_path. */
export interface Database<DB> {
  db: Kysely<DB>;
  schema: string;
  /** The pool under `db`, for work that needs one connection of its own (withAdvisoryLock). */
  pool: pg.Pool;
  close(): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

function assertIdentifier(kind: string, name: string): void {
  if (!IDENT.test(name)) throw new Error(`Invalid ${kind} name '${name}': use lowercase letters, digits and _`);
}

/** Creates the database named in `url` when it does not exist yet (connecting to `postgres`). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  assertIdentifier('database', name);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database "${name}"`);
      } catch (err) {
        // Another process created it between our check and our create.
        if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/** Opens a pool on `url` whose connections use `schema` (created if missing) as search_path. */
export async function createDatabase<DB>(url: string, schema: string, opts: { max?: number } = {}): Promise<Database<DB>> {
  assertIdentifier('schema', schema);
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, options: `-c search_path=${schema},public` });
  await pool.query(`create schema if not exists "${schema}"`);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, schema, pool, close: () => db.destroy() };
}

/** Applies a service's migrations (name → migration, applied in name order) inside its schema. */
export async function migrate<DB>(database: Database<DB>, migrations: Record<string, Migration>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: database.db,
    migrationTableSchema: database.schema,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return result;
}

/** A cheap liveness probe of the database. */
export async function pingDatabase(db: Kysely<unknown>): Promise<void> {
  await sql`select 1`.execute(db);
}
