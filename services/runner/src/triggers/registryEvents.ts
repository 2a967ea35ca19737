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

/** Member events after which the user a workspace's deployed runs act as may change. */
export const MEMBER_EVENTS: ReadonlySet<string> = new Set(['memberAdded', 'memberUpdated', 'memberRemoved']);

/**
 * A schedule carries the user its runs act as (the deployer while they may deploy there, else the
 * owner: the registry decides). When a workspace's members change, the schedules of its deployed
 * workflows are synced again, so a deployer made read-only or removed stops being their actor.
 */
export function consumeMemberEvents(bus: Bus, schedules: ScheduleManager, deployedWorkflows: (workspaceId: string) => Promise<string[]>, logger: Logger): Promise<RunningConsumer> {
  return startConsumer(bus, {
    source: 'registry',
    durable: 'runner-schedule-actors',
    filterSubject: `${bus.instance}.registry.workspace.>`,
    logger,
    async handle(envelope) {
      if (!MEMBER_EVENTS.has(envelope.type)) return;
      const workspaceId = envelope.subject.split('.').at(-1);
      if (!workspaceId) return;
      for (const workflowId of await deployedWorkflows(workspaceId)) await schedules.sync(workflowId);
    },
  });
}

/**
 * At the runner's start: the schedules of its instance brought in line with what each workflow's
 * active deployment makes now — every workflow with one recorded, and each deployed workflow
 * (`listDeployed`) with one at its id from before the record (`ScheduleManager.resync`): a schedule
 * written by an older runner gets today's spec, one left by a missed undeploy goes; pauses are kept.
 * A deployed workflow without one is left to the durable deployment events. The registry
 * may still be starting, so its list is asked again a few times (`retryDelaysMs`); a failure is
 * logged, never thrown: the runner serves without it, and the next event or deploy syncs again.
 */
export async function resyncSchedulesAtStart(
  schedules: ScheduleManager,
  listDeployed: () => Promise<string[]>,
  logger: Logger,
  retryDelaysMs: readonly number[] = [1000, 2000, 4000, 8000, 16_000],
): Promise<{ synced: number; failed: string[] } | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      const deployed = await listDeployed();
      const done = await schedules.resync(deployed);
      logger.info(done, 'schedules resynced');
      return done;
    } catch (err) {
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) {
        logger.error({ err }, 'schedules not resynced at start');
        return undefined;
      }
      // Unref'd: a runner closing meanwhile is not held open by the wait.
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
  }
}
