import type { CallOptions, Logger } from '@weft/platform';
import type { DeliveryClaim } from './redelivery.js';

/** The renewals of a claim this call holds; `stop` once its run's start has answered (or it gave the claim back). */
export interface ClaimLease {
  stop(): void;
  /** Whether a renewal answered that the claim is gone (a repeat took it over): the call must not start the run now. */
  readonly lost: boolean;
}

/** The registry call that renews a claim, with a deadline of its own. */
export interface ClaimRenewer {
  renewWebhookDelivery(req: DeliveryClaim, options?: CallOptions): Promise<{ renewed: boolean }>;
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
 * (RenewWebhookDelivery, one statement) on a fixed cadence, every third of the registry's lease counted
 * from each attempt's start — never from the previous answer, so a slow renewal does not push the next
 * one back — and gives each renewal 70% of that third as its own deadline, so a hung one fails before the
 * next is due and two never pile up (one somehow still in flight when the next is due is skipped).
 * However slow the start, a repeat never takes the claim over while this process lives and reaches
 * the registry; a process that dies stops renewing and the claim lapses after one lease. A renewal that
 * fails is logged and the next one tried on time; one answering that the claim is gone (taken over after
 * renewals did not reach the registry for a whole lease) is logged at warn with the delivery id, marks
 * the lease `lost` and ends the renewals.
 */
export function holdClaim(triggers: ClaimRenewer, claim: DeliveryClaim, leaseMs: number, logger: Pick<Logger, 'warn'>, timer: LeaseTimer = nodeTimer): ClaimLease {
  // No lease sent (a registry from before leases judged a claim by its age, 30 s): renew as for that.
  const every = Math.max(1, Math.floor((leaseMs > 0 ? leaseMs : 30_000) / 3));
  // Shorter than the period, so a hung renewal has failed (and the next is sent, not skipped) by the time
  // the next is due: with the period itself as deadline, the next tick could find it still in flight and
  // skip, leaving the third renewal to go out as the lease ran out.
  const deadline = Math.max(1, Math.floor(every * 0.7));
  const about = { workflowId: claim.workflowId, deliveryId: claim.deliveryId, executionId: claim.executionId };
  let stopped = false;
  let lost = false;
  let inFlight = false;
  let cancel: (() => void) | undefined;
  function tick(): void {
    cancel = undefined;
    if (stopped) return;
    // The next attempt is due a period after this one starts, whatever this one takes.
    cancel = timer(tick, every);
    if (inFlight) {
      logger.warn(about, 'webhook delivery claim renewal skipped: the previous one is still unanswered past its deadline');
      return;
    }
    inFlight = true;
    triggers.renewWebhookDelivery(claim, { deadlineMs: deadline }).then(
      ({ renewed }) => {
        inFlight = false;
        if (renewed || stopped) return;
        lost = true;
        logger.warn(about, 'webhook delivery claim lost before its run started (taken over after its lease lapsed)');
        stop();
      },
      (err: unknown) => {
        inFlight = false;
        if (!stopped) logger.warn({ err, ...about }, 'webhook delivery claim not renewed');
      },
    );
  }
  function stop(): void {
    stopped = true;
    cancel?.();
    cancel = undefined;
  }
  cancel = timer(tick, every);
  return {
    stop,
    get lost() {
      return lost;
    },
  };
}
