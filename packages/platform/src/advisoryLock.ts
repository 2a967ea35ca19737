import type pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPoolClient } from 'kysely';

/** Kysely on one checked-out client: every query of `work` runs on the connection that holds the lock. */
function onClient<DB>(client: pg.PoolClient): Kysely<DB> {
  const shared: PostgresPoolClient = {
    // The client stays checked out until the lock is released; Kysely's "release" of it is a no-op.
    query: client.query.bind(client) as PostgresPoolClient['query'],
    release: () => undefined,
  };
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: { connect: () => Promise.resolve(shared), end: () => Promise.resolve() } }) });
}

/**
 * Runs `work` holding the Postgres session advisory lock of `key` (hashtext of it), on a connection of
 * `pool` of its own handed to `work` (no transaction: what it writes is committed at once). One holder
 * per key across every process sharing the database. The connection goes back to the pool only when
 * the unlock answered true; otherwise (the unlock failed on a live connection, the session no longer
 * held the lock, the connection dropped) it is destroyed, and its session's locks end with it, so a
 * lock is never left held by an idle pooled connection. A connection lost while `work` runs fails
 * `work`'s next query, never the process.
 */
export async function withAdvisoryLock<DB, T>(pool: pg.Pool, key: string, work: (conn: Kysely<DB>) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A checked-out client whose connection drops emits 'error'; unheard, that would crash the process.
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost = err;
  };
  client.on('error', onError);
  let unlocked = false;
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await work(onClient<DB>(client));
    } finally {
      unlocked = await client.query<{ unlocked: boolean }>('select pg_advisory_unlock(hashtext($1)) as unlocked', [key]).then(
        (r) => r.rows[0]?.unlocked === true,
        () => false,
      );
    }
  } finally {
    client.removeListener('error', onError);
    // Released with an error, pg-pool ends the connection instead of keeping it idle.
    client.release(unlocked && !lost ? undefined : (lost ?? new Error(`advisory lock ${key}: the unlock did not answer true`)));
  }
}
