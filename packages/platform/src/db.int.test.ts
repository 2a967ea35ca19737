import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresIntrospector, sql, type Migration } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import type { Database } from './db.js';
import { migrate } from './db.js';
import { platformMigrations } from './outbox.js';

type Db = Database<unknown> & { drop(): Promise<void> };

const items: Migration = { up: (db) => db.schema.createTable('items').addColumn('id', 'bigserial', (c) => c.primaryKey()).addColumn('note', 'text').execute() };

describe('a service database (real Postgres)', () => {
  let own: Db;
  beforeAll(async () => {
    own = await createTestDatabase('db_own', { '0001_items': items });
  });
  afterAll(async () => {
    await own.drop();
  });

  it("introspects only its own schema, so a schema another session drops meanwhile cannot fail a migration's checks", async () => {
    const doomed: Db = await createTestDatabase('db_doomed');
    await sql`create table elsewhere (id int)`.execute(doomed.db);
    await own.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // The snapshot is taken here and still lists the doomed schema after it is dropped, as a catalog scan
        // running beside a test's drop does; functions called on its name then find it gone.
        await sql`select 1`.execute(trx);
        await doomed.drop();
        // Kysely's own introspection fails on it (the cause of migrations failing at random in the suite).
        await sql`savepoint control`.execute(trx);
        await expect(new PostgresIntrospector(trx).getTables()).rejects.toThrow(`schema "${doomed.schema}" does not exist`);
        await sql`rollback to savepoint control`.execute(trx);
        const tables = await trx.introspection.getTables({ withInternalKyselyTables: true });
        const names = tables.map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['items', 'kysely_migration', 'kysely_migration_lock', 'outbox']));
        expect(names).not.toContain('elsewhere');
        expect(tables.every((t) => t.schema === own.schema)).toBe(true);
        expect(tables.find((t) => t.name === 'items')?.columns.map((c) => [c.name, c.dataType, c.isAutoIncrementing, c.isNullable])).toEqual([
          ['id', 'int8', true, false],
          ['note', 'text', false, true],
        ]);
        expect((await trx.introspection.getTables()).map((t) => t.name).sort()).toEqual(names.filter((n) => !n.startsWith('kysely_')).sort());
      });
    // And the Migrator, which asks it whether its tables exist, goes on.
    await migrate(own, {
      ...platformMigrations,
      '0001_items': items,
      '0002_more': { up: (db) => db.schema.createTable('more').addColumn('id', 'int4').execute() },
    });
    expect((await own.db.introspection.getTables()).map((t) => t.name)).toEqual(expect.arrayContaining(['items', 'more']));
  });
});
