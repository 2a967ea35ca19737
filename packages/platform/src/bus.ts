import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  connect,
  headers as natsHeaders,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { z } from 'zod';
import type { Logger } from './logger.js';
import { REQUEST_ID_HEADER, currentRequestContext, withRequestContext } from './context.js';

/** Every event on the bus travels in this envelope; `id` is the dedupe key end to end. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  subject: string;
  occurredAt: string;
  requestId?: string;
  data: T;
}

const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  subject: z.string().min(1),
  occurredAt: z.string(),
  requestId: z.string().optional(),
  data: z.unknown(),
});

/** The streams Weft keeps, one per publishing service; subjects are `<instance>.<service>.>`. */
export const STREAM_SOURCES = ['registry', 'editor', 'runner'] as const;
export type StreamSource = (typeof STREAM_SOURCES)[number];

/** Stream name of a source within an instance (`weft` → `WEFT_EDITOR`). */
export function streamName(instance: string, source: StreamSource): string {
  return `${instance}_${source}`.toUpperCase();
}

/** Builds an envelope for `subject`, stamped with the current request id. */
export function createEnvelope<T>(subject: string, type: string, data: T, now: Date = new Date()): EventEnvelope<T> {
  const requestId = currentRequestContext()?.requestId;
  return { id: randomUUID(), type, subject, occurredAt: now.toISOString(), ...(requestId ? { requestId } : {}), data };
}

export interface Bus {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  instance: string;
  close(): Promise<void>;
}

/** Connects to NATS and makes sure the instance's streams exist with the expected subjects. */
export async function connectBus(url: string, instance: string, opts: { duplicateWindowMs?: number } = {}): Promise<Bus> {
  // noAsyncTraces: nats.js otherwise builds two Error objects (for their stack traces) on every
  // request, which includes every JetStream publish; the relay publishes every event.
  const nc = await connect({ servers: url, name: `weft-${instance}`, maxReconnectAttempts: -1, noAsyncTraces: true });
  const jsm = await nc.jetstreamManager();
  await ensureStreams(jsm, instance, opts.duplicateWindowMs);
  return { nc, js: nc.jetstream(), jsm, instance, close: () => nc.drain() };
}

/** Idempotent stream set-up: creates missing streams and brings subjects up to date. */
export async function ensureStreams(jsm: JetStreamManager, instance: string, duplicateWindowMs = 120_000): Promise<void> {
  for (const source of STREAM_SOURCES) {
    const name = streamName(instance, source);
    const subjects = [`${instance}.${source}.>`];
    const duplicate_window = duplicateWindowMs * 1_000_000;
    try {
      const info = await jsm.streams.info(name);
      if (info.config.subjects.join() !== subjects.join() || info.config.duplicate_window !== duplicate_window) {
        await jsm.streams.update(name, { ...info.config, subjects, duplicate_window });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await jsm.streams.add({ name, subjects, duplicate_window });
      } catch (addErr) {
        // A concurrent process created the same stream; the existing one is what we wanted.
        if (!String(addErr).includes('already in use')) throw addErr;
      }
    }
  }
}

function isNotFound(err: unknown): boolean {
  return String((err as { message?: string }).message ?? err).includes('not found');
}

/** Publishes an envelope; JetStream drops a second publish with the same id inside the duplicate window. */
export async function publishEnvelope(js: JetStreamClient, envelope: EventEnvelope): Promise<void> {
  const h = natsHeaders();
  if (envelope.requestId) h.set(REQUEST_ID_HEADER, envelope.requestId);
  await js.publish(envelope.subject, JSON.stringify(envelope), { msgID: envelope.id, headers: h });
}

interface ConsumerBaseOptions {
  source: StreamSource;
  /** Durable name: one per consuming service and purpose. */
  durable: string;
  /** One subject filter (the local NATS predates multi-filter consumers). */
  filterSubject: string;
  /** Redelivery when a message is neither acked nor nacked in time. */
  ackWaitMs?: number;
  maxDeliver?: number;
  /** Where a brand-new durable starts; `all` replays the stream. */
  deliverPolicy?: 'all' | 'new';
  logger: Logger;
}

/** One event at a time, each in its request's context: acked when `handle` resolves, nak'd when it throws. */
export interface EventConsumerOptions extends ConsumerBaseOptions {
  handle(envelope: EventEnvelope): Promise<void>;
}

/**
 * Every event that has arrived and waits (up to `maxBatch`) in one call: all are acked when
 * `handleBatch` resolves, all nak'd when it throws. For consumers whose per-event work is a read
 * that many events can share.
 */
export interface BatchConsumerOptions extends ConsumerBaseOptions {
  handleBatch(envelopes: EventEnvelope[]): Promise<void>;
  maxBatch?: number;
}

export type ConsumerOptions = EventConsumerOptions | BatchConsumerOptions;

export interface RunningConsumer {
  stop(): Promise<void>;
}

/**
 * Runs a durable pull consumer: each message is parsed, handled in its request context and acked;
 * a handler failure naks it for redelivery (consumers drop duplicates by event id, see inbox.ts).
 */
export async function startConsumer(bus: Bus, opts: ConsumerOptions): Promise<RunningConsumer> {
  const stream = streamName(bus.instance, opts.source);
  const config: Partial<ConsumerConfig> = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: opts.deliverPolicy === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
    filter_subject: opts.filterSubject,
    ack_wait: (opts.ackWaitMs ?? 30_000) * 1_000_000,
    max_deliver: opts.maxDeliver ?? -1,
  };
  try {
    await bus.jsm.consumers.info(stream, opts.durable);
    await bus.jsm.consumers.update(stream, opts.durable, { filter_subject: opts.filterSubject, ack_wait: config.ack_wait, max_deliver: config.max_deliver });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await bus.jsm.consumers.add(stream, config);
  }
  const consumer = await bus.js.consumers.get(stream, opts.durable);
  const messages = await consumer.consume({ max_messages: 64 });
  // The reader queues what arrives; the worker handles the queue in order, a batch at a time. The
  // server stops delivering past the consumer's max_ack_pending, which bounds the queue.
  const queue: JsMsg[] = [];
  let wake: (() => void) | undefined;
  let reading = true;
  let stopping = false;
  const reader = (async () => {
    for await (const m of messages) {
      queue.push(m);
      wake?.();
    }
    reading = false;
    wake?.();
  })();
  const retryDelay = (m: JsMsg) => Math.min(10_000, 200 * 2 ** Math.min(m.info.redeliveryCount, 6));
  const parsed = (m: JsMsg): EventEnvelope | undefined => {
    try {
      return envelopeSchema.parse(JSON.parse(m.string()));
    } catch (err) {
      opts.logger.error({ err, subject: m.subject }, 'dropping a malformed event');
      m.term();
      return undefined;
    }
  };
  async function handleOne(m: JsMsg, envelope: EventEnvelope, handle: (e: EventEnvelope) => Promise<void>): Promise<void> {
    const requestId = envelope.requestId ?? m.headers?.get(REQUEST_ID_HEADER) ?? envelope.id;
    await withRequestContext({ requestId }, async () => {
      try {
        await handle(envelope);
        m.ack();
      } catch (err) {
        opts.logger.warn({ err, eventId: envelope.id, type: envelope.type, redelivered: m.info.redeliveryCount }, 'event handler failed; will retry');
        m.nak(retryDelay(m));
      }
    });
  }
  async function handleMany(batch: Array<{ m: JsMsg; envelope: EventEnvelope }>, handleBatch: (e: EventEnvelope[]) => Promise<void>): Promise<void> {
    try {
      await handleBatch(batch.map((b) => b.envelope));
      for (const { m } of batch) m.ack();
    } catch (err) {
      opts.logger.warn({ err, events: batch.length, firstEventId: batch[0]?.envelope.id }, 'event batch handler failed; will retry');
      for (const { m } of batch) m.nak(retryDelay(m));
    }
  }
  const done = (async () => {
    while (!stopping) {
      if (queue.length === 0) {
        if (!reading) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      if ('handleBatch' in opts) {
        // Let the reader queue the rest of what arrived in the same read before taking a batch.
        await new Promise((resolve) => setImmediate(resolve));
        const batch = queue.splice(0, opts.maxBatch ?? 256).flatMap((m) => {
          const envelope = parsed(m);
          return envelope ? [{ m, envelope }] : [];
        });
        if (batch.length > 0) await handleMany(batch, (e) => opts.handleBatch(e));
      } else {
        const m = queue.shift() as JsMsg;
        const envelope = parsed(m);
        if (envelope) await handleOne(m, envelope, (e) => opts.handle(e));
      }
    }
  })();
  return {
    async stop() {
      // What is queued and not yet handled stays unacked, so the server delivers it again later.
      stopping = true;
      await messages.close();
      wake?.();
      await Promise.all([reader, done]);
    },
  };
}
