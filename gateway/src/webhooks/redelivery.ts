import { setTimeout as delay } from 'node:timers/promises';
import { AppError, toAppError } from '@weft/platform';
import type { runner } from '@weft/contracts';
import type { Clients } from '../clients.js';

/** How long one wait for the first delivery's run asks the runner to hold its answer. */
const POLL_WAIT_MS = 10_000;
/** How soon a delivery claimed but not started yet is looked at again first; each look doubles it, up to the most. */
const NOT_STARTED_FIRST_RETRY_MS = 100;
const NOT_STARTED_MOST_RETRY_MS = 1_000;

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
  triggers: Pick<Clients['triggers'], 'claimWebhookDelivery' | 'readWebhookDelivery' | 'takeOverWebhookDelivery'>;
}

/** A delivery's claim: the workflow, the provider's delivery id and the execution this call would start. */
export interface DeliveryClaim {
  workflowId: string;
  deliveryId: string;
  executionId: string;
}

/** The pause before the next look at a claim not started yet: doubling from the first, up to the most, never past the deadline. */
function backoff(previousMs: number | undefined, left: number): number {
  const next = previousMs === undefined ? NOT_STARTED_FIRST_RETRY_MS : Math.min(previousMs * 2, NOT_STARTED_MOST_RETRY_MS);
  return Math.max(0, Math.min(next, left));
}

/**
 * What became of a delivery's claim whose run (`following`) has not started: given back (this call
 * claims it: `claimed`, or follows whoever claimed it first), held by another execution (follow it),
 * left behind — its lease lapsed (its claimer, which renews it while starting the run, stopped: it
 * died between claim and start, or its give-back failed) with its run still not started — (this
 * call takes it over: `claimed`), or still
 * being started (`wait`). Read without a lock; only a give-back or a stale claim writes.
 */
async function notStarted(
  clients: RedeliveryClients,
  claim: DeliveryClaim,
  following: string,
): Promise<{ kind: 'claimed' } | { kind: 'follow'; executionId: string } | { kind: 'wait' }> {
  const held = await clients.triggers.readWebhookDelivery({ workflowId: claim.workflowId, deliveryId: claim.deliveryId });
  if (held.executionId === undefined) {
    const again = await clients.triggers.claimWebhookDelivery(claim);
    if (!again.duplicate) return { kind: 'claimed' };
    return again.executionId === following ? { kind: 'wait' } : { kind: 'follow', executionId: again.executionId };
  }
  if (held.executionId !== following) return { kind: 'follow', executionId: held.executionId };
  if (!held.stale) return { kind: 'wait' };
  const { taken } = await clients.triggers.takeOverWebhookDelivery({ ...claim, staleExecutionId: following });
  // Not taken: another repeat took it or it was given back; the next look sees which.
  return taken ? { kind: 'claimed' } : { kind: 'wait' };
}

/**
 * A repeated delivery of a webhook that answers with its Response block: the execution of the
 * delivery that ran once it has ended, so the repeat answers exactly what the first call got. When
 * that execution never started (its start failed and its claim was given back, or its claim was left
 * behind and its lease lapsed), this call claims the delivery and answers `claimed`: it runs the delivery itself. Past `deadline` (the limit of
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
  let pause: number | undefined;
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
    const next = await notStarted(clients, claim, following);
    if (next.kind === 'claimed') return next;
    if (next.kind === 'follow') {
      following = next.executionId;
      after = 0;
      pause = undefined;
    } else {
      pause = backoff(pause, deadline - Date.now());
      await delay(pause);
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
 * starts (its start failed and its claim was given back, or its claim was left behind and its lease lapsed)
 * this call claims the delivery and answers `claimed`: it runs the delivery itself. Still not started at `deadline`: `pending` — the
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
  let pause: number | undefined;
  for (;;) {
    if (await hasStarted(clients, following)) return { kind: 'started', executionId: following };
    const next = await notStarted(clients, claim, following);
    if (next.kind === 'claimed') return next;
    if (next.kind === 'follow') {
      following = next.executionId;
      pause = undefined;
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) return { kind: 'pending', executionId: following };
    pause = backoff(pause, left);
    await delay(pause);
  }
}

/** What a repeated delivery answers: the first run started or ended, still pending (503), or claimed by this call, which runs it. */
export type RepeatOutcome =
  | { kind: 'started'; executionId: string }
  | { kind: 'ended'; execution: runner.Execution }
  | { kind: 'pending'; executionId: string }
  | { kind: 'claimed' };

/**
 * A repeated delivery (its claim answered duplicate): awaitFirstStart for a webhook answered at its
 * run's start, awaitFirstDelivery for one answered with its Response block (waiting to `responseDeadline`).
 * Either may answer `claimed`: the route then starts the run itself, and nothing waits on the first.
 */
export async function awaitRepeat(
  clients: RedeliveryClients,
  claim: DeliveryClaim,
  firstExecutionId: string,
  when: { answersAtStart: boolean; arrived: number; responseDeadline: number },
): Promise<RepeatOutcome> {
  if (when.answersAtStart) return awaitFirstStart(clients, claim, firstExecutionId, when.arrived + START_WAIT_MS);
  return awaitFirstDelivery(clients, claim, firstExecutionId, when.responseDeadline);
}
