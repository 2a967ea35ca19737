import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { createDatabase, createLogger, type Database } from '@weft/platform';
import { backingEnv, createTestDatabase } from '@weft/testkit';
import { createRateLimiter, gatewayMigrations, type RateRule } from './rateLimitStore.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('rate limits kept in Postgres (real database)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase<unknown>>>;
  /** A second pool on the same schema: what another gateway process sees. */
  let other: Database<unknown>;
  let n = 0;
  const bucket = () => `b${++n}`;
  const limiter = (rule: RateRule, now?: () => number, db = database.db) => createRateLimiter(db, rule, now ? { now } : {});

  beforeAll(async () => {
    database = await createTestDatabase<unknown>('ratelimit', gatewayMigrations);
    other = await createDatabase<unknown>((await backingEnv()).databaseUrl, database.schema, { max: 10 });
  });
  afterAll(async () => {
    await other.close();
    await database.drop();
  });

  it('admits `limit` calls in any window and tells a refused caller when the oldest leaves it', async () => {
    const c = clock();
    const l = limiter({ limit: 3, windowMs: 10_000 }, c.now);
    const b = bucket();
    expect(await l.take(b)).toEqual({ allowed: true, remaining: 2 });
    c.advance(4_000);
    expect(await l.take(b)).toEqual({ allowed: true, remaining: 1 });
    c.advance(1_000);
    expect(await l.take(b)).toEqual({ allowed: true, remaining: 0 });
    expect(await l.take(b)).toEqual({ allowed: false, retryAfterMs: 5_000 });
    // Another bucket is not touched.
    expect((await l.take(bucket())).allowed).toBe(true);
    // The window slides: once the first call is 10 s old, one more is admitted, and the next waits for the second.
    c.advance(5_000);
    expect((await l.take(b)).allowed).toBe(true);
    expect(await l.take(b)).toEqual({ allowed: false, retryAfterMs: 4_000 });
  });

  it('does not count refused calls', async () => {
    const c = clock();
    const l = limiter({ limit: 1, windowMs: 1_000 }, c.now);
    const b = bucket();
    expect((await l.take(b)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) {
      c.advance(100);
      expect((await l.take(b)).allowed).toBe(false);
    }
    c.advance(500);
    expect((await l.take(b)).allowed).toBe(true);
  });

  it('a call given back is no longer counted: the slot is free at once, and a bucket with none counted is left as it is', async () => {
    const c = clock();
    const l = limiter({ limit: 2, windowMs: 10_000 }, c.now);
    const b = bucket();
    expect((await l.take(b)).allowed).toBe(true);
    c.advance(5_000);
    expect(await l.take(b)).toEqual({ allowed: true, remaining: 0 });
    expect((await l.take(b)).allowed).toBe(false);
    await l.giveBack(b);
    expect(await l.take(b)).toEqual({ allowed: true, remaining: 0 });
    expect((await l.take(b)).allowed).toBe(false);
    // Two in one group: one given back leaves the other counted.
    const g = bucket();
    expect((await l.take(g)).allowed).toBe(true);
    expect((await l.take(g)).allowed).toBe(true);
    await l.giveBack(g);
    expect(await l.take(g)).toEqual({ allowed: true, remaining: 0 });
    // Nothing to give back: no row is made, and the next take is counted as ever.
    const empty = bucket();
    await l.giveBack(empty);
    await l.giveBack(empty);
    expect((await sql<{ n: number }>`select count(*)::int as n from rate_buckets where bucket = ${empty}`.execute(database.db)).rows[0]?.n).toBe(0);
    expect(await l.take(empty)).toEqual({ allowed: true, remaining: 1 });
  });

  it('two gateways taking at once from one bucket admit exactly the limit between them (database clock)', async () => {
    const rule = { limit: 20, windowMs: 600_000 };
    const one = limiter(rule);
    const two = limiter(rule, undefined, other.db);
    const b = bucket();
    const takes = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? one : two).take(b)));
    expect(takes.filter((t) => t.allowed)).toHaveLength(20);
    const refused = takes.filter((t) => !t.allowed);
    expect(refused).toHaveLength(40);
    // Every refusal waits for (almost) the whole window: the first admitted call is seconds old at most.
    for (const t of refused) expect(t.allowed === false && t.retryAfterMs > 500_000 && t.retryAfterMs <= 600_000).toBe(true);
  });

  it('keeps a bucket small whatever its limit: calls are grouped by 1/60 of the window, and never admitted early', async () => {
    const c = clock();
    const l = limiter({ limit: 10_000, windowMs: 60_000 }, c.now);
    const b = bucket();
    for (let i = 0; i < 600; i++) {
      expect((await l.take(b)).allowed).toBe(true);
      c.advance(200);
    }
    const row = await sql<{ groups: number; total: number }>`select array_length(counts, 1) as groups, (select sum(x) from unnest(counts) x)::int as total from rate_buckets where bucket = ${b}`.execute(database.db);
    expect(row.rows[0]).toEqual({ groups: 60, total: 300 });

    // Grouping never admits more than the limit in a window: 5 per 1 s, calls every 150 ms for 6 s.
    const d = clock();
    const strict = limiter({ limit: 5, windowMs: 1_000 }, d.now);
    const s = bucket();
    const admittedAt: number[] = [];
    for (let i = 0; i < 40; i++) {
      if ((await strict.take(s)).allowed) admittedAt.push(d.now());
      d.advance(150);
    }
    for (const t of admittedAt) expect(admittedAt.filter((u) => u > t - 1_000 && u <= t).length).toBeLessThanOrEqual(5);
    expect(admittedAt.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses rules that cannot limit, and admits (logging why) when the store cannot be reached', async () => {
    expect(() => limiter({ limit: 0, windowMs: 1000 })).toThrow('A rate limit must be a whole number of calls of at least 1, got 0');
    expect(() => limiter({ limit: 1, windowMs: 0 })).toThrow('A rate window must be a whole number of milliseconds of at least 1, got 0');
    // Nothing listens on port 1.
    const unreachable = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 1_000 }) }) });
    const warned: unknown[] = [];
    const logger = createLogger('test', 'silent');
    logger.warn = ((obj: unknown) => void warned.push(obj)) as typeof logger.warn;
    const l = createRateLimiter(unreachable, { limit: 1, windowMs: 1000 }, { logger });
    expect(await l.take(bucket())).toEqual({ allowed: true, remaining: 0 });
    expect(warned).toHaveLength(1);
    await unreachable.destroy();
  });
});
