import { startConsumer, type Bus, type Logger, type RunningConsumer } from '@weft/platform';
import type { ScheduleManager } from './schedules.js';

/** Registry events after which a workflow's schedule may have to change. */
export const SCHEDULE_EVENTS: ReadonlySet<string> = new Set(['workflowDeployed', 'deploymentActivated', 'workflowUndeployed', 'workflowDeleted']);

/**
 * Keeps schedules in step with deployments when no call did (another gateway, a crash between the
 * deploy and its call): every deploy, activation, undeploy or deletion syncs that workflow's
 * schedule from the registry's current answer, so replays and reordering change nothing.
 */
export function consumeDeploymentEvents(bus: Bus, schedules: ScheduleManager, logger: Logger): Promise<RunningConsumer> {
  return startConsumer(bus, {
    source: 'registry',
    durable: 'runner-schedules',
    filterSubject: `${bus.instance}.registry.workflow.>`,
    logger,
    async handle(envelope) {
      if (!SCHEDULE_EVENTS.has(envelope.type)) return;
      const workflowId = envelope.subject.split('.').at(-1);
      if (workflowId) await schedules.sync(workflowId);
    },
  });
}
