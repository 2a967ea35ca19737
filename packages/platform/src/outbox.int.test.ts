import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backingEnv, createTestDatabase, createTestInstance } from '@weft/testkit';
import { connectBus, createEnvelope, streamName, type Bus } from './bus.js';
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
    // Past the duplicate window: JetStream forgets ids by a timer, which a loaded machine runs late, so
    // rather than sleeping a fixed time, wait until an id published after the batch is accepted again.
    const probe = { subject: `${instance}.registry.probe`, msgID: `probe-${instance}` };
    await bus.js.publish(probe.subject, '', { msgID: probe.msgID });
    await expect.poll(async () => (await bus.js.publish(probe.subject, '', { msgID: probe.msgID })).duplicate, { interval: 50 }).toBe(false);

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
    // Every copy the stream holds is delivered (the crashed relay's publishes were pipelined: how many of
    // them reached the stream before it died varies, so the copies may all come after the 30 events).
    const stored = async () => {
      const info = await bus.jsm.streams.info(streamName(instance, 'registry'), { subjects_filter: `${subject}.>` });
      return Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
    };
    await expect.poll(async () => seen.length >= 30 && deliveries === (await stored())).toBe(true);
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
    await expect.poll(() => new Set(batches.flat()).size).toBe(40);
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
    // An interval of 3 s: the two events below must both be committed within it on a loaded machine.
    const relay = createOutboxRelay({ db: db.db, js: bus.js, logger, pollMs: 60_000, minIntervalMs: 3_000 });
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
      await expect.poll(async () => (await publishedAt())[0], { interval: 20 }).not.toBeNull();
      await add(1);
      await add(2);
      await expect.poll(async () => (await publishedAt()).includes(null), { interval: 20 }).toBe(false);
      const [first, second, third] = await publishedAt();
      expect(first).not.toBeNull();
      // The two that came during the interval went out together (one transaction, one timestamp), later.
      expect(second).not.toBeNull();
      expect(third).toBe(second);
      // The interval runs from before the first batch's transaction began (its published_at), which a
      // loaded machine can delay: a margin, not the full 3 s.
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(2_000);
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
    await expect.poll(() => attempts.length).toBeGreaterThanOrEqual(2);
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
    await expect.poll(() => attempts.length).toBeGreaterThanOrEqual(2);
    await consumer.stop();
  });
});
