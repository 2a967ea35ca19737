// Workflow code only: a subpath of its own (`@weft/catalog/workflowTries`), so the catalogue's main
// entry, which the web app, the services and activities load, never imports Temporal's workflow SDK.
// The runner's run workflow and the integrations worker's agent tool loop both try calls with it.
import { isCancellation, sleep } from '@temporalio/workflow';
import { innermostMessage } from './toolLoop.js';
import { isTransientFailure, tryCall, type CallTry, type TryEnv } from './tries.js';

/**
 * Tries inside a Temporal workflow: durable timers, and `Date.now`/`Math.random` are deterministic
 * there; a cancellation goes through untouched; an answered failure (non-retryable) is not tried again.
 */
export const WORKFLOW_TRIES: TryEnv = {
  sleep: (ms) => sleep(ms),
  now: () => Date.now(),
  random: () => Math.random(),
  transient: isTransientFailure,
  passThrough: isCancellation,
  message: innermostMessage,
};

/**
 * `tryCall` with the workflow's environment: up to `maxAttempts` tries of `call` (given the try's
 * number, from 1) for transient failures, backoff from `initialMs` on workflow timers. Recording the
 * tries issues no command, so histories of earlier runs replay unchanged.
 */
export function tryInWorkflow<T>(maxAttempts: number, initialMs: number, call: (attempt: number) => Promise<T>): Promise<{ value: T; attempts: number; tries: CallTry[] }> {
  return tryCall(maxAttempts, initialMs, WORKFLOW_TRIES, call);
}
