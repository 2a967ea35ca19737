import { recordRunEvent, type RunLogDeps } from '../executionsStore.js';
import type { RunnerActivities } from '../workflows/types.js';

/**
 * The run-log activity the runner's worker serves to its workflows: each progress event becomes a
 * log row, an outbox event and a wake-up for live readers. Idempotent per event, so Temporal's
 * retries (a worker killed after the commit, before it reported) write nothing twice.
 */
export function createRunLogActivities(deps: RunLogDeps): Pick<RunnerActivities, 'recordRunEvent'> {
  return {
    async recordRunEvent(event) {
      await recordRunEvent(deps, event);
    },
  };
}
