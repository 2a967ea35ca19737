import pg from 'pg';
import { ensureDatabase } from '@weft/platform';
import { uniqueSuffix } from '@weft/testkit';

/** Drops the database named in `url` (connecting to `postgres`), closing what is still connected to it. */
export async function dropDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * A new database `<prefix>_<suffix>` on the Postgres server of `serverUrl` (a database URL), for
 * services a test starts of its own; answers its URL and a `drop`.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = new URL(serverUrl);
  url.pathname = `/${prefix}_${uniqueSuffix()}`;
  await ensureDatabase(url.toString());
  return { url: url.toString(), drop: () => dropDatabase(url.toString()) };
}
