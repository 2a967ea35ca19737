import { inject } from 'vitest';
import { createAccount } from './accounts.js';

let defaultSession: Promise<string> | undefined;

/** The session cookie of one account signed up per test file; calls without their own credentials use it. */
export function defaultCookie(): Promise<string> {
  defaultSession ??= createAccount('Default Tester').then((a) => a.cookie);
  return defaultSession;
}

/** A JSON call to a gateway, as `api` makes it. */
export type ApiCall = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: T }>;

/**
 * `api` to the gateway at `base()` (read at each call), e.g. a second gateway a test started in front
 * of services of its own.
 */
export function apiAt(base: () => string): ApiCall {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const credentials: Record<string, string> = 'cookie' in headers || 'x-api-key' in headers ? {} : { cookie: await defaultCookie() };
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...credentials, ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
  };
}

/**
 * A JSON call to the stack's gateway; answers the status and the parsed body. Without a `cookie` or
 * `x-api-key` header it runs as the file's default account; pass `{ cookie: '' }` to call anonymously.
 */
export const api: ApiCall = apiAt(() => inject('weftUrl'));
