import { setTimeout as delay } from 'node:timers/promises';
import { AppError, toAppError } from '@weft/platform';
import type { runner } from '@weft/contracts';
import type { Clients } from '../clients.js';

/** How long one wait for the first delivery's run asks the runner to hold its answer. */
const POLL_WAIT_MS = 10_000;
/** How soon a delivery claimed but not started yet is looked at again. */
const NOT_STARTED_RETRY_MS = 100;

/**
 * How long a repeat of a delivery answered at its start waits for the first delivery's run to start
 * before it answers 503 (under GitHub's 10 s timeout; a start normally takes well under a second).
 */
export const START_WAIT_MS = 8_000;
/** The Retry-After (seconds) of that 503. */
export const START_RETRY_AFTER_S = 5;

/** The calls a repeated delivery makes. */
export interface RedeliveryClients {
  runs: Pick<Clients['runs'], 'readRunEvents' | 'getExecution'>;
  triggers: Pick<Clients['triggers'], 'claimWebhookDelivery'>;
}

/** A delivery's claim: the workflow, the provider's delivery id and the execution this call would start. */
export interface DeliveryClaim {
  workflowId: string;
  deliveryId: string;
  executionId: string;
}

/**
 * A repeated delivery of a webhook that answers with its Response block: the execution of the
 * delivery that ran once it has ended, so the repeat answers exactly what the first call got. When
 * that execution never started (its start failed and its claim was given back), this call claims the
 * delivery again and answers `claimed`: it runs the delivery itself. Past `deadline` (the limit of
 * a waited webhook answer, from this call's arrival) it is a 504, as a first call that waited too long.
 */
export async function awaitFirstDelivery(
  clients: RedeliveryClients,
  claim: DeliveryClaim,
  firstExecutionId: string,
  deadline: number,
): Promise<{ kind: 'ended'; execution: runner.Execution } | { kind: 'claimed' }> {
  let following = firstExecutionId;
  let after = 0;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw new AppError('timeout', `The first delivery of this call (execution ${following}) has not finished in time`);
    try {
      const waitMs = Math.min(POLL_WAIT_MS, left);
      const page = await clients.runs.readRunEvents({ executionId: following, after, waitMs, limit: 1 }, { deadlineMs: waitMs + 5_000 });
      if (page.status !== 'running') {
        const { execution } = await clients.runs.getExecution({ executionId: following, withoutLogs: false });
        if (execution) return { kind: 'ended', execution };
      }
      after = page.lastSeq;
      continue;
    } catch (err) {
      if (toAppError(err).code !== 'not_found') throw err;
    }
    // No such execution (yet): the first call is between its claim and its start, or its start failed.
    const again = await clients.triggers.claimWebhookDelivery(claim);
    if (!again.duplicate) return { kind: 'claimed' };
    if (again.executionId !== following) {
      following = again.executionId;
      after = 0;
    } else {
      await delay(Math.min(NOT_STARTED_RETRY_MS, left));
    }
  }
}

/** Whether the execution exists: the runner records it as its run starts (what the route's own start failure reads too). */
async function hasStarted(clients: RedeliveryClients, executionId: string): Promise<boolean> {
  try {
    return (await clients.runs.getExecution({ executionId, withoutLogs: true })).execution !== undefined;
  } catch (err) {
    if (toAppError(err).code === 'not_found') return false;
    throw err;
  }
}

/**
 * A repeated delivery of a webhook that answers as soon as its run starts. The repeat may tell the
 * provider 200 only once the first delivery's run has started: `started` then. If that run never
 * starts (its start failed and its claim was given back) this call claims the delivery again and
 * answers `claimed`: it runs the delivery itself. Still not started at `deadline`: `pending` — the
 * route answers 503 with Retry-After, and the provider's retry (GitHub, Stripe, Slack and the others
 * retry on any non-2xx) asks again, so an event is never acknowledged and then lost.
 */
export async function awaitFirstStart(
  clients: RedeliveryClients,
  claim: DeliveryClaim,
  firstExecutionId: string,
  deadline: number,
): Promise<{ kind: 'started'; executionId: string } | { kind: 'claimed' } | { kind: 'pending'; executionId: string }> {
  let following = firstExecutionId;
  for (;;) {
    if (await hasStarted(clients, following)) return { kind: 'started', executionId: following };
    const again = await clients.triggers.claimWebhookDelivery(claim);
    if (!again.duplicate) return { kind: 'claimed' };
    if (again.executionId !== following) {
      following = again.executionId;
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) return { kind: 'pending', executionId: following };
    await delay(Math.min(NOT_STARTED_RETRY_MS, left));
  }
}
