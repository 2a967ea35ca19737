import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { addressAllowed, type AddressPolicy } from './addressPolicy.js';

/** A refused outbound address (or a URL scheme no request is made for): an answer to the caller (not retried). */
export class OutboundRefusedError extends Error {
  constructor(host: string, message = `Outbound request refused: ${host} is a loopback, private, link-local or reserved address`) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request did not get an answer in time. */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Request timeout after ${timeoutMs}ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** The caller gave up (its activity was cancelled): the connection was closed without waiting for the answer. */
export class RequestCancelledError extends Error {
  constructor() {
    super('Request cancelled');
    this.name = 'RequestCancelledError';
  }
}

/** The connection failed before an answer (refused, reset, DNS failure): transient. */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** The answer's body is larger than the caller reads (`maxBodyBytes`); the connection was closed. */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Response body exceeds ${maxBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams;
  timeoutMs?: number;
  /** Follow up to this many redirects, checking every hop (default 5; 0 answers the redirect). */
  maxRedirects?: number;
  /** Largest body read into memory (default 25 MB). */
  maxBodyBytes?: number;
  /** Aborting closes the connection at once and rejects with RequestCancelledError. */
  signal?: AbortSignal | undefined;
  /**
   * Answer as soon as the headers arrive, the body streamed as it comes (a model's server-sent
   * events); no body size limit, the deadline and the signal still end the exchange.
   */
  stream?: boolean;
}

interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer | Readable;
}

function headersOf(res: http.IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else if (v !== undefined) h.set(k, v);
  }
  return h;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY = 25 * 1024 * 1024;

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns lookup that refuses a host when any of its addresses is not allowed; the socket connects to the checked addresses only. */
function guardedLookup(policy: AddressPolicy, host: string) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses;
      if (list.length === 0 || list.some((a) => !addressAllowed(policy, host, a.address))) {
        return callback(Object.assign(new OutboundRefusedError(host), { code: 'EREFUSED_PRIVATE' }), '');
      }
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}

function once(url: URL, init: GuardedRequestInit, policy: AddressPolicy, deadline: number, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !addressAllowed(policy, host, host)) return reject(new OutboundRefusedError(host));
    const mod = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (!mod) return reject(new OutboundRefusedError(host, `Unsupported URL protocol: ${url.protocol}`));
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new RequestTimeoutError(timeoutMs));
    const body = init.body instanceof URLSearchParams ? init.body.toString() : init.body;
    // A caller's Host header is not sent: Node takes it (and TLS its SNI name) from the headers, so each hop's comes from its own URL.
    const headers: Record<string, string> = Object.fromEntries(Object.entries(init.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'host'));
    if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const signal = init.signal;
    if (signal?.aborted) return reject(new RequestCancelledError());
    const req = mod.request(url, { method: init.method ?? 'GET', headers, lookup: guardedLookup(policy, host) as unknown as typeof dns.lookup });
    const onAbort = () => req.destroy(new RequestCancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    const timer = setTimeout(() => {
      req.destroy(new RequestTimeoutError(timeoutMs));
    }, remaining);
    const max = init.maxBodyBytes ?? DEFAULT_MAX_BODY;
    req.on('response', (res) => {
      if (init.stream) {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        res.on('end', done);
        res.on('close', done);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: headersOf(res), body: res });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) {
          req.destroy(new ResponseTooLargeError(max));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: headersOf(res), body: Buffer.concat(chunks) });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    req.on('error', (e: Error) => {
      clearTimeout(timer);
      if (e instanceof OutboundRefusedError || e instanceof RequestTimeoutError || e instanceof RequestCancelledError) return reject(e);
      if ('code' in e && e.code === 'EREFUSED_PRIVATE') return reject(new OutboundRefusedError(host));
      if (e instanceof ResponseTooLargeError) return reject(e);
      reject(new NetworkError(`Request to ${url.host} failed: ${'code' in e && typeof e.code === 'string' ? e.code : e.message}`));
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * fetch for tools: every hop's host is resolved and checked against the address policy before
 * connecting (so DNS cannot point a public name at a private address), redirects are followed by
 * hand and checked again, a deadline covers the whole exchange, and the body is read whole (or
 * streamed, `stream`).
 */
export async function guardedFetch(input: string | URL, init: GuardedRequestInit, policy: AddressPolicy): Promise<Response> {
  const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let url = new URL(input);
  let current = { ...init };
  const maxRedirects = init.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    const res = await once(url, current, policy, deadline, timeoutMs);
    const location = res.headers.get('location');
    if (REDIRECTS.has(res.status) && location && hop < maxRedirects) {
      if (res.body instanceof Readable) res.body.destroy();
      const next = new URL(location, url);
      current = redirectedInit(current, res.status, url, next);
      url = next;
      continue;
    }
    const nullBody = res.status === 204 || res.status === 304 || (current.method ?? 'GET').toUpperCase() === 'HEAD';
    const body = res.body instanceof Readable ? (Readable.toWeb(res.body) as ReadableStream<Uint8Array>) : new Uint8Array(res.body);
    if (nullBody && res.body instanceof Readable) res.body.destroy();
    const response = new Response(nullBody ? null : body, { status: res.status < 200 || res.status > 599 ? 200 : res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(response, 'url', { value: url.toString() });
    return response;
  }
}

/** The Fetch standard's request-body-header names: dropped with the body when a redirect turns the request into a GET. */
const REQUEST_BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length'];
/** Credentials not sent on to another origin (Fetch drops Authorization; cookies and proxy credentials go too). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function without(headers: Record<string, string> | undefined, names: string[]): Record<string, string> | undefined {
  return headers && Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

/**
 * The request a redirect (`status`, from `from` to `to`) asks for next, as the Fetch standard's
 * HTTP-redirect fetch: a 301 or 302 turns a POST into a GET, a 303 every method but GET and HEAD
 * (HEAD stays HEAD); turned into a GET the request loses its body and the body's headers
 * (`content-type`, `content-length`, …). 307 and 308 keep method and body. A hop to another origin
 * (scheme, host or port: `https://a` to `http://a` too) goes without Authorization, Cookie and
 * Proxy-Authorization.
 */
export function redirectedInit(init: GuardedRequestInit, status: number, from: URL, to: URL): GuardedRequestInit {
  let next = init;
  const method = (init.method ?? 'GET').toUpperCase();
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    const { body: _dropped, ...rest } = next;
    next = { ...rest, method: 'GET', headers: without(rest.headers, REQUEST_BODY_HEADERS) };
  }
  if (to.origin !== from.origin) next = { ...next, headers: without(next.headers, CREDENTIAL_HEADERS) };
  return next;
}
