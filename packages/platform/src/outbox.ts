import { sql, type Kysely, type Migration, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { Logger } from './logger.js';
import { publishEnvelope, type EventEnvelope } from './bus.js';
import type { JetStreamClient } from 'nats';

/** The outbox and inbox tables every service schema carries (spread into the service's migrations). */
export const platformMigrations: Record<string, Migration> = {
  '0000_platform_outbox': {
    async up(db) {
      await sql`create table outbox (
        id uuid primary key,
        seq bigserial not null,
        subject text not null,
        envelope jsonb not null,
        created_at timestamptz not null default now(),
        published_at timestamptz
      )`.execute(db);
      await sql`create index outbox_unpublished on outbox (seq) where published_at is null`.execute(db);
    },
  },
  '0000_platform_inbox': {
    async up(db) {
      await sql`create table inbox (
        consumer text not null,
        event_id text not null,
        processed_at timestamptz not null default now(),
        primary key (consumer, event_id)
      )`.execute(db);
    },
  },
};

/**
 * The insert of `envelopes` into the outbox as one statement. `guard` is a FROM item that must yield
 * one row for the insert to happen (a CTE name, for writes guarded by a stream version).
 */
export function outboxInsert(envelopes: EventEnvelope[], guard?: RawBuilder<unknown>): RawBuilder<unknown> {
  const rows = JSON.stringify(envelopes.map((e) => ({ id: e.id, subject: e.subject, envelope: e })));
  const source = sql`jsonb_to_recordset(${rows}::jsonb) as x(id uuid, subject text, envelope jsonb)`;
  return sql`insert into outbox (id, subject, envelope) select x.id, x.subject, x.envelope from ${guard ? sql`${guard}, ${source}` : source}`;
}

/** Writes envelopes to the outbox; call it with the transaction that makes the state change. */
export async function appendOutbox(trx: QueryExecutorProvider, envelopes: EventEnvelope[]): Promise<void> {
  if (envelopes.length === 0) return;
  await outboxInsert(envelopes).execute(trx);
}

/** See OutboxRelayOptions.minIntervalMs: at most this much later than at once, for events in a stream. */
export const RELAY_MIN_INTERVAL_MS = 20;

export interface OutboxRelayOptions<DB> {
  db: Kysely<DB>;
  js: JetStreamClient;
  logger: Logger;
  batchSize?: number;
  /** How often to look for rows when nobody kicked the relay. */
  pollMs?: number;
  /**
   * Least time between two batches while events keep coming (RELAY_MIN_INTERVAL_MS by default). A
   * lone event after a quiet spell goes out at once; a stream of edits is published in batches,
   * so each edit does not set off its own relay transaction, publish and consumer round trips.
   */
  minIntervalMs?: number;
  /** Test hook: called after each publish, before the batch is marked; a throw aborts the batch. */
  afterPublish?: (envelope: EventEnvelope) => void;
}

export interface OutboxRelay {
  /** Publishes whatever is pending now; answers how many rows it published. */
  relayOnce(): Promise<number>;
  /** Wakes the loop at once (call after committing an outbox row). */
  kick(): void;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Publishes outbox rows in order and marks them (the mark commits after the publishes). A crash
 * between publish and commit re-publishes the batch with the same ids: JetStream's duplicate window
 * and the consumers' inbox drop the copies.
 */
export function createOutboxRelay<DB>(opts: OutboxRelayOptions<DB>): OutboxRelay {
  const batchSize = opts.batchSize ?? 200;
  const pollMs = opts.pollMs ?? 250;
  const minIntervalMs = opts.minIntervalMs ?? RELAY_MIN_INTERVAL_MS;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let kicked = false;

  async function relayOnce(): Promise<number> {
    return opts.db.transaction().execute(async (trx) => {
      // Claim and mark the batch in one statement. The rows stay locked until the commit, so a
      // failed publish rolls the mark back and another relay skips them meanwhile.
      const claimed = await sql<{ id: string; seq: string; envelope: EventEnvelope }>`
        update outbox set published_at = now()
        where id in (select id from outbox where published_at is null order by seq limit ${batchSize} for update skip locked)
        returning id, seq, envelope`.execute(trx);
      if (claimed.rows.length === 0) return 0;
      const rows = claimed.rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      // Publishes on one connection reach the server in order, so the batch can be pipelined.
      await Promise.all(
        rows.map(async (r) => {
          await publishEnvelope(opts.js, r.envelope);
          opts.afterPublish?.(r.envelope);
        }),
      );
      return rows.length;
    });
  }

  /** Waits `ms`, or less when kicked (`wakeOnKick`) or stopped. */
  async function pause(ms: number, wakeOnKick: boolean): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        if (wakeOnKick || !running) {
          clearTimeout(timer);
          resolve();
        }
      };
    });
    wake = undefined;
  }

  async function run(): Promise<void> {
    while (running) {
      const started = Date.now();
      let published = 0;
      try {
        published = await relayOnce();
      } catch (err) {
        opts.logger.error({ err }, 'outbox relay failed; retrying');
      }
      if (!running) break;
      if (published > 0) {
        // Events are coming: look again once the interval has passed, whatever arrives meanwhile.
        await pause(Math.max(0, started + minIntervalMs - Date.now()), false);
        continue;
      }
      if (kicked) {
        kicked = false;
        continue;
      }
      await pause(pollMs, true);
    }
  }

  return {
    relayOnce,
    kick() {
      kicked = true;
      wake?.();
    },
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}

/** Deletes published rows older than `olderThanMs` so the outbox stays small. */
export async function pruneOutbox<DB>(db: Kysely<DB>, olderThanMs: number): Promise<void> {
  await sql`delete from outbox where published_at < now() - make_interval(secs => ${olderThanMs / 1000})`.execute(db);
}
