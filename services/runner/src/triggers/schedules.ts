import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleOverlapPolicy, type ScheduleSpec } from '@temporalio/client';
import { scheduleTriggers, toTriggerSchedule, type TriggerSchedule } from '@weft/catalog';
import type { Logger } from '@weft/platform';
import type { RunWorkflowArgs } from '../workflows/runWorkflow.workflow.js';
import type { RunnableState } from '../workflows/types.js';
import { starterScheduleIdOf, type ScheduleIndex } from './scheduleIndex.js';
import { gapCalendars, gapCalendarsOfTimes } from './clockGaps.js';

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
  /** `<workflowId>:<blockId>`: the schedule's id in the API (the workflow's id names all of its schedules). */
  id: string;
  workflowId: string;
  /** The trigger block it was made from: the starter in schedule mode or a schedule block. */
  blockId: string;
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
  /**
   * The schedule ids made per workflow of the instance (what a sync deletes when their trigger is
   * gone), and the lock that makes a workflow's changes one at a time across runner processes.
   */
  index: ScheduleIndex;
  now?: () => Date;
}

export interface ScheduleManager {
  /**
   * Makes the workflow's Temporal Schedules match its active deployment, one per schedule trigger
   * (created, updated, or deleted with its trigger); answers them, the starter's first.
   */
  sync(workflowId: string): Promise<ScheduleView[]>;
  /** The workflow's schedules, or the one of `blockId`. */
  get(workflowId: string, blockId?: string): Promise<ScheduleView[]>;
  /**
   * A page of the recorded schedules of many workflows (a workspace's, one call for all of them):
   * up to `limit` (1 to MAX_LIST_LIMIT) after the recorded schedule `after`, in schedule id order (a
   * workflow's together, its starter's first); `next` where the next page starts, when there is
   * one. A recorded schedule Temporal no longer has is left out (the page may be shorter).
   */
  list(workflowIds: readonly string[], limit: number, after?: string): Promise<{ schedules: ScheduleView[]; next?: string }>;
  /** Pauses the workflow's schedules, or the one of `blockId`; answers them. */
  pause(workflowId: string, blockId?: string): Promise<ScheduleView[]>;
  resume(workflowId: string, blockId?: string): Promise<ScheduleView[]>;
  /**
   * Syncs every workflow with schedules of this runner's instance — recorded ones, or a deployed
   * workflow (`deployed`) with one at its id from before the record — so each one's schedules are
   * what its active deployment makes now (a runner start: schedules written by an older runner get
   * today's spec, a stale one goes). A workflow that fails is logged and the others go on.
   */
  resync(deployed: string[]): Promise<{ synced: number; failed: string[] }>;
}

/** The most schedules one page of `list` covers (each is a call to Temporal). */
export const MAX_LIST_LIMIT = 500;

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
 * A cron with one time of day, and local times, also get the runs the spring clock changes of the
 * next years would cost them, shifted as cron shifts them (`gapCalendars`; `now` starts the years).
 */
export function temporalSpec(s: TriggerSchedule, now: Date = new Date()): ScheduleSpec {
  if (s.localTimes) return { calendars: [...s.localTimes.map(({ hour, minute }) => ({ hour, minute, second: 0 })), ...gapCalendarsOfTimes(s.localTimes, s.timezone, now)], timezone: s.timezone };
  if (s.interval) return { intervals: [{ every: `${s.interval.everySeconds}s`, offset: `${s.interval.offsetSeconds}s` }] };
  const gaps = gapCalendars(s.cronExpression, s.timezone, now);
  return { cronExpressions: cronExpressions(s.cronExpression), ...(gaps.length > 0 ? { calendars: gaps } : {}), timezone: s.timezone };
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

/** Runs `work` on each item, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** A schedule of the workflow as Temporal describes it. */
interface Described {
  scheduleId: string;
  view: ScheduleView;
}

/**
 * Schedules of deployed workflows on Temporal, one per schedule trigger of the active deployment:
 * the starter's is `<instance>-schedule-<workflowId>` (the id a workflow's one schedule always had),
 * a schedule block's `<instance>-schedule-<workflowId>:<blockId>`; each id is recorded in the
 * runner's database (ScheduleIndex) before it is created, so a later sync finds the ones whose
 * trigger is gone. Each fires `runWorkflow` on the runner's queue with the deployed state
 * (executionId empty: the run's Temporal workflow id, `<instance>-scheduled-<workflowId>[:<blockId>]-<time>`,
 * becomes its execution id), trigger schedule, starting at its trigger block. The server keeps
 * them: they fire whichever process is up, and a worker that comes back runs what fired while it was down.
 */
export function createScheduleManager(deps: ScheduleManagerDeps): ScheduleManager {
  const now = deps.now ?? (() => new Date());
  const starterScheduleId = (workflowId: string) => starterScheduleIdOf(deps.instance, workflowId);
  const scheduleIdOf = (workflowId: string, blockId: string, starter: boolean) => (starter ? starterScheduleId(workflowId) : `${starterScheduleId(workflowId)}:${blockId}`);
  const queue = new Map<string, Promise<unknown>>();

  /**
   * One change at a time per workflow: in this process (a deploy's call and its event may cross) and,
   * under the index's lock, across the runner processes of the instance (one's start-time resync and
   * another's deployment event). `work` gets the index on the lock's connection.
   */
  function serial<T>(workflowId: string, work: (index: ScheduleIndex) => Promise<T>): Promise<T> {
    const prev = queue.get(workflowId) ?? Promise.resolve();
    const locked = () => deps.index.locked(workflowId, work);
    const next = prev.then(locked, locked);
    const settled = next.catch(() => undefined);
    queue.set(workflowId, settled);
    void settled.then(() => {
      if (queue.get(workflowId) === settled) queue.delete(workflowId);
    });
    return next;
  }

  async function describe(workflowId: string, scheduleId: string): Promise<Described | undefined> {
    try {
      const d = await deps.client.schedule.getHandle(scheduleId).describe();
      const memo = d.action.type === 'startWorkflow' ? (d.action.memo ?? {}) : {};
      // Schedules made before the memo named their block carry it in their run's arguments.
      const args = d.action.type === 'startWorkflow' ? (d.action.args?.[0] as Partial<RunWorkflowArgs> | undefined) : undefined;
      const blockId = text(memo.blockId) || text(args?.triggerBlockId);
      const last = d.info.recentActions.at(-1);
      return {
        scheduleId,
        view: {
          id: `${workflowId}:${blockId}`,
          workflowId,
          blockId,
          cronExpression: text(memo.cronExpression),
          timezone: text(memo.timezone) || 'UTC',
          nextRunAt: d.state.paused ? [] : d.info.nextActionTimes.slice(0, 5).map((t) => t.toISOString()),
          ...(last ? { lastRunAt: last.scheduledAt.toISOString() } : {}),
          status: d.state.paused ? 'paused' : 'active',
          deploymentVersion: Number(memo.deploymentVersion ?? 0),
          scheduleType: text(memo.scheduleType),
        },
      };
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return undefined;
      throw err;
    }
  }

  /** The workflow's schedules on Temporal (recorded ones and the starter's id), the starter's first. */
  async function describeAll(workflowId: string, index: ScheduleIndex = deps.index): Promise<{ found: Described[]; missing: string[] }> {
    const ids = [...new Set([starterScheduleId(workflowId), ...(await index.of(workflowId))])];
    const described = await Promise.all(ids.map((id) => describe(workflowId, id)));
    return { found: described.filter((d): d is Described => d !== undefined), missing: ids.filter((_, i) => described[i] === undefined) };
  }

  async function list(workflowId: string, blockId?: string, index: ScheduleIndex = deps.index): Promise<Described[]> {
    const { found } = await describeAll(workflowId, index);
    return blockId === undefined ? found : found.filter((d) => d.view.blockId === blockId);
  }

  async function remove(index: ScheduleIndex, workflowId: string, scheduleId: string): Promise<void> {
    try {
      await deps.client.schedule.getHandle(scheduleId).delete();
      deps.logger.info({ workflowId, scheduleId }, 'schedule removed');
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
    await index.remove(scheduleId);
  }

  /**
   * Writes the schedule of one trigger: `keep` leaves an existing one paused or not as it is; else
   * it is made paused or active (the pause of the schedule it takes over from).
   */
  async function upsert(d: ActiveDeployment, s: TriggerSchedule, triggerBlockId: string, scheduleId: string, state: 'keep' | 'paused' | 'active'): Promise<void> {
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
      // Two schedules firing at one time start runs of distinct ids (Temporal appends the due time).
      workflowId: scheduleId.replace(`${deps.instance}-schedule-`, `${deps.instance}-scheduled-`),
      taskQueue: deps.taskQueue,
      args: [args],
      memo: { cronExpression: s.cronExpression, timezone: s.timezone, scheduleType: s.scheduleType, deploymentVersion: d.deploymentVersion, blockId: triggerBlockId },
    };
    const spec = temporalSpec(s, now());
    const policies = { overlap: overlapPolicy(deps.overlap), catchupWindow: CATCHUP_WINDOW };
    const handle = deps.client.schedule.getHandle(scheduleId);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await handle.update((prev) => ({ ...prev, spec, action, policies, ...(state === 'keep' ? {} : { state: { ...prev.state, paused: state === 'paused' } }) }));
        return;
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      }
      try {
        const paused = state === 'paused' ? { state: { paused: true, note: 'Paused through /api/schedules' } } : {};
        await deps.client.schedule.create({ scheduleId, spec, action, policies, ...paused });
        deps.logger.info({ workflowId: d.workflowId, scheduleId, cron: s.cronExpression }, 'schedule created');
        return;
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      }
    }
    throw new Error(`The schedule ${scheduleId} of workflow ${d.workflowId} could not be written`);
  }

  async function setPaused(index: ScheduleIndex, workflowId: string, blockId: string | undefined, paused: boolean): Promise<ScheduleView[]> {
    for (const { scheduleId } of await list(workflowId, blockId, index)) {
      const handle = deps.client.schedule.getHandle(scheduleId);
      try {
        await (paused ? handle.pause('Paused through /api/schedules') : handle.unpause('Resumed through /api/schedules'));
      } catch (err) {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      }
    }
    return (await list(workflowId, blockId, index)).map((d) => d.view);
  }

  const manager: ScheduleManager = {
    sync(workflowId) {
      // The deployment is read under the lock: a sync that waited for another process's sees the
      // deployment as it is after that one, never one read before it (an undeploy between lost).
      return serial(workflowId, async (index) => {
        const deployment = await deps.activeDeployment(workflowId);
        const wanted = deployment
          ? scheduleTriggers(deployment.state.blocks).flatMap((trigger) => {
              const converted = toTriggerSchedule(trigger.fields, now());
              const starter = deployment.state.blocks[trigger.blockId]?.type === 'starter';
              // The deploy refused fields that make no schedule; one that slipped through gets none.
              return converted.ok ? [{ trigger, schedule: converted.schedule, scheduleId: scheduleIdOf(workflowId, trigger.blockId, starter) }] : [];
            })
          : [];
        const wantedIds = new Set(wanted.map((w) => w.scheduleId));
        const { found, missing } = await describeAll(workflowId, index);
        const existing = new Map(found.map((d) => [d.scheduleId, d.view]));
        for (const w of wanted) {
          // A schedule that moves to another id (one made from a schedule block before each block
          // had its own) keeps its pause: the trigger's schedule at its own id, else its one elsewhere
          // (even at an id another trigger now takes, the starter's).
          const before = found.find((d) => d.view.blockId === w.trigger.blockId && d.scheduleId === w.scheduleId) ?? found.find((d) => d.view.blockId === w.trigger.blockId);
          const occupant = existing.get(w.scheduleId);
          // Kept as it is when its id held this trigger's schedule (or one naming no block: written by an
          // older runner); else paused as that schedule was.
          const state = occupant && (occupant.blockId === w.trigger.blockId || occupant.blockId === '') ? 'keep' : before?.view.status === 'paused' ? 'paused' : 'active';
          await index.add(workflowId, w.scheduleId);
          if (deployment) await upsert(deployment, w.schedule, w.trigger.blockId, w.scheduleId, state);
        }
        for (const d of found) if (!wantedIds.has(d.scheduleId)) await remove(index, workflowId, d.scheduleId);
        for (const id of missing) if (!wantedIds.has(id)) await index.remove(id);
        return (await list(workflowId, undefined, index)).map((d) => d.view);
      });
    },
    async get(workflowId, blockId) {
      return (await list(workflowId, blockId)).map((d) => d.view);
    },
    async list(workflowIds, limit, after = '') {
      const size = Math.min(Math.max(Math.trunc(limit), 1), MAX_LIST_LIMIT);
      const rows = await deps.index.page(workflowIds, after, size + 1);
      const page = rows.slice(0, size);
      const described: (Described | undefined)[] = new Array<Described | undefined>(page.length);
      // A few at a time: one describe call to Temporal per schedule.
      await inLanes(page, 8, async (row, i) => {
        described[i] = await describe(row.workflowId, row.scheduleId);
      });
      const last = page.at(-1);
      return { schedules: described.flatMap((d) => (d ? [d.view] : [])), ...(rows.length > size && last ? { next: last.scheduleId } : {}) };
    },
    pause(workflowId, blockId) {
      return serial(workflowId, (index) => setPaused(index, workflowId, blockId, true));
    },
    resume(workflowId, blockId) {
      return serial(workflowId, (index) => setPaused(index, workflowId, blockId, false));
    },
    async resync(deployed) {
      const recorded = new Set(await deps.index.workflows());
      const workflowIds = [...new Set([...deployed, ...recorded])];
      const failed: string[] = [];
      let skipped = 0;
      // A few at a time: each sync is a handful of calls to the registry and Temporal.
      await inLanes(workflowIds, 4, async (workflowId) => {
        try {
          // Only schedules of this runner's instance are brought in line: recorded ones, or one at
          // the workflow's id from before the record. A deployed workflow with none is left to the
          // deployment events (a durable consumer: what this runner missed comes when it is back);
          // so a runner of another instance sharing the registry (a test's) makes none of its own.
          if (!recorded.has(workflowId) && !(await describe(workflowId, starterScheduleId(workflowId)))) {
            skipped++;
            return;
          }
          await manager.sync(workflowId);
        } catch (err) {
          failed.push(workflowId);
          deps.logger.error({ err, workflowId }, 'schedule resync failed');
        }
      });
      return { synced: workflowIds.length - failed.length - skipped, failed: failed.sort() };
    },
  };
  return manager;
}
