import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  connect,
  headers as natsHeaders,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
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
  const nc = await connect({ servers: url, name: `weft-${instance}`, maxReconnectAttempts: -1 });
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

export interface ConsumerOptions {
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
  handle(envelope: EventEnvelope): Promise<void>;
}

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
  const done = (async () => {
    for await (const m of messages) {
      let envelope: EventEnvelope;
      try {
        envelope = envelopeSchema.parse(JSON.parse(m.string()));
      } catch (err) {
        opts.logger.error({ err, subject: m.subject }, 'dropping a malformed event');
        m.term();
        continue;
      }
      const requestId = envelope.requestId ?? m.headers?.get(REQUEST_ID_HEADER) ?? envelope.id;
      await withRequestContext({ requestId }, async () => {
        try {
          await opts.handle(envelope);
          m.ack();
        } catch (err) {
          opts.logger.warn({ err, eventId: envelope.id, type: envelope.type, redelivered: m.info.redeliveryCount }, 'event handler failed; will retry');
          m.nak(Math.min(10_000, 200 * 2 ** Math.min(m.info.redeliveryCount, 6)));
        }
      });
    }
  })();
  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}
