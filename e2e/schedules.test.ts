import { randomUUID } from 'node:crypto';
import { Connection } from '@temporalio/client';
import { createFakeServer, createTestInstance } from '@weft/testkit';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase } from './support/databases.js';
import { startServiceOnFreePort, type TestProcess } from './support/processes.js';
import { api } from './support/http.js';
import { untilEnded } from './support/runs.js';
import { closeTemporal, deployScheduled, schedule, scheduledRuns, scheduledWorkflow, temporalRecord, type ScheduledRun } from './support/schedules.js';

/**
 * Schedules end to end (issue 13): deployed through the gateway, kept by the stack's Temporal
 * server, fired into the real runner's run workflow; what fired is read from the executions list
 * and from the schedule's own record on Temporal.
 */

type Command = Record<string, unknown>;
const set = (id: string, subBlockId: string, value: unknown): Command => ({ type: 'setSubBlockValue', id, subBlockId, value });
const TEN_SECONDS = 10_000;

/** The starter on a schedule of `fields`, then `then` (blocks after it). */
const onSchedule =
  (fields: Record<string, string>, ...then: Array<(starter: string) => Command[]>) =>
  (starter: string): Command[] => [set(starter, 'startWorkflow', 'schedule'), ...Object.entries(fields).map(([k, v]) => set(starter, k, v)), ...then.flatMap((t) => t(starter))];

/** A function block "Tick" after the starter answering "tick". */
const tick = (starter: string): Command[] => [
  { type: 'addBlock', id: 'tick', blockType: 'function', name: 'Tick', position: { x: 400, y: 100 } },
  set('tick', 'code', 'return "tick"'),
  { type: 'addEdge', source: starter, target: 'tick' },
];

/** A scheduled run once it has ended. */
const finished = (executionId: string) => untilEnded<ScheduledRun & { error: unknown }>(executionId, { timeout: 60_000, interval: 200 });

const undeploy = async (workflowId: string) => expect((await api('DELETE', `/api/workflows/${workflowId}/deploy`)).status).toBe(200);

/**
 * The first `count` times after `from` (ms) a 5-field cron matches in `timezone`, found minute by
 * minute from the local wall clock (Intl): what the expression means, worked out without Temporal.
 * Names and 7 for Sunday as cron has them; when both the day of month and the day of week are
 * restricted (neither starts with *), a day matching either runs, as cron's crontab(5) says.
 */
function cronTimes(expression: string, timezone: string, from: number, count: number): string[] {
  const names: Record<string, number> = { SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6, JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };
  const value = (v: string) => names[v.toUpperCase()] ?? Number(v);
  const bounds = [
    [0, 59],
    [0, 23],
    [1, 31],
    [1, 12],
    [0, 7],
  ] as const;
  const fields = expression.trim().split(/\s+/);
  const sets = fields.map((field, i) => {
    const [min, max] = bounds[i] ?? [0, 0];
    const out = new Set<number>();
    for (const part of field.split(',')) {
      const [range = '*', step = '1'] = part.split('/');
      const [lo, hi] = range === '*' ? [min, max] : range.includes('-') ? range.split('-').map(value) : [value(range), part.includes('/') ? max : value(range)];
      for (let n = lo ?? min; n <= (hi ?? max); n += Number(step)) out.add(i === 4 ? n % 7 : n);
    }
    return out;
  });
  const [minutes, hours, days, months, weekdays] = sets;
  const dayEither = !fields[2]?.startsWith('*') && !fields[4]?.startsWith('*');
  const format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
  const found: string[] = [];
  for (let t = Math.floor(from / 60_000) * 60_000 + 60_000; found.length < count && t < from + 800 * 86_400_000; ) {
    const p = Object.fromEntries(format.formatToParts(t).map((x) => [x.type, x.value]));
    const dayOfMonth = days?.has(Number(p.day)) ?? false;
    const dayOfWeek = weekdays?.has(value(String(p.weekday)) % 7) ?? false;
    const day = dayEither ? dayOfMonth || dayOfWeek : dayOfMonth && dayOfWeek;
    // An hour that cannot match is passed at once, to the next local hour (the clocks change on the hour).
    if (!(hours?.has(Number(p.hour)) && months?.has(Number(p.month)) && day)) {
      t += (60 - Number(p.minute)) * 60_000;
      continue;
    }
    if (minutes?.has(Number(p.minute))) found.push(new Date(t).toISOString());
    t += 60_000;
  }
  return found;
}

describe('schedules end to end through the gateway (real runner, real Temporal)', () => {
  afterAll(closeTemporal);

  it('a paused schedule stops firing: no run is due while it is paused, none is caught up on resume, and it fires again once resumed', async () => {
    const id = await scheduledWorkflow(onSchedule({ scheduleType: 'minutes', minutesInterval: '10s' }, tick));
    await deployScheduled(id);
    try {
      // It fires: a listed run of the schedule, which succeeds.
      await expect.poll(async () => (await scheduledRuns(id)).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(1);
      expect(await finished((await scheduledRuns(id))[0]?.executionId ?? '')).toMatchObject({ status: 'succeeded', trigger: 'schedule', output: { result: 'tick' } });

      const paused = await api('POST', `/api/schedules/${id}/pause`);
      // The answer reads the schedule back as paused: a due time from here on cannot fire.
      const pausedAt = Date.now();
      expect(paused.body).toMatchObject({ status: 'paused', nextRunAt: [] });
      const atPause = await temporalRecord(id);
      expect(atPause.paused).toBe(true);
      expect(atPause.recent.length).toBeGreaterThanOrEqual(1);

      // The times it would have fired at: the 10 s grid of its own fires. The window closes once two
      // of them after the pause have passed, by more than twice the longest a fire took to be taken.
      const lastDue = Math.max(...atPause.recent.map((r) => r.due));
      const lag = Math.max(0, ...atPause.recent.map((r) => r.takenAt - r.due));
      const secondMissed = lastDue + (Math.floor((pausedAt - lastDue) / TEN_SECONDS) + 2) * TEN_SECONDS;
      const windowEnd = secondMissed + 2 * lag + 2_000;
      expect(windowEnd - pausedAt).toBeGreaterThan(TEN_SECONDS);
      const dueSincePause = async () => [...(await temporalRecord(id)).recent.map((r) => r.due), ...(await scheduledRuns(id)).map((r) => r.due)].filter((due) => due >= pausedAt);
      await expect.poll(async () => (await dueSincePause()).length > 0 || Date.now() >= windowEnd, { timeout: windowEnd - Date.now() + 30_000, interval: 500 }).toBe(true);
      expect(await dueSincePause()).toEqual([]);
      // Temporal took no action while paused (its count is the one read at the pause).
      expect((await temporalRecord(id)).actions).toBe(atPause.actions);

      const resumedAt = Date.now();
      const resumed = await api<{ status: string; nextRunAt: string[] }>('POST', `/api/schedules/${id}/resume`);
      expect(resumed.body.status).toBe('active');
      expect(resumed.body.nextRunAt).toHaveLength(5);
      for (const t of resumed.body.nextRunAt) expect(Date.parse(t)).toBeGreaterThan(resumedAt - 1_000);

      // It fires again: a run due after the resume, which succeeds.
      let again: ScheduledRun | undefined;
      await expect.poll(async () => (again = (await scheduledRuns(id)).find((r) => r.due >= resumedAt)), { timeout: 60_000, interval: 500 }).toBeDefined();
      expect(await finished(again?.executionId ?? '')).toMatchObject({ status: 'succeeded', trigger: 'schedule', deploymentVersion: 1, output: { result: 'tick' } });
      expect(Date.parse((await schedule(id)).lastRunAt ?? '')).toBeGreaterThanOrEqual(resumedAt - 1_000);

      // Nothing was due in the paused window, not even caught up by the resume; every action Temporal
      // took is one listed run.
      const runs = await scheduledRuns(id);
      const record = await temporalRecord(id);
      expect(runs.filter((r) => r.due >= pausedAt && r.due < resumedAt)).toEqual([]);
      expect(record.recent.filter((r) => r.due >= pausedAt && r.due < resumedAt)).toEqual([]);
      // (The list is read first: it can only lag Temporal's count, and catches up with it.)
      await expect.poll(async () => (await scheduledRuns(id)).length - (await temporalRecord(id)).actions, { timeout: 30_000, interval: 500 }).toBe(0);
    } finally {
      await undeploy(id);
    }
  }, 240_000);

  it('hourly and custom cron schedules: GET shows the next five times Temporal will fire, the ones the fields mean in their timezone', async () => {
    const cases: Array<{ fields: Record<string, string>; cron: string; timezone: string }> = [
      { fields: { scheduleType: 'hourly', hourlyMinute: '7', timezone: 'Asia/Tokyo' }, cron: '7 * * * *', timezone: 'Asia/Tokyo' },
      { fields: { scheduleType: 'hourly', timezone: 'America/Chicago' }, cron: '0 * * * *', timezone: 'America/Chicago' },
      // Every 20 minutes from 09:00 to 10:40 New York time, Monday to Friday.
      { fields: { scheduleType: 'custom', cronExpression: '*/20 9-10 * * MON-FRI', timezone: 'America/New_York' }, cron: '*/20 9-10 * * MON-FRI', timezone: 'America/New_York' },
      // 17:30 in Sydney on Sundays (7) and Wednesdays, in the months of a year's first half.
      { fields: { scheduleType: 'custom', cronExpression: '30 17 * 1-6 3,7', timezone: 'Australia/Sydney' }, cron: '30 17 * 1-6 3,7', timezone: 'Australia/Sydney' },
      // Both day fields: the 1st and the 15th of each month, and every Friday (cron's either-day rule).
      { fields: { scheduleType: 'custom', cronExpression: '0 9 1,15 * FRI', timezone: 'Europe/Paris' }, cron: '0 9 1,15 * FRI', timezone: 'Europe/Paris' },
    ];
    for (const c of cases) {
      const id = await scheduledWorkflow(onSchedule(c.fields, tick));
      try {
        const before = Date.now();
        const view = await deployScheduled(id);
        const after = Date.now();
        expect(view, c.cron).toMatchObject({ cronExpression: c.cron, timezone: c.timezone, scheduleType: c.fields.scheduleType, status: 'active' });
        // A due time may pass while the deploy is answered: the list is the one from either side of it.
        expect([cronTimes(c.cron, c.timezone, before, 5), cronTimes(c.cron, c.timezone, after, 5)], `${c.cron} in ${c.timezone}`).toContainEqual(view.nextRunAt);
      } finally {
        await undeploy(id);
      }
    }
  });

  it('a run still going makes the next fires skip (the real run workflow held at an API call): one run, then the next fire once it ended', async () => {
    const hold = await createFakeServer();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    hold.on('GET', '/hold', async () => {
      await released;
      return { json: { released: true } };
    });
    const wait = (starter: string): Command[] => [
      { type: 'addBlock', id: 'wait', blockType: 'api', name: 'Wait', position: { x: 400, y: 100 } },
      set('wait', 'url', `${hold.url}/hold`),
      set('wait', 'method', 'GET'),
      set('wait', 'timeout', '120000'),
      { type: 'addEdge', source: starter, target: 'wait' },
    ];
    const id = await scheduledWorkflow(onSchedule({ scheduleType: 'minutes', minutesInterval: '10s' }, wait));
    await deployScheduled(id);
    try {
      // The first fire's run reaches the API call and waits there.
      await expect.poll(() => hold.received('GET', '/hold').length, { timeout: 60_000, interval: 200 }).toBe(1);
      const [first, ...others] = await scheduledRuns(id);
      expect(others).toEqual([]);
      expect(first?.status).toBe('running');

      // Two more due times pass while it is going: Temporal skips both, and nothing else starts.
      await expect.poll(async () => (await temporalRecord(id)).skippedOverlap, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(2);
      expect(await temporalRecord(id)).toMatchObject({ actions: 1, running: 1 });
      expect((await scheduledRuns(id)).map((r) => r.executionId)).toEqual([first?.executionId]);
      expect(hold.received('GET', '/hold')).toHaveLength(1);

      // Released, the run completes; the next due time after it fires a run of its own.
      const releasedAt = Date.now();
      release();
      expect(await finished(first?.executionId ?? '')).toMatchObject({ status: 'succeeded', trigger: 'schedule', deploymentVersion: 1, output: { data: { released: true } } });
      let next: ScheduledRun | undefined;
      await expect.poll(async () => (next = (await scheduledRuns(id))[1]), { timeout: 60_000, interval: 500 }).toBeDefined();
      // Skipped, not buffered: no fire due while the first run was going is run after it.
      expect(next?.due).toBeGreaterThanOrEqual(releasedAt);
      expect(await finished(next?.executionId ?? '')).toMatchObject({ status: 'succeeded', trigger: 'schedule' });
      expect(hold.received('GET', '/hold').length).toBeGreaterThanOrEqual(2);
    } finally {
      release();
      await undeploy(id);
      await hold.close();
    }
  }, 240_000);
});

describe('a runner start brings the schedules of its instance in line (a real runner process)', () => {
  it('runner start resync: a schedule an older runner wrote with a drifting spec gets the one its deployment makes, still paused', async () => {
    // A runner of its own instance and database sharing the stack's registry: it finds the
    // deployed workflow there, and the schedule below at that workflow's id under its instance.
    const base = inject('weftEnv');
    const instance = await createTestInstance();
    const database = await createScratchDatabase(base.DATABASE_URL ?? '', 'weft_e2e_resync');
    const connection = await Connection.connect({ address: base.TEMPORAL_ADDRESS ?? '' });
    const namespace = base.TEMPORAL_NAMESPACE ?? 'default';
    const id = await scheduledWorkflow(onSchedule({ scheduleType: 'daily', dailyTime: '09:30', timezone: 'Europe/Paris' }));
    await deployScheduled(id);
    const scheduleId = `${instance.instance}-schedule-${id}`;
    let runner: TestProcess | undefined;
    try {
      // As runners before d9c4105 wrote it: 09:30 Paris as a fixed UTC cron (an hour off half the year), paused.
      await connection.workflowService.createSchedule({
        namespace,
        scheduleId,
        requestId: randomUUID(),
        schedule: {
          spec: { cronString: ['30 8 * * *'], timezoneName: 'UTC' },
          action: { startWorkflow: { workflowId: `${instance.instance}-scheduled-${id}`, workflowType: { name: 'runWorkflow' }, taskQueue: { name: `${instance.instance}-runner` } } },
          state: { paused: true, notes: 'Paused through /api/schedules' },
        },
      });
      const described = () => connection.workflowService.describeSchedule({ namespace, scheduleId });
      expect((await described()).schedule?.spec?.timezoneName).toBe('UTC');

      runner = (await startServiceOnFreePort('runner', { ...base, WEFT_INSTANCE: instance.instance, DATABASE_URL: database.url })).service;
      await expect.poll(async () => (await described()).schedule?.spec?.timezoneName, { timeout: 60_000, interval: 250 }).toBe('Europe/Paris');
      const now = await described();
      expect(now.schedule?.state?.paused).toBe(true);
      expect(now.schedule?.action?.startWorkflow?.taskQueue?.name).toBe(`${instance.instance}-runner`);
      // 09:30 in Paris on each of the next days.
      const next = (now.info?.futureActionTimes ?? []).map((t) => new Date(Number(t.seconds ?? 0) * 1000).toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }));
      expect(next.length).toBeGreaterThan(0);
      for (const t of next) expect(t).toBe('09:30');
    } finally {
      await runner?.stop('SIGKILL');
      await connection.workflowService.deleteSchedule({ namespace, scheduleId }).catch(() => undefined);
      await connection.close();
      await undeploy(id);
      await instance.cleanup();
      await database.drop();
    }
  }, 300_000);
});
