import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Migration,
  type MigrationResultSet,
  type PostgresDialectConfig,
  type TableMetadata,
} from 'kysely';

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

/**
 * Kysely's introspection (which the Migrator asks whether its own tables exist) scoped to one schema.
 * Kysely's own reads every schema of the database and evaluates has_schema_privilege(name) and
 * pg_get_serial_sequence(name) on each: a schema dropped by another session meanwhile (tests create
 * and drop theirs all the time) failed a migration with 'schema "…" does not exist'.
 */
class SchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #schema: string;
  readonly #all: PostgresIntrospector;
  constructor(db: Kysely<unknown>, schema: string) {
    this.#db = db;
    this.#schema = schema;
    this.#all = new PostgresIntrospector(db);
  }
  getSchemas() {
    return this.#all.getSchemas();
  }
  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{ table: string; kind: string; column: string; type: string; typeSchema: string; notNull: boolean; hasDefault: boolean; serial: string | null; comment: string | null }>`
      select c.relname as "table", c.relkind as kind, a.attname as "column", t.typname as type, tn.nspname as "typeSchema",
             a.attnotnull as "notNull", a.atthasdef as "hasDefault", col_description(a.attrelid, a.attnum) as comment,
             pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) as serial
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum >= 0 and not a.attisdropped
      join pg_catalog.pg_type t on t.oid = a.atttypid
      join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
      where n.nspname = ${this.#schema} and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && (row.table === 'kysely_migration' || row.table === 'kysely_migration_lock')) continue;
      const table = tables.get(row.table) ?? { name: row.table, schema: this.#schema, isView: row.kind === 'v', columns: [] };
      tables.set(row.table, table);
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.typeSchema,
        isNullable: !row.notNull,
        hasDefaultValue: row.hasDefault,
        isAutoIncrementing: row.serial !== null,
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()];
  }
  async getMetadata(options?: DatabaseMetadataOptions) {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect whose introspection sees only the service's schema. */
class SchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;
  constructor(config: PostgresDialectConfig, schema: string) {
    super(config);
    this.#schema = schema;
  }
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.#schema);
  }
}

/** Opens a pool on `url` whose connections use `schema` (created if missing) as search_path. */
export async function createDatabase<DB>(url: string, schema: string, opts: { max?: number } = {}): Promise<Database<DB>> {
  assertIdentifier('schema', schema);
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, options: `-c search_path=${schema},public` });
  await pool.query(`create schema if not exists "${schema}"`);
  const db = new Kysely<DB>({ dialect: new SchemaPostgresDialect({ pool }, schema) });
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
