import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import pg from 'pg';
import { createDatabase, ensureDatabase, migrate, payloadBucket, platformMigrations, streamName, STREAM_SOURCES, type Database, type Migration } from '@weft/platform';
import { backingEnv } from './env.js';

/** A short random suffix for names that must not collide between test runs. */
export function uniqueSuffix(): string {
  return randomBytes(5).toString('hex');
}

/**
 * A fresh schema in the test database with the platform tables and `migrations` applied;
 * `drop()` removes it.
 */
export async function createTestDatabase<DB>(prefix: string, migrations: Record<string, Migration> = {}): Promise<Database<DB> & { drop(): Promise<void> }> {
  const { databaseUrl } = await backingEnv();
  await ensureDatabase(databaseUrl);
  const schema = `t_${prefix}_${uniqueSuffix()}`;
  const database = await createDatabase<DB>(databaseUrl, schema, { max: 20 });
  await migrate(database, { ...platformMigrations, ...migrations });
  return {
    ...database,
    async drop() {
      await database.close();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A bus instance name of its own (streams, subjects, task queues), and a cleanup of its streams. */
export async function createTestInstance(): Promise<{ instance: string; cleanup(): Promise<void> }> {
  const instance = `t${uniqueSuffix()}`;
  return {
    instance,
    async cleanup() {
      const { natsUrl } = await backingEnv();
      const nc = await connect({ servers: natsUrl });
      const jsm = await nc.jetstreamManager();
      for (const source of STREAM_SOURCES) await jsm.streams.delete(streamName(instance, source)).catch(() => false);
      await jsm.streams.delete(`OBJ_${payloadBucket(instance)}`).catch(() => false);
      await nc.close();
    },
  };
}
