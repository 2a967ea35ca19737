import { sql, type Kysely, type Migration } from 'kysely';
import type { Logger } from '@weft/platform';

/** At most `limit` runs in any `windowMs` (a sliding window). */
export interface RateRule {
  limit: number;
  windowMs: number;
}

export type Take = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

/** A rate limit one bucket at a time; every gateway taking from the same store shares its buckets. */
export interface RateLimiter {
  readonly rule: RateRule;
  take(bucket: string): Promise<Take>;
  /** Gives one admitted call back (its run never started): the bucket's latest call is no longer counted. */
  giveBack(bucket: string): Promise<void>;
}

/** How many groups a window is cut into at most: the counting is exact to window / SLOTS. */
export const SLOTS_PER_WINDOW = 60;

/**
 * The gateway's own tables in schema `gateway`: one row per rate bucket. A bucket keeps its admitted
 * calls in at most ~SLOTS_PER_WINDOW + 1 groups (first and last call time, count), so a row stays
 * small whatever the limit. `rate_take` decides and records a call in one statement, holding the
 * bucket's row lock, so gateways taking at once cannot both take the last run.
 */
export const gatewayMigrations: Record<string, Migration> = {
  '0001_rate_buckets': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table rate_buckets (
          bucket text primary key,
          firsts bigint[] not null default '{}',
          counts int[] not null default '{}',
          lasts bigint[] not null default '{}',
          expires_at bigint not null default 0
        )`.execute(db);
      await sql`create index rate_buckets_expires on rate_buckets (expires_at)`.execute(db);
      // A group is counted while its last call is inside the window, so a call is never forgotten
      // early (at most `limit` in any window) and is refused at most window / SLOTS too long. A refused
      // call is told when enough of the oldest groups have left for one more; it is not recorded.
      await sql`
        create function rate_take(p_bucket text, p_limit int, p_window_ms bigint, p_now_ms bigint)
        returns table (allowed boolean, remaining int, retry_after_ms bigint)
        language plpgsql as $$
        declare
          now_ms bigint;
          slot_ms bigint := greatest(1, ceil(p_window_ms::numeric / ${sql.lit(SLOTS_PER_WINDOW)})::bigint);
          cutoff bigint;
          b rate_buckets%rowtype;
          nf bigint[] := '{}';
          nc int[] := '{}';
          nl bigint[] := '{}';
          total int := 0;
          freed int := 0;
          n int;
        begin
          insert into rate_buckets (bucket) values (p_bucket) on conflict (bucket) do nothing;
          select * into b from rate_buckets where bucket = p_bucket for update;
          -- The time is read once the row is held: takes of one bucket see it in the order they hold it.
          now_ms := coalesce(p_now_ms, floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
          cutoff := now_ms - p_window_ms;
          for i in 1 .. coalesce(array_length(b.counts, 1), 0) loop
            if b.lasts[i] > cutoff then
              nf := nf || b.firsts[i];
              nc := nc || b.counts[i];
              nl := nl || b.lasts[i];
              total := total + b.counts[i];
            end if;
          end loop;
          if total >= p_limit then
            for i in 1 .. array_length(nc, 1) loop
              freed := freed + nc[i];
              if total - freed < p_limit then
                return query select false, 0, nl[i] + p_window_ms - now_ms;
                return;
              end if;
            end loop;
          end if;
          n := coalesce(array_length(nc, 1), 0);
          if n > 0 and now_ms - nf[n] < slot_ms then
            nc[n] := nc[n] + 1;
            nl[n] := greatest(nl[n], now_ms);
          else
            nf := nf || now_ms;
            nc := nc || 1;
            nl := nl || now_ms;
          end if;
          update rate_buckets set firsts = nf, counts = nc, lasts = nl, expires_at = now_ms + p_window_ms where bucket = p_bucket;
          -- Buckets nobody took from for a whole window are dropped now and then.
          if random() < 0.001 then
            delete from rate_buckets where expires_at < now_ms;
          end if;
          return query select true, p_limit - total - 1, 0::bigint;
        end
        $$`.execute(db);
    },
  },
  '0002_rate_give_back': {
    async up(db: Kysely<unknown>) {
      // One admitted call given back (its run never started): one less in the newest group — the one a
      // take adds to — and the group dropped once empty. Slots are alike, so which call it was is moot.
      await sql`
        create function rate_give_back(p_bucket text)
        returns void
        language plpgsql as $$
        declare
          b rate_buckets%rowtype;
          n int;
        begin
          select * into b from rate_buckets where bucket = p_bucket for update;
          n := coalesce(array_length(b.counts, 1), 0);
          if n = 0 then
            return;
          end if;
          if b.counts[n] > 1 then
            b.counts[n] := b.counts[n] - 1;
          else
            b.firsts := b.firsts[1:n - 1];
            b.counts := b.counts[1:n - 1];
            b.lasts := b.lasts[1:n - 1];
          end if;
          update rate_buckets set firsts = b.firsts, counts = b.counts, lasts = b.lasts where bucket = p_bucket;
        end
        $$`.execute(db);
    },
  },
};

export interface RateLimiterOptions {
  /** The clock (ms); the database's clock when absent, so gateways on several hosts agree. */
  now?: () => number;
  /** When the store cannot be reached the call is admitted (and this is told why). */
  logger?: Logger;
}

function assertRule(rule: RateRule): void {
  if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new Error(`A rate limit must be a whole number of calls of at least 1, got ${rule.limit}`);
  if (!Number.isInteger(rule.windowMs) || rule.windowMs < 1) throw new Error(`A rate window must be a whole number of milliseconds of at least 1, got ${rule.windowMs}`);
}

/**
 * A sliding-window limiter kept in Postgres (schema `gateway`, `gatewayMigrations`): one `rate_take`
 * call per take, shared by every gateway on the database. Should the database fail, the call is
 * admitted and the failure logged: a limit is a guard, not a reason to refuse work.
 */
export function createRateLimiter(db: Kysely<unknown>, rule: RateRule, opts: RateLimiterOptions = {}): RateLimiter {
  assertRule(rule);
  return {
    rule,
    async take(bucket: string): Promise<Take> {
      try {
        const { rows } = await sql<{ allowed: boolean; remaining: number; retry_after_ms: string }>`
          select * from rate_take(${bucket}, ${rule.limit}, ${rule.windowMs}, ${opts.now ? opts.now() : null}::bigint)`.execute(db);
        const row = rows[0];
        if (!row) throw new Error('rate_take answered no row');
        return row.allowed ? { allowed: true, remaining: row.remaining } : { allowed: false, retryAfterMs: Number(row.retry_after_ms) };
      } catch (err) {
        opts.logger?.warn({ err, bucket }, 'rate limit store unreachable; the call is admitted');
        return { allowed: true, remaining: 0 };
      }
    },
    async giveBack(bucket: string): Promise<void> {
      try {
        await sql`select rate_give_back(${bucket})`.execute(db);
      } catch (err) {
        opts.logger?.warn({ err, bucket }, 'rate limit store unreachable; the call given back stays counted');
      }
    },
  };
}
