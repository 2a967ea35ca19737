import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake server received. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** The raw query string (`?a=1&a=2`, or '' without one): repeated parameters as sent. */
  search: string;
  headers: IncomingHttpHeaders;
  /** The raw body text, and its JSON (or form fields) when it parses. */
  text: string;
  /** The body's bytes as they came (`text` is their UTF-8 decoding, lossy for binary bodies). */
  bytes: Buffer;
  body: unknown;
  /** Set when the client closed the connection before an answer was written (it gave up, or was cancelled). */
  abandoned: boolean;
}

/** A scripted answer: JSON by default; `sse` writes each event as `data: …` (strings as they are). */
export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /** A binary body, written byte for byte (`application/octet-stream` unless `headers` say otherwise). */
  bytes?: Uint8Array;
  sse?: Array<unknown>;
  /** Milliseconds to wait before answering (timeouts, slow providers). */
  delayMs?: number;
  /** Drop the connection without answering (network errors). */
  destroy?: boolean;
  /** Never answer: the request stays open until the client gives up (see `abandoned`). */
  hang?: boolean;
  /** Milliseconds between SSE events (a model writing its tokens one by one). */
  sseIntervalMs?: number;
  /** Called right after each SSE event is written, with its index (when a token left the fake). */
  onSseEvent?: (index: number) => void;
  /** Awaited before each SSE event is written, with its index: a test holds the stream mid-way until it has seen what came so far. */
  sseGate?: (index: number) => Promise<void> | void;
}

export type FakeHandler = (req: RecordedRequest) => FakeAnswer | Promise<FakeAnswer>;

/** A route: method and path (`:name` segments match anything) with its handler. */
interface Route {
  method: string;
  pattern: RegExp;
  handler: FakeHandler;
  once: boolean;
}

/**
 * A local HTTP server that speaks whatever protocol its routes script: it records every request and
 * answers from the routes added with `on`/`once` (the newest matching `once` first, then the newest
 * `on`); an unmatched request answers 404 `{error: 'no fake route for METHOD /path'}`.
 * Protocol fakes (models, SaaS APIs) are built on it; tests never reach a real host.
 */
export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  on(method: string, path: string, handler: FakeHandler | FakeAnswer): FakeServer;
  once(method: string, path: string, handler: FakeHandler | FakeAnswer): FakeServer;
  /** Requests to one method and path pattern. */
  received(method: string, path: string): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

function toPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\?:[A-Za-z_]+/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

function parseBody(text: string, type: string | undefined): unknown {
  if (!text) return undefined;
  if (type?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function answer(res: ServerResponse, a: FakeAnswer): Promise<void> {
  if (a.hang) return;
  if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
  if (a.destroy) {
    res.socket?.destroy();
    return;
  }
  if (a.sse) {
    res.writeHead(a.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...a.headers });
    for (const [index, event] of a.sse.entries()) {
      if (index > 0 && a.sseIntervalMs) await new Promise((r) => setTimeout(r, a.sseIntervalMs));
      await a.sseGate?.(index);
      if (res.destroyed) return;
      res.write(typeof event === 'string' ? `${event}\n\n` : `data: ${JSON.stringify(event)}\n\n`);
      a.onSseEvent?.(index);
    }
    res.end();
    return;
  }
  if (a.bytes !== undefined) {
    res.writeHead(a.status ?? 200, { 'content-type': 'application/octet-stream', ...a.headers });
    res.end(a.bytes);
    return;
  }
  if (a.text !== undefined) {
    res.writeHead(a.status ?? 200, { 'content-type': 'text/plain', ...a.headers });
    res.end(a.text);
    return;
  }
  res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
  res.end(a.json === undefined ? '' : JSON.stringify(a.json));
}

/** Starts a fake server on 127.0.0.1 with a free port. */
export async function createFakeServer(): Promise<FakeServer> {
  const routes: Route[] = [];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.local');
      const bytes = Buffer.concat(chunks);
      const text = bytes.toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        search: url.search,
        headers: req.headers,
        text,
        bytes,
        body: parseBody(text, req.headers['content-type']),
        abandoned: false,
      };
      res.on('close', () => {
        if (!res.writableFinished) recorded.abandoned = true;
      });
      requests.push(recorded);
      const match = (r: Route) => (r.method === '*' || r.method === recorded.method) && r.pattern.test(recorded.path);
      const route = [...routes].reverse().find((r) => r.once && match(r)) ?? [...routes].reverse().find((r) => !r.once && match(r));
      if (route?.once) routes.splice(routes.indexOf(route), 1);
      const handled = route ? Promise.resolve(route.handler(recorded)) : Promise.resolve<FakeAnswer>({ status: 404, json: { error: `no fake route for ${recorded.method} ${recorded.path}` } });
      handled.then(
        (a) => answer(res, a),
        (err: unknown) => answer(res, { status: 500, json: { error: err instanceof Error ? err.message : String(err) } }),
      ).catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const add = (once: boolean) => (method: string, path: string, handler: FakeHandler | FakeAnswer) => {
    routes.push({ method: method.toUpperCase(), pattern: toPattern(path), handler: typeof handler === 'function' ? handler : () => handler, once });
    return fake;
  };
  const fake: FakeServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    on: add(false),
    once: add(true),
    received: (method, path) => requests.filter((r) => r.method === method.toUpperCase() && toPattern(path).test(r.path)),
    reset() {
      routes.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
