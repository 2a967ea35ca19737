import { DeliverPolicy } from 'nats';
import { AppError, streamName, type Bus, type Logger } from '@weft/platform';
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
 * Follows the editor's own JetStream subject with an ordered (ephemeral) consumer and wakes readers
 * waiting on a workflow. Every editor instance runs one, so a reader is woken whichever instance
 * wrote the event; Postgres stays the source of truth whenever the live run has a gap.
 */
export async function startEventTail(deps: { bus: Bus; store: EventStore; logger: Logger }): Promise<EventTail> {
  const listeners = new Map<string, Set<Listener>>();
  const consumer = await deps.bus.js.consumers.get(streamName(deps.bus.instance, 'editor'), {
    filterSubjects: `${deps.bus.instance}.editor.workflow.>`,
    deliver_policy: DeliverPolicy.New,
  });
  const messages = await consumer.consume();
  const prefix = editorSubject(deps.bus.instance, '');
  const done = (async () => {
    for await (const m of messages) {
      // Most events have nobody waiting on their workflow: skip those before parsing.
      if (m.subject.startsWith(prefix) && !listeners.has(m.subject.slice(prefix.length))) continue;
      let parsed: ReturnType<typeof storedOf>;
      try {
        parsed = storedOf(m.string());
      } catch (err) {
        deps.logger.warn({ err, subject: m.subject }, 'skipping an unreadable editor event');
        continue;
      }
      if (!parsed) continue;
      for (const listener of listeners.get(parsed.workflowId) ?? []) listener(parsed.event);
    }
  })();

  function listen(workflowId: string, listener: Listener): () => void {
    let set = listeners.get(workflowId);
    if (!set) listeners.set(workflowId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) listeners.delete(workflowId);
    };
  }

  async function read(workflowId: string, after: number, waitMs: number, limit: number): Promise<{ head: number; events: StoredEvent[] }> {
    const deadline = Date.now() + waitMs;
    const live: StoredEvent[] = [];
    let wake: (() => void) | undefined;
    // Listen before reading the store so nothing committed in between is missed.
    const unlisten = listen(workflowId, (event) => {
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
      await messages.close();
      await done;
    },
  };
}
