import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleOverlapPolicy, type ScheduleSpec } from '@temporalio/client';
import { deploymentTriggers, toTriggerSchedule, type TriggerSchedule } from '@weft/catalog';
import type { Logger } from '@weft/platform';
import type { RunWorkflowArgs } from '../workflows/runWorkflow.workflow.js';
import type { RunnableState } from '../workflows/types.js';

/** Overlap policies a deployment's schedule may use (WEFT_SCHEDULE_OVERLAP); skip by default. */
export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

/** The active deployment a schedule runs (the registry's TriggerService answer, parsed). */
export interface ActiveDeployment {
  workflowId: string;
  workspaceId: string;
  /** The user its runs act as (the deployer of the active version, or the owner: the registry decides). */
  actorId: string;
  deploymentVersion: number;
  state: RunnableState;
}

/** What /api/schedules shows of one schedule. */
export interface ScheduleView {
  id: string;
  workflowId: string;
  cronExpression: string;
  timezone: string;
  nextRunAt: string[];
  lastRunAt?: string;
  status: 'active' | 'paused';
  deploymentVersion: number;
  scheduleType: string;
}

export interface ScheduleManagerDeps {
  client: Client;
  instance: string;
  taskQueue: string;
  integrationsTaskQueue: string;
  overlap: OverlapPolicy;
  logger: Logger;
  /** The workflow's active deployment; undefined when it is not deployed (or no longer exists). */
  activeDeployment(workflowId: string): Promise<ActiveDeployment | undefined>;
  now?: () => Date;
}

export interface ScheduleManager {
  /** Makes the workflow's Temporal Schedule match its active deployment (create, update or delete). */
  sync(workflowId: string): Promise<ScheduleView | undefined>;
  get(workflowId: string): Promise<ScheduleView | undefined>;
  pause(workflowId: string): Promise<ScheduleView | undefined>;
  resume(workflowId: string): Promise<ScheduleView | undefined>;
}

/** How long after its due time a missed run (no server, say) still fires. */
const CATCHUP_WINDOW = '10 minutes';

/**
 * A 5-field cron as Temporal cron strings meaning what cron means. When both the day of month and
 * the day of week are restricted (neither starts with *), cron (crontab(5)) runs on a day matching
 * either: `0 9 1,15 * FRI` is the 1st, the 15th and every Friday. Temporal requires both (only a
 * Friday that is the 1st or the 15th), so such a cron becomes two, one per day field, and Temporal
 * fires at their union (once at a time both match).
 */
export function cronExpressions(expression: string): string[] {
  const [minute, hour, dayOfMonth, month, dayOfWeek, ...rest] = expression.trim().split(/\s+/);
  if (rest.length > 0 || !dayOfMonth || !dayOfWeek || dayOfMonth.startsWith('*') || dayOfWeek.startsWith('*')) return [expression];
  return [`${minute} ${hour} ${dayOfMonth} ${month} *`, `${minute} ${hour} * ${month} ${dayOfWeek}`];
}

/**
 * Temporal spec of a converted schedule: local times of day (a minutes frequency whose interval
 * divides a day but not an hour) or a cron, in its timezone, or an interval (other minutes frequencies).
 */
export function temporalSpec(s: TriggerSchedule): ScheduleSpec {
  if (s.localTimes) return { calendars: s.localTimes.map(({ hour, minute }) => ({ hour, minute, second: 0 })), timezone: s.timezone };
  if (s.interval) return { intervals: [{ every: `${s.interval.everySeconds}s`, offset: `${s.interval.offsetSeconds}s` }] };
  return { cronExpressions: cronExpressions(s.cronExpression), timezone: s.timezone };
}

function overlapPolicy(p: OverlapPolicy): ScheduleOverlapPolicy {
  switch (p) {
    case 'skip':
      return 'SKIP';
    case 'buffer_one':
      return 'BUFFER_ONE';
    case 'buffer_all':
      return 'BUFFER_ALL';
    case 'cancel_other':
      return 'CANCEL_OTHER';
    case 'terminate_other':
      return 'TERMINATE_OTHER';
    case 'allow_all':
      return 'ALLOW_ALL';
    default: {
      const unreachable: never = p;
      throw new Error(`Unknown overlap policy ${String(unreachable)}`);
    }
  }
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/**
 * Schedules of deployed workflows on Temporal, one per workflow (`<instance>-schedule-<workflowId>`).
 * Each fires `runWorkflow` on the runner's queue with the deployed state (executionId empty: the
 * run's Temporal workflow id, `<instance>-scheduled-<workflowId>-<time>`, becomes its execution id),
 * trigger schedule. The server keeps them: they fire whichever process is up, and a worker that comes
 * back runs what fired while it was down.
 */
export function createScheduleManager(deps: ScheduleManagerDeps): ScheduleManager {
  const now = deps.now ?? (() => new Date());
  const scheduleId = (workflowId: string) => `${deps.instance}-schedule-${workflowId}`;
  const queue = new Map<string, Promise<unknown>>();

  /** One change at a time per workflow in this process (a deploy's call and its event may cross). */
  function serial<T>(workflowId: string, work: () => Promise<T>): Promise<T> {
    const prev = queue.get(workflowId) ?? Promise.resolve();
    const next = prev.then(work, work);
    const settled = next.catch(() => undefined);
    queue.set(workflowId, settled);
    void settled.then(() => {
      if (queue.get(workflowId) === settled) queue.delete(workflowId);
    });
    return next;
  }

  async function get(workflowId: string): Promise<ScheduleView | undefined> {
    try {
      const d = await deps.client.schedule.getHandle(scheduleId(workflowId)).describe();
      const memo = d.action.type === 'startWorkflow' ? (d.action.memo ?? {}) : {};
      const last = d.info.recentActions.at(-1);
      return {
        id: workflowId,
        workflowId,
        cronExpression: text(memo.cronExpression),
        timezone: text(memo.timezone) || 'UTC',
        nextRunAt: d.state.paused ? [] : d.info.nextActionTimes.slice(0, 5).map((t) => t.toISOString()),
        ...(last ? { lastRunAt: last.scheduledAt.toISOString() } : {}),
        status: d.state.paused ? 'paused' : 'active',
        deploymentVersion: Number(memo.deploymentVersion ?? 0),
        scheduleType: text(memo.scheduleType),
      };
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    }
  }

  async function remove(workflowId: string): Promise<void> {
    try {
      await deps.client.schedule.getHandle(scheduleId(workflowId)).delete();
      deps.logger.info({ workflowId }, 'schedule removed');
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }

  async function upsert(d: ActiveDeployment, s: TriggerSchedule, triggerBlockId: string): Promise<void> {
    const args: RunWorkflowArgs = {
      executionId: '',
      workflowId: d.workflowId,
      state: d.state,
      input: {},
      requestId: `schedule-${d.workflowId}`,
      workspaceId: d.workspaceId,
      actorId: d.actorId,
      trigger: 'schedule',
      deploymentVersion: d.deploymentVersion,
      // A schedule block the starter does not lead to: the run starts at that block.
      triggerBlockId,
      depth: 0,
      callChain: [d.workflowId],
      integrationsTaskQueue: deps.integrationsTaskQueue,
    };
    const action = {
      type: 'startWorkflow' as const,
      workflowType: 'runWorkflow',
      workflowId: `${deps.instance}-scheduled-${d.workflowId}`,
      taskQueue: deps.taskQueue,
      args: [args],
      memo: { cronExpression: s.cronExpression, timezone: s.timezone, scheduleType: s.scheduleType, deploymentVersion: d.deploymentVersion },
    };
    const spec = temporalSpec(s);
    const policies = { overlap: overlapPolicy(deps.overlap), catchupWindow: CATCHUP_WINDOW };
    const handle = deps.client.schedule.getHandle(scheduleId(d.workflowId));
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await handle.update((prev) => ({ ...prev, spec, action, policies }));
        return;
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      }
      try {
        await deps.client.schedule.create({ scheduleId: scheduleId(d.workflowId), spec, action, policies });
        deps.logger.info({ workflowId: d.workflowId, cron: s.cronExpression }, 'schedule created');
        return;
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      }
    }
    throw new Error(`The schedule of workflow ${d.workflowId} could not be written`);
  }

  return {
    sync(workflowId) {
      return serial(workflowId, async () => {
        const deployment = await deps.activeDeployment(workflowId);
        const trigger = deployment ? deploymentTriggers(deployment.state.blocks).schedule : undefined;
        const converted = trigger ? toTriggerSchedule(trigger.fields, now()) : undefined;
        if (!deployment || !trigger || !converted?.ok) {
          await remove(workflowId);
          return undefined;
        }
        await upsert(deployment, converted.schedule, trigger.blockId);
        return get(workflowId);
      });
    },
    get,
    pause(workflowId) {
      return serial(workflowId, async () => {
        try {
          await deps.client.schedule.getHandle(scheduleId(workflowId)).pause('Paused through /api/schedules');
        } catch (err) {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        }
        return get(workflowId);
      });
    },
    resume(workflowId) {
      return serial(workflowId, async () => {
        try {
          await deps.client.schedule.getHandle(scheduleId(workflowId)).unpause('Resumed through /api/schedules');
        } catch (err) {
          if (!(err instanceof ScheduleNotFoundError)) throw err;
        }
        return get(workflowId);
      });
    },
  };
}
