import { z } from 'zod';
import { ResponseTooLargeError, guardedFetch } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';

/** The largest response body a sandboxed `fetch` reads (larger ones reject with the guard's `Response body exceeds … bytes`). */
export const MAX_FETCH_RESPONSE_BYTES = 5 * 1024 * 1024;
/** The largest request body a sandboxed `fetch` sends (larger ones reject with `Request body exceeds … bytes` before anything is copied). */
export const MAX_FETCH_REQUEST_BYTES = 5 * 1024 * 1024;
/** How many `fetch` calls one function call may make. */
export const MAX_FETCHES_PER_CALL = 50;
/** Requests of one call in flight at once: its further requests wait for one of these to end. */
export const MAX_FETCHES_IN_FLIGHT = 6;
/** What the host request gets beyond the call's remaining time, so the call's own time limit answers first. */
export const FETCH_TIMEOUT_MARGIN_MS = 1_000;

/** The message a call's `fetch` rejects with once the bodies it fetched total more than `limitBytes` (its memory limit). */
export function fetchTotalMessage(limitBytes: number): string {
  return `Responses fetched by this call exceed ${limitBytes} bytes in total (the call's memory limit)`;
}

/** What the sandbox's `fetch` sends out (built by the prelude, but checked here: it crossed from untrusted code). */
const requestSchema = z.object({
  url: z.string(),
  method: z.string().min(1),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string().optional(),
});

/**
 * The answer handed back to the worker: the response (its status, headers, … as JSON text, its body
 * the bytes as they came — never decoded here, so a binary body crosses intact), or the message the
 * code's promise rejects with.
 */
export type SandboxFetchDone = { meta: string; body: Uint8Array } | { error: string };

export interface SandboxFetchOptions {
  policy: AddressPolicy;
  signal: AbortSignal;
  timeoutMs: number;
  maxBodyBytes?: number;
  /** The call's total for fetched bodies: a body cut by a `maxBodyBytes` lowered to what is left of it answers fetchTotalMessage. */
  totalLimitBytes?: number;
}

/**
 * Makes one request of sandboxed code through the outbound guard (private addresses refused as for
 * the HTTP tool, redirects checked hop by hop, the body read up to a bound); never rejects. The
 * request's body is the JSON's `body` (text, sent as UTF-8) or `bytes` (an ArrayBuffer or typed
 * array the code sent, copied out of the sandbox byte for byte).
 */
export async function sandboxFetch(requestJson: string, opts: SandboxFetchOptions, bytes?: Uint8Array): Promise<SandboxFetchDone> {
  const maxBodyBytes = opts.maxBodyBytes ?? MAX_FETCH_RESPONSE_BYTES;
  try {
    const parsed = requestSchema.safeParse(JSON.parse(requestJson));
    if (!parsed.success) return { error: 'Invalid fetch request' };
    const { url, method, headers: pairs } = parsed.data;
    if (bytes !== undefined && !(bytes instanceof Uint8Array)) return { error: 'Invalid fetch request' };
    const body = bytes ?? parsed.data.body;
    if ((bytes?.byteLength ?? Buffer.byteLength(parsed.data.body ?? '')) > MAX_FETCH_REQUEST_BYTES) return { error: `Request body exceeds ${MAX_FETCH_REQUEST_BYTES} bytes` };
    const merged = new Map<string, string>();
    for (const [name, value] of pairs) merged.set(name, merged.has(name) ? `${merged.get(name)}, ${value}` : value);
    const headers = Object.fromEntries(merged);
    const res = await guardedFetch(
      url,
      { method, headers, ...(body !== undefined ? { body } : {}), timeoutMs: opts.timeoutMs, maxBodyBytes, signal: opts.signal },
      opts.policy,
    );
    const received = new Uint8Array(await res.arrayBuffer());
    const meta = JSON.stringify({ status: res.status, statusText: res.statusText, url: res.url, redirected: res.url !== new URL(url).toString(), headers: [...res.headers] });
    return { meta, body: received };
  } catch (err) {
    if (err instanceof ResponseTooLargeError && opts.totalLimitBytes !== undefined && maxBodyBytes < MAX_FETCH_RESPONSE_BYTES) return { error: fetchTotalMessage(opts.totalLimitBytes) };
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
