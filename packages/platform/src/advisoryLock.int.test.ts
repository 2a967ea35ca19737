import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import type { Database } from './db.js';
import { withAdvisoryLock } from './advisoryLock.js';

type Db = Database<unknown> & { drop(): Promise<void> };

describe('withAdvisoryLock (real Postgres)', () => {
  // Two pools: two processes sharing the database (advisory locks are the database's, whatever the schema).
  let one: Db;
  let other: Db;
  beforeAll(async () => {
    one = await createTestDatabase('lock_one');
    other = await createTestDatabase('lock_other');
  });
  afterAll(async () => {
    await one.drop();
    await other.drop();
  });

  const pidOf = async (conn: Kysely<unknown>) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0]?.pid ?? 0;
  const alive = async (pid: number) => (await sql<{ n: string }>`select count(*) as n from pg_stat_activity where pid = ${pid}`.execute(other.db)).rows[0]?.n === '1';
  /** Whether another process could take the lock now (taken and given back at once when it could). */
  const free = async (key: string) =>
    (await sql<{ free: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as free, pg_advisory_unlock(hashtext(${key}))`.execute(other.db).catch(() => ({ rows: [{ free: false }] }))).rows[0]?.free;

  it('holds the lock while work runs, then keeps its connection pooled once the unlock answered true', async () => {
    const key = `test:${uniqueSuffix()}`;
    let pid = 0;
    const out = await withAdvisoryLock(one.pool, key, async (conn) => {
      pid = await pidOf(conn);
      // Work's queries run on the connection that holds the lock.
      expect((await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and granted and pid = pg_backend_pid()`.execute(conn)).rows[0]?.n).toBe('1');
      expect(await free(key)).toBe(false);
      return 'done';
    });
    expect(out).toBe('done');
    expect(await free(key)).toBe(true);
    expect(await alive(pid)).toBe(true);
  });

  it('work that leaves its connection unable to unlock (an aborted transaction): the connection is destroyed, and another process takes the lock', async () => {
    const key = `test:${uniqueSuffix()}`;
    let pid = 0;
    const out = await withAdvisoryLock(one.pool, key, async (conn) => {
      pid = await pidOf(conn);
      await sql`begin`.execute(conn);
      await expect(sql`select 1 / 0`.execute(conn)).rejects.toThrow('division by zero');
      return 'done';
    });
    expect(out).toBe('done');
    // Before: the unlock failed ("current transaction is aborted") and the connection went back to the pool holding the lock for good.
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
    expect(await free(key)).toBe(true);
    expect(await withAdvisoryLock(other.pool, key, async () => 'second')).toBe('second');
    // The pool goes on with a new connection.
    expect(await withAdvisoryLock(one.pool, key, async (conn) => pidOf(conn))).not.toBe(pid);
  });

  it('an unlock answering false (the session no longer held the lock) destroys the connection too', async () => {
    const key = `test:${uniqueSuffix()}`;
    let pid = 0;
    await withAdvisoryLock(one.pool, key, async (conn) => {
      pid = await pidOf(conn);
      await sql`select pg_advisory_unlock_all()`.execute(conn);
    });
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
  });

  it('a connection lost while work runs fails work, not the process; the lock is free and the failure is work\'s', async () => {
    const key = `test:${uniqueSuffix()}`;
    const lost = withAdvisoryLock(one.pool, key, async (conn) => {
      const pid = await pidOf(conn);
      await sql`select pg_terminate_backend(${pid})`.execute(other.db);
      await expect.poll(() => alive(pid), { timeout: 10_000, interval: 50 }).toBe(false);
      await sql`select 1`.execute(conn);
    });
    // Which of pg's errors work sees depends on when the server's goodbye reaches the client: the terminating error itself,
    // the socket's end, or the client already marked unusable. Any of them is work's own failure, never the unlock's.
    await expect(lost).rejects.toThrow(/terminating connection due to administrator command|Connection terminated unexpectedly|Client has encountered a connection error and is not queryable/);
    expect(await free(key)).toBe(true);
    expect(await withAdvisoryLock(one.pool, key, async () => 'again')).toBe('again');
  });
});
