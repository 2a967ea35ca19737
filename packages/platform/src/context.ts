import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What follows one call across the gateway, gRPC, NATS and Temporal. */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with `ctx` as the current request context (logs and outgoing calls pick it up). */
export function withRequestContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The current request context, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The current request id, or a fresh one when none is active. */
export function currentRequestId(): string {
  return storage.getStore()?.requestId ?? randomUUID();
}

/** Header / metadata key that carries the request id on every hop. */
export const REQUEST_ID_HEADER = 'x-request-id';
