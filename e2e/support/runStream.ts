import { expect, inject } from 'vitest';
import { api, defaultCookie } from './http.js';

/** One Server-Sent Event of a run's stream. */
export interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/** The first workspace of the file's default account (or of the account whose `headers` are given). */
export async function workspaceId(headers: Record<string, string> = {}): Promise<string> {
  const res = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, headers);
  expect(res.status).toBe(200);
  const first = res.body.workspaces[0];
  if (!first) throw new Error('no workspace');
  return first.id;
}

/**
 * A new workflow with `commands` applied after the starter (whose id is passed to `build`), made by
 * the file's default account or the one whose `headers` are given.
 */
export async function workflowWith(build: (starter: string) => unknown[] = () => [], headers: Record<string, string> = {}): Promise<{ id: string; starter: string }> {
  const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: await workspaceId(headers) }, headers);
  expect(created.status).toBe(201);
  const got = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${created.body.id}`, undefined, headers);
  expect(got.status).toBe(200);
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter');
  if (!starter) throw new Error('no starter block');
  const commands = build(starter.id);
  if (commands.length > 0) {
    const edit = await api('POST', `/api/workflows/${created.body.id}/commands`, { commands }, headers);
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  }
  return { id: created.body.id, starter: starter.id };
}

/** starter → one block `id` of `blockType` named `name`, with the given sub-block values. */
export function oneBlock(id: string, blockType: string, name: string, values: Record<string, unknown>) {
  return (starter: string) => [
    { type: 'addBlock', id, blockType, name, position: { x: 400, y: 100 } },
    ...Object.entries(values).map(([subBlockId, value]) => ({ type: 'setSubBlockValue', id, subBlockId, value })),
    { type: 'addEdge', source: starter, target: id },
  ];
}

/** One SSE message (the text between two blank lines) as an event; comments and keep-alives are none. */
function parseEvent(chunk: string): SseEvent | undefined {
  const lines = chunk.split('\n');
  const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
  const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
  const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
  return event && data ? { event, data: JSON.parse(data) as Record<string, unknown>, ...(id ? { id } : {}) } : undefined;
}

/** Reads a whole Server-Sent Events answer to its end; answers its events in order. */
export async function readSse(res: Response): Promise<SseEvent[]> {
  return (await res.text()).split('\n\n').flatMap((chunk) => parseEvent(chunk) ?? []);
}

/** A run's event stream read as it arrives: `until` waits for an event, `rest` reads to the stream's end. */
export interface LiveStream {
  status: number;
  /** The answer's content type. */
  type: string | null;
  /** Every event read so far, in order. */
  events: SseEvent[];
  /** Reads until an event matching `match` has arrived (failing if the stream ends first); answers it. */
  until(match: (e: SseEvent) => boolean): Promise<SseEvent>;
  /** Reads to the end of the stream; answers every event read. */
  rest(): Promise<SseEvent[]>;
  close(): Promise<void>;
}

/** Opens `path` (GET unless told) as an event stream with the file's default account and reads it as it comes. */
export async function openStream(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<LiveStream> {
  const res = await fetch(`${inject('weftUrl')}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: await defaultCookie(), accept: 'text/event-stream', 'content-type': 'application/json', ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const events: SseEvent[] = [];
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = res.status !== 200 || !reader;
  /** Reads one piece of the body; false once it has ended. */
  const readMore = async (): Promise<boolean> => {
    if (ended || !reader) return false;
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      buffer += decoder.decode();
    } else {
      buffer += decoder.decode(value, { stream: true });
    }
    let at: number;
    while ((at = buffer.indexOf('\n\n')) !== -1) {
      const event = parseEvent(buffer.slice(0, at));
      buffer = buffer.slice(at + 2);
      if (event) events.push(event);
    }
    return !ended;
  };
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    events,
    async until(match) {
      let seen = 0;
      for (;;) {
        const found = events.slice(seen).find(match);
        if (found) return found;
        seen = events.length;
        if (ended) throw new Error(`the stream ended without the event looked for; it sent: ${events.map((e) => e.event).join(', ')}`);
        await readMore();
      }
    },
    async rest() {
      while (await readMore());
      return events;
    },
    async close() {
      if (!ended) await reader?.cancel();
      ended = true;
    },
  };
}
