import { z } from 'zod';
import { guardedFetch } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';

/** The largest response body a sandboxed `fetch` reads (larger ones reject with the guard's `Response body exceeds … bytes`). */
export const MAX_FETCH_RESPONSE_BYTES = 5 * 1024 * 1024;
/** How many `fetch` calls one function call may make. */
export const MAX_FETCHES_PER_CALL = 50;

/** What the sandbox's `fetch` sends out (built by the prelude, but checked here: it crossed from untrusted code). */
const requestSchema = z.object({
  url: z.string(),
  method: z.string().min(1),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body: z.string().optional(),
});

/** The answer handed back to the worker: the response as JSON text, or the message the code's promise rejects with. */
export type SandboxFetchDone = { ok: string } | { error: string };

export interface SandboxFetchOptions {
  policy: AddressPolicy;
  signal: AbortSignal;
  timeoutMs: number;
  maxBodyBytes?: number;
}

/**
 * Makes one request of sandboxed code through the outbound guard (private addresses refused as for
 * the HTTP tool, redirects checked hop by hop, the body read up to a bound); never rejects.
 */
export async function sandboxFetch(requestJson: string, opts: SandboxFetchOptions): Promise<SandboxFetchDone> {
  try {
    const parsed = requestSchema.safeParse(JSON.parse(requestJson));
    if (!parsed.success) return { error: 'Invalid fetch request' };
    const { url, method, headers: pairs, body } = parsed.data;
    const merged = new Map<string, string>();
    for (const [name, value] of pairs) merged.set(name, merged.has(name) ? `${merged.get(name)}, ${value}` : value);
    const headers = Object.fromEntries(merged);
    const res = await guardedFetch(
      url,
      { method, headers, ...(body !== undefined ? { body } : {}), timeoutMs: opts.timeoutMs, maxBodyBytes: opts.maxBodyBytes ?? MAX_FETCH_RESPONSE_BYTES, signal: opts.signal },
      opts.policy,
    );
    const text = await res.text();
    return { ok: JSON.stringify({ status: res.status, statusText: res.statusText, url: res.url, redirected: res.url !== new URL(url).toString(), headers: [...res.headers], body: text }) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
