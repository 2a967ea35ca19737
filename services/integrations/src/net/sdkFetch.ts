import type { AddressPolicy } from './addressPolicy.js';
import { guardedFetch } from './guardedFetch.js';

/** The fetch an SDK client takes (openai's `fetch` option). */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** An SDK call's own timeout and signal end it first; this only bounds a call that never ends. */
const SDK_DEADLINE_MS = 15 * 60_000;

function bodyOf(body: RequestInit['body']): string | Uint8Array | URLSearchParams | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array || body instanceof URLSearchParams) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new Error('Unsupported request body for a guarded call');
}

/**
 * fetch for SDK clients (OpenAI, Azure) sent to an address a user typed: every host checked by the
 * outbound guard (guardedFetch), the answer streamed, and no redirects followed (a provider's API
 * does not redirect, and a redirect must not carry the key elsewhere).
 */
export function guardedSdkFetch(policy: AddressPolicy): SdkFetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : input.toString();
    const headers = Object.fromEntries(new Headers(init.headers ?? request?.headers).entries());
    const body = bodyOf(init.body ?? (request?.body ? new Uint8Array(await request.arrayBuffer()) : undefined));
    return guardedFetch(
      url,
      {
        method: init.method ?? request?.method ?? 'GET',
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: init.signal ?? request?.signal,
        timeoutMs: SDK_DEADLINE_MS,
        maxRedirects: 0,
        stream: true,
      },
      policy,
    );
  };
}
