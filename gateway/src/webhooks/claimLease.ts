import type { Logger } from '@weft/platform';
import type { Clients } from '../clients.js';
import type { DeliveryClaim } from './redelivery.js';

/** The renewals of a claim this call holds; `stop` once its run's start has answered (or it gave the claim back). */
export interface ClaimLease {
  stop(): void;
}

/** The timer a lease renews on (tests pass their own clock): runs `run` after `ms`; answers a cancel. */
export type LeaseTimer = (run: () => void, ms: number) => () => void;

const nodeTimer: LeaseTimer = (run, ms) => {
  const handle = setTimeout(run, ms);
  // A pending renewal never keeps the process alive.
  handle.unref();
  return () => clearTimeout(handle);
};

/**
 * Keeps this call's claim of a delivery alive while it is still starting the run: renews it
 * (RenewWebhookDelivery, one statement) every third of the registry's lease, one renewal at a time,
 * so however slow the start a repeat never takes it over while this process lives; a process that
 * dies stops renewing and the claim lapses after one lease. A renewal that fails is logged and the
 * next one tried; one answering that the claim is gone (taken over after renewals did not reach the
 * registry for a whole lease) is logged and ends the renewals.
 */
export function holdClaim(
  triggers: Pick<Clients['triggers'], 'renewWebhookDelivery'>,
  claim: DeliveryClaim,
  leaseMs: number,
  logger: Pick<Logger, 'warn'>,
  timer: LeaseTimer = nodeTimer,
): ClaimLease {
  // No lease sent (a registry from before leases judged a claim by its age, 30 s): renew as for that.
  const every = Math.max(1, Math.floor((leaseMs > 0 ? leaseMs : 30_000) / 3));
  let stopped = false;
  let cancel: (() => void) | undefined;
  const schedule = (): void => {
    if (!stopped) cancel = timer(renew, every);
  };
  function renew(): void {
    cancel = undefined;
    triggers.renewWebhookDelivery(claim).then(
      ({ renewed }) => {
        if (renewed) return schedule();
        if (!stopped) logger.warn({ workflowId: claim.workflowId, executionId: claim.executionId }, 'webhook delivery claim lost before its run started (taken over after its lease lapsed)');
        stopped = true;
      },
      (err: unknown) => {
        logger.warn({ err, workflowId: claim.workflowId }, 'webhook delivery claim not renewed');
        schedule();
      },
    );
  }
  schedule();
  return {
    stop() {
      stopped = true;
      cancel?.();
      cancel = undefined;
    },
  };
}
