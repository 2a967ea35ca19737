import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backingEnv, createTestDatabase, createTestInstance } from '@weft/testkit';
import { connectBus, createEnvelope, type Bus } from './bus.js';
import { appendOutbox, createOutboxRelay } from './outbox.js';
import { handleOnce } from './inbox.js';
import { startConsumer } from './bus.js';
import { createLogger } from './logger.js';

const logger = createLogger('test', 'silent');

describe('transactional outbox (real Postgres and NATS)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase<unknown>>>;
  let bus: Bus;
  let instanceCleanup: () => Promise<void>;
  let instance: string;

  beforeAll(async () => {
    const env = await backingEnv();
    db = await createTestDatabase('outbox');
    ({ instance, cleanup: instanceCleanup } = await createTestInstance());
    // A short duplicate window, so only the consumers' inbox can drop the re-published copies.
    bus = await connectBus(env.natsUrl, instance, { duplicateWindowMs: 100 });
  });

  afterAll(async () => {
    await bus?.close();
    await instanceCleanup?.();
    await db?.drop();
  });

  it('writes nothing when the state change rolls back', async () => {
    await db.db
      .transaction()
      .execute(async (trx) => {
        await appendOutbox(trx, [createEnvelope(`${instance}.registry.rollback.1`, 'x', {})]);
        throw new Error('state change failed');
      })
      .catch(() => undefined);
    const rows = await sql<{ n: number }>`select count(*)::int as n from outbox`.execute(db.db);
    expect(rows.rows[0]?.n).toBe(0);
  });

  it('a relay killed mid-batch and restarted delivers every event exactly once to a consumer', async () => {
    const subject = `${instance}.registry.crash`;
    const envelopes = Array.from({ length: 30 }, (_, i) => createEnvelope(`${subject}.${i}`, 'numbered', { i }));
    await db.db.transaction().execute((trx) => appendOutbox(trx, envelopes));

    // The first relay "crashes" after publishing 12 messages, before it can mark the batch.
    let published = 0;
    const crashing = createOutboxRelay({
      db: db.db,
      js: bus.js,
      logger,
      batchSize: 30,
      afterPublish: () => {
        published += 1;
        if (published === 12) throw new Error('killed');
      },
    });
    await expect(crashing.relayOnce()).rejects.toThrow('killed');
    const unmarked = await sql<{ n: number }>`select count(*)::int as n from outbox where published_at is null`.execute(db.db);
    expect(unmarked.rows[0]?.n).toBe(30);
    await new Promise((r) => setTimeout(r, 200)); // past the duplicate window

    const restarted = createOutboxRelay({ db: db.db, js: bus.js, logger, batchSize: 7 });
    let total = 0;
    for (let n = await restarted.relayOnce(); n > 0; n = await restarted.relayOnce()) total += n;
    expect(total).toBe(30);

    const seen: number[] = [];
    let deliveries = 0;
    const consumer = await startConsumer(bus, {
      source: 'registry',
      durable: 'outbox-test',
      filterSubject: `${subject}.>`,
      logger,
      async handle(e) {
        deliveries += 1;
        await handleOnce(db.db, 'outbox-test', e.id, async () => {
          seen.push((e.data as { i: number }).i);
        });
      },
    });
    const deadline = Date.now() + 10_000;
    while (seen.length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    // Some events reached the stream twice; each was handled once.
    expect(deliveries).toBeGreaterThan(30);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('a batch consumer gets every waiting event in order, in batches, and a failed batch again', async () => {
    const subject = `${instance}.editor.batch`;
    const relay = createOutboxRelay({ db: db.db, js: bus.js, logger });
    await db.db.transaction().execute((trx) => appendOutbox(trx, Array.from({ length: 40 }, (_, i) => createEnvelope(`${subject}.${i}`, 'numbered', { i }))));
    await relay.relayOnce();
    const batches: number[][] = [];
    let failed = false;
    const consumer = await startConsumer(bus, {
      source: 'editor',
      durable: 'batch-test',
      filterSubject: `${subject}.>`,
      maxBatch: 16,
      logger,
      async handleBatch(envelopes) {
        const numbers = envelopes.map((e) => (e.data as { i: number }).i);
        if (!failed && numbers.includes(20)) {
          failed = true;
          throw new Error('not this batch');
        }
        batches.push(numbers);
      },
    });
    const deadline = Date.now() + 10_000;
    while (batches.flat().length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await consumer.stop();
    expect(failed).toBe(true);
    expect([...new Set(batches.flat())].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(batches.every((b) => b.length <= 16)).toBe(true);
    expect(batches.some((b) => b.length > 1)).toBe(true);
    // Before the failure everything arrived in publication order.
    expect(batches[0]).toEqual(Array.from({ length: batches[0]?.length ?? 0 }, (_, i) => i));
  });

  it('publishes a lone event at once and batches a stream of them no more often than the interval', async () => {
    const subject = `${instance}.editor.stream`;
    const relay = createOutboxRelay({ db: db.db, js: bus.js, logger, pollMs: 60_000, minIntervalMs: 1_000 });
    const add = async (i: number) => {
      await db.db.transaction().execute((trx) => appendOutbox(trx, [createEnvelope(`${subject}.${i}`, 'numbered', { i })]));
      relay.kick();
    };
    const publishedAt = async () => {
      const rows = await sql<{ subject: string; at: Date | null }>`select subject, published_at as at from outbox where subject like ${`${subject}.%`} order by seq`.execute(db.db);
      return rows.rows.map((r) => r.at?.getTime() ?? null);
    };
    relay.start();
    try {
      await add(0);
      // No poll for a minute: only the kick can have published it.
      const deadline = Date.now() + 5_000;
      while ((await publishedAt())[0] === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await add(1);
      await add(2);
      while ((await publishedAt()).includes(null) && Date.now() < deadline + 5_000) await new Promise((r) => setTimeout(r, 20));
      const [first, second, third] = await publishedAt();
      expect(first).not.toBeNull();
      // The two that came during the interval went out together (one transaction, one timestamp), later.
      expect(second).not.toBeNull();
      expect(third).toBe(second);
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(900);
    } finally {
      await relay.stop();
    }
  });

  it('a consumer that does not ack gets the message again', async () => {
    const subject = `${instance}.editor.redeliver.1`;
    const relay = createOutboxRelay({ db: db.db, js: bus.js, logger });
    await db.db.transaction().execute((trx) => appendOutbox(trx, [createEnvelope(subject, 'once', { v: 1 })]));
    await relay.relayOnce();
    const attempts: string[] = [];
    const consumer = await startConsumer(bus, {
      source: 'editor',
      durable: 'redeliver-test',
      filterSubject: subject,
      ackWaitMs: 500,
      logger,
      async handle(e) {
        attempts.push(e.id);
        if (attempts.length === 1) throw new Error('not this time'); // nak → redelivered
      },
    });
    const deadline = Date.now() + 10_000;
    while (attempts.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await consumer.stop();
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toBe(attempts[1]);
  });

  it('a consumer that never acks in time gets the message again after the ack wait', async () => {
    const subject = `${instance}.editor.redeliver.2`;
    const relay = createOutboxRelay({ db: db.db, js: bus.js, logger });
    await db.db.transaction().execute((trx) => appendOutbox(trx, [createEnvelope(subject, 'slow', { v: 2 })]));
    await relay.relayOnce();
    const attempts: number[] = [];
    const consumer = await startConsumer(bus, {
      source: 'editor',
      durable: 'silent-test',
      filterSubject: subject,
      ackWaitMs: 300,
      logger,
      async handle() {
        attempts.push(Date.now());
        // The first delivery hangs past the ack wait without acking, as a stuck worker would.
        if (attempts.length === 1) await new Promise((r) => setTimeout(r, 1_000));
      },
    });
    const deadline = Date.now() + 10_000;
    while (attempts.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await consumer.stop();
    expect(attempts.length).toBeGreaterThanOrEqual(2);
  });
});
