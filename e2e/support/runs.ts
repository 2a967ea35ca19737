import { expect } from 'vitest';
import { api, type ApiCall } from './http.js';

/** How `untilEnded` reads a run: through which gateway and account, and how long it waits. */
export interface UntilEndedOptions {
  /** The call that reads GET /api/executions/{id}: the stack's gateway as the file's default account unless told. */
  read?: ApiCall;
  /** Headers of the reading account (e.g. `{ cookie }` of another account, or `{ 'x-api-key': key }`). */
  headers?: Record<string, string>;
  timeout?: number;
  interval?: number;
}

/** Polls GET /api/executions/{id} until the run has ended (succeeded, failed or cancelled); answers it as last read. */
export async function untilEnded<T extends { status: string }>(executionId: string, { read = api, headers = {}, timeout = 30_000, interval = 100 }: UntilEndedOptions = {}): Promise<T> {
  let last: T | undefined;
  await expect
    .poll(async () => (last = (await read<T>('GET', `/api/executions/${executionId}`, undefined, headers)).body).status, { timeout, interval })
    .toMatch(/^(succeeded|failed|cancelled)$/);
  if (!last) throw new Error('never read');
  return last;
}
