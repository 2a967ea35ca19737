import type { Msg, Subscription } from 'nats';
import { AppError, type Bus, type Logger } from '@weft/platform';
import { editorSubject, type EventStore, type StoredEvent } from '../store/eventStore.js';

type Listener = (event: StoredEvent) => void;

/** Reads of a workflow's events that can wait for the next ones (what SSE in the gateway polls). */
export interface EventTail {
  read(workflowId: string, after: number, waitMs: number, limit: number): Promise<{ head: number; events: StoredEvent[] }>;
  stop(): Promise<void>;
}

/** Parses the data of an editor envelope ({workflowId, version, type, data, occurredAt}). */
function storedOf(envelopeText: string): { workflowId: string; event: StoredEvent } | undefined {
  const envelope = JSON.parse(envelopeText) as { data?: { workflowId?: unknown; version?: unknown } & Partial<StoredEvent> };
  const d = envelope.data;
  if (!d || typeof d.workflowId !== 'string' || typeof d.version !== 'number' || !d.type || !d.data || typeof d.occurredAt !== 'string') return undefined;
  return { workflowId: d.workflowId, event: { version: d.version, type: d.type, data: d.data, occurredAt: d.occurredAt } };
}

/** The leading run of `events` that continues `after` without a gap. */
function continuing(events: StoredEvent[], after: number): StoredEvent[] {
  const byVersion = new Map(events.map((e) => [e.version, e]));
  const run: StoredEvent[] = [];
  for (let v = after + 1; byVersion.has(v); v++) run.push(byVersion.get(v) as StoredEvent);
  return run;
}

/**
 * Wakes readers waiting on a workflow when its events are published. While a workflow has readers
 * this editor holds a core NATS subscription to that workflow's subject (JetStream publishes reach
 * core subscribers too), so events nobody waits for are never delivered here. Every editor instance
 * does the same, so a reader is woken whichever instance wrote the event; Postgres stays the source
 * of truth whenever the live run has a gap.
 */
export async function startEventTail(deps: { bus: Bus; store: EventStore; logger: Logger }): Promise<EventTail> {
  const watched = new Map<string, { listeners: Set<Listener>; subscription: Subscription }>();

  function deliver(m: Msg): void {
    let parsed: ReturnType<typeof storedOf>;
    try {
      parsed = storedOf(m.string());
    } catch (err) {
      deps.logger.warn({ err, subject: m.subject }, 'skipping an unreadable editor event');
      return;
    }
    if (!parsed) return;
    for (const listener of watched.get(parsed.workflowId)?.listeners ?? []) listener(parsed.event);
  }

  /** Starts listening; resolves once the server has the subscription, so later publishes reach it. */
  async function listen(workflowId: string, listener: Listener): Promise<() => void> {
    let entry = watched.get(workflowId);
    if (!entry) {
      const subscription = deps.bus.nc.subscribe(editorSubject(deps.bus.instance, workflowId), { callback: (err, m) => (err ? deps.logger.warn({ err }, 'editor event subscription failed') : deliver(m)) });
      watched.set(workflowId, (entry = { listeners: new Set(), subscription }));
    }
    entry.listeners.add(listener);
    const mine = entry;
    const unlisten = () => {
      mine.listeners.delete(listener);
      if (mine.listeners.size === 0 && watched.get(workflowId) === mine) {
        watched.delete(workflowId);
        mine.subscription.unsubscribe();
      }
    };
    try {
      await deps.bus.nc.flush();
    } catch (err) {
      unlisten();
      throw err;
    }
    return unlisten;
  }

  async function read(workflowId: string, after: number, waitMs: number, limit: number): Promise<{ head: number; events: StoredEvent[] }> {
    const deadline = Date.now() + waitMs;
    const live: StoredEvent[] = [];
    let wake: (() => void) | undefined;
    // Listen before reading the store so nothing committed in between is missed.
    const unlisten = await listen(workflowId, (event) => {
      live.push(event);
      wake?.();
    });
    try {
      for (;;) {
        const page = await deps.store.eventsAfter(workflowId, after, limit);
        if (!page) throw new AppError('not_found', `Workflow ${workflowId} not found`);
        if (page.events.length > 0 || Date.now() >= deadline) return page;
        for (;;) {
          const run = continuing(live, after).slice(0, limit);
          if (run.length > 0) return { head: Math.max(page.head, run.at(-1)?.version ?? 0), events: run };
          if (live.some((e) => e.version > after)) break; // a gap: read the store again
          const remaining = deadline - Date.now();
          if (remaining <= 0) return page;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, remaining);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
        live.length = 0;
      }
    } finally {
      unlisten();
    }
  }

  return {
    read,
    async stop() {
      for (const { subscription } of watched.values()) subscription.unsubscribe();
      watched.clear();
    },
  };
}
