import type { LiveSchedule, WorkflowSummary } from '../api';

/** One row of the workspace's schedules page: a schedule of a deployed workflow, named as the user knows it. */
export interface ScheduleRow {
  workflowId: string;
  workflowName: string;
  blockId: string;
  /** The trigger block's name in the workflow's draft; its id when the draft no longer has it. */
  blockName: string;
  /** Whether the draft still has the block (else the deployed version schedules a block since removed). */
  inDraft: boolean;
  frequency: string;
  cronExpression: string;
  timezone: string;
  /** The next due time (none while paused). */
  nextRun: Date | null;
  lastRun: Date | null;
  status: LiveSchedule['status'];
  /** Runs more often than once a minute: its times are told apart by their seconds. */
  subMinute: boolean;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const whole = (s: string | undefined, max: number) => (s !== undefined && /^\d{1,2}$/.test(s) && Number(s) <= max ? Number(s) : undefined);
const clock = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
const every = (n: number, unit: string) => (n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`);

/**
 * A schedule's frequency in words, read from the cron the runner keeps for it (the shapes
 * `toTriggerSchedule` makes: `@every 10s`, `0/15 * * * *`, `30 * * * *`, `0 9 * * *`, `0 9 * * 1`,
 * `0 9 1 * *`); a cron of any other shape (a custom one) is "Custom", shown beside its expression.
 */
export function frequencyText(cronExpression: string): string {
  const seconds = /^@every (\d+)s$/.exec(cronExpression.trim());
  if (seconds) {
    const n = Number(seconds[1]);
    return n % 3600 === 0 ? every(n / 3600, 'hour') : n % 60 === 0 ? every(n / 60, 'minute') : every(n, 'second');
  }
  const fields = cronExpression.trim().split(/\s+/);
  if (fields.length !== 5) return 'Custom';
  const [m, h, dom, mon, dow] = fields;
  if (mon !== '*') return 'Custom';
  const step = /^(\d{1,2})\/(\d{1,2})$/.exec(m ?? '') ?? /^\*\/(\d{1,2})$/.exec(m ?? '');
  if (step && h === '*' && dom === '*' && dow === '*') return every(Number(step[step.length - 1]), 'minute');
  const minute = whole(m, 59);
  if (minute === undefined) return 'Custom';
  if (h === '*' && dom === '*' && dow === '*') return `Hourly at :${String(minute).padStart(2, '0')}`;
  const hour = whole(h, 23);
  if (hour === undefined) return 'Custom';
  const at = clock(hour, minute);
  if (dom === '*' && dow === '*') return `Daily at ${at}`;
  const day = whole(dow, 7);
  if (dom === '*' && day !== undefined) return `Weekly on ${DAYS[day % 7]} at ${at}`;
  const date = whole(dom, 31);
  if (dow === '*' && date !== undefined && date >= 1) return `Monthly on day ${date} at ${at}`;
  return 'Custom';
}

const dateOf = (iso: string | null | undefined) => {
  if (!iso) return null;
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? null : at;
};

/** The workspace's schedules (`GET /api/schedules?workspaceId=`, one list) by workflow id, each workflow's in the order listed. */
export function schedulesByWorkflow(schedules: readonly LiveSchedule[]): Map<string, LiveSchedule[]> {
  const by = new Map<string, LiveSchedule[]>();
  for (const s of schedules) by.set(s.workflowId, [...(by.get(s.workflowId) ?? []), s]);
  return by;
}

/**
 * The schedules page's rows: each workflow's schedules (`schedules` by workflow id, see
 * `schedulesByWorkflow`; a workflow without any adds none, and a schedule of a workflow not listed is
 * left out), in the order the workflows are listed, each workflow's first schedule first as the runner lists them.
 */
export function scheduleRows(workflows: readonly WorkflowSummary[], schedules: ReadonlyMap<string, readonly LiveSchedule[]>): ScheduleRow[] {
  return workflows.flatMap((workflow) =>
    (schedules.get(workflow.id) ?? []).map((s) => {
      const blocks = workflow.state?.blocks;
      const block = blocks && Object.hasOwn(blocks, s.blockId) ? blocks[s.blockId] : undefined;
      const interval = /^@every (\d+)s$/.exec(s.cronExpression);
      return {
        workflowId: workflow.id,
        workflowName: workflow.name,
        blockId: s.blockId,
        blockName: block?.name ?? s.blockId,
        inDraft: block !== undefined,
        frequency: frequencyText(s.cronExpression),
        cronExpression: s.cronExpression,
        timezone: s.timezone,
        nextRun: s.status === 'paused' ? null : dateOf(s.nextRunAt[0]),
        lastRun: dateOf(s.lastRunAt),
        status: s.status,
        subMinute: interval !== null && Number(interval[1]) < 60,
      };
    }),
  );
}
