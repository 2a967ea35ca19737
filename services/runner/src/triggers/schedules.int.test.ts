import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Client, Connection, ScheduleNotFoundError, type ScheduleSpec } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { backingEnv, createTestDatabase, uniqueSuffix } from '@weft/testkit';
import { createLogger, temporalLogger, type Database } from '@weft/platform';
import type { RunnableState } from '../workflows/types.js';
import type { RunnerDB } from '../db.js';
import { migrations } from '../migrations/index.js';
import { createScheduleManager, type ActiveDeployment, type ScheduleManager } from './schedules.js';
import { createScheduleIndex, scheduleLockKeyOf } from './scheduleIndex.js';
import { resyncSchedulesAtStart } from './registryEvents.js';

const probePath = fileURLToPath(new URL('./testing/scheduleProbe.workflow.ts', import.meta.url));
/** The probe worker as a process of its own (built code: `npx tsc -b` first). */
const workerScript = fileURLToPath(new URL('../../dist/triggers/testing/scheduleWorker.js', import.meta.url));
const logger = createLogger('schedules-test', 'silent');

const subBlocksOf = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([id, value]) => [id, { id, type: 'short-input', value }]));

/** A deployed state whose starter runs on the given schedule fields (none: the starter is manual), with schedule blocks by id. */
function scheduled(fields: Record<string, string> | undefined, blocks: Record<string, Record<string, string>> = {}): RunnableState {
  const starter = { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: subBlocksOf({ startWorkflow: fields ? 'schedule' : 'manual', ...fields }), data: {}, outputs: {} };
  const others = Object.fromEntries(Object.entries(blocks).map(([id, f]) => [id, { id, type: 'schedule', name: `Schedule ${id}`, enabled: true, subBlocks: subBlocksOf(f), data: {}, outputs: {} }]));
  return { blocks: { s: starter, ...others }, edges: [], loops: {}, parallels: {} } as unknown as RunnableState;
}

describe('schedules of deployed workflows on Temporal (real server)', () => {
  let connection: Connection | undefined;
  let client: Client;
  let database: (Database<RunnerDB> & { drop(): Promise<void> }) | undefined;
  const instance = `sched${uniqueSuffix()}`;
  const taskQueue = `${instance}-runner`;
  const deployments = new Map<string, ActiveDeployment>();
  /** Workflows whose deployment cannot be read (the registry fails for them). */
  const unreadable = new Set<string>();
  let schedules: ScheduleManager;
  /** The probe bundled once (bundling takes seconds, tens of them on a loaded machine). */
  let probe: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    Runtime.install({ logger: temporalLogger(logger) });
    connection = await Connection.connect({ address: (await backingEnv()).temporalAddress });
    client = new Client({ connection });
    probe = await bundleWorkflowCode({ workflowsPath: probePath, logger: temporalLogger(logger) });
    database = await createTestDatabase<RunnerDB>('schedules', migrations);
    schedules = managerOf((workflowId) => (unreadable.has(workflowId) ? Promise.reject(new Error(`registry down for ${workflowId}`)) : Promise.resolve(deployments.get(workflowId))));
  });

  /** A manager of this instance on the test's database (a runner process), reading deployments with `activeDeployment`. */
  const managerOf = (activeDeployment: (workflowId: string) => Promise<ActiveDeployment | undefined>) =>
    createScheduleManager({
      client,
      instance,
      taskQueue,
      integrationsTaskQueue: `${instance}-integrations`,
      overlap: 'skip',
      logger,
      activeDeployment,
      index: createScheduleIndex(database as Database<RunnerDB>, instance),
    });

  afterAll(async () => {
    for (const id of deployments.keys()) {
      deployments.delete(id);
      await schedules.sync(id);
    }
    await connection?.close();
    await database?.drop();
  });

  const deploy = (workflowId: string, version: number, fields: Record<string, string> | undefined, blocks: Record<string, Record<string, string>> = {}) =>
    deployments.set(workflowId, { workflowId, workspaceId: 'ws', actorId: 'owner', deploymentVersion: version, state: scheduled(fields, blocks) });

  it('follows the deployment: created, shown with its next five runs, updated, paused, resumed, removed', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    expect(await schedules.sync(wf)).toEqual([]);
    deploy(wf, 1, { scheduleType: 'minutes', minutesInterval: '10s' });
    const [created] = await schedules.sync(wf);
    expect(created).toMatchObject({ id: `${wf}:s`, workflowId: wf, blockId: 's', cronExpression: '@every 10s', timezone: 'UTC', status: 'active', deploymentVersion: 1, scheduleType: 'minutes' });
    const times = (created?.nextRunAt ?? []).map((t) => Date.parse(t));
    expect(times).toHaveLength(5);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBe(10_000);

    deploy(wf, 2, { scheduleType: 'weekly', weeklyDay: 'FRI', weeklyDayTime: '17:45', timezone: 'America/New_York' });
    const [updated, ...more] = await schedules.sync(wf);
    expect(more).toEqual([]);
    expect(updated).toMatchObject({ cronExpression: '45 17 * * 5', timezone: 'America/New_York', deploymentVersion: 2, scheduleType: 'weekly' });
    for (const t of updated?.nextRunAt ?? []) expect(new Date(t).getUTCDay()).toBe(5);

    expect(await schedules.pause(wf)).toMatchObject([{ status: 'paused', nextRunAt: [] }]);
    const [resumed] = await schedules.resume(wf);
    expect(resumed?.status).toBe('active');
    expect(resumed?.nextRunAt).toHaveLength(5);

    // A sync after the deployment is gone (undeploy, delete) removes it; again is harmless.
    deployments.delete(wf);
    expect(await schedules.sync(wf)).toEqual([]);
    expect(await schedules.get(wf)).toEqual([]);
    expect(await schedules.sync(wf)).toEqual([]);
    expect(await schedules.pause(wf)).toEqual([]);
  });

  it('one schedule per trigger (starter and schedule blocks), each firing on its own; a redeploy keeps, updates and removes them by block; pause and resume one or all', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    const every10s = { scheduleType: 'minutes', minutesInterval: '10s' };
    deploy(wf, 1, every10s, { nightly: { scheduleType: 'daily', dailyTime: '02:00', timezone: 'Asia/Tokyo' }, ticker: every10s });
    const views = await schedules.sync(wf);
    expect(views.map((v) => [v.id, v.blockId, v.cronExpression, v.timezone])).toEqual([
      [`${wf}:s`, 's', '@every 10s', 'UTC'],
      [`${wf}:nightly`, 'nightly', '0 2 * * *', 'Asia/Tokyo'],
      [`${wf}:ticker`, 'ticker', '@every 10s', 'UTC'],
    ]);
    const temporalIds = [`${instance}-schedule-${wf}`, `${instance}-schedule-${wf}:nightly`, `${instance}-schedule-${wf}:ticker`];
    for (const id of temporalIds) expect((await client.schedule.getHandle(id).describe()).state.paused).toBe(false);

    // The starter's and the ticker's schedules fire at the same due times: each starts its own run,
    // starting at its own block.
    const firstRun = async (scheduleId: string) => {
      let run = '';
      await expect
        .poll(async () => {
          const a = (await client.schedule.getHandle(scheduleId).describe()).info.recentActions[0];
          run = a?.action.type === 'startWorkflow' ? a.action.workflow.workflowId : '';
          return run;
        }, { timeout: 60_000, interval: 200 })
        .not.toBe('');
      return run;
    };
    const [starterRun, tickerRun] = await Promise.all([firstRun(temporalIds[0] ?? ''), firstRun(temporalIds[2] ?? '')]);
    expect(starterRun.startsWith(`${instance}-scheduled-${wf}-`)).toBe(true);
    expect(tickerRun.startsWith(`${instance}-scheduled-${wf}:ticker-`)).toBe(true);
    for (const run of [starterRun, tickerRun]) await client.workflow.getHandle(run).terminate('test done').catch(() => undefined);

    // One paused by its block; the others go on.
    expect(await schedules.pause(wf, 'nightly')).toMatchObject([{ id: `${wf}:nightly`, status: 'paused', nextRunAt: [] }]);
    expect((await schedules.get(wf)).map((v) => v.status)).toEqual(['active', 'paused', 'active']);

    // Redeployed without the ticker, the nightly one moved to 03:00, the starter manual: the ticker's
    // and the starter's schedules are deleted, the nightly one updated and still paused.
    deploy(wf, 2, undefined, { nightly: { scheduleType: 'daily', dailyTime: '03:00', timezone: 'Asia/Tokyo' } });
    expect(await schedules.sync(wf)).toMatchObject([{ id: `${wf}:nightly`, cronExpression: '0 3 * * *', deploymentVersion: 2, status: 'paused' }]);
    for (const id of [temporalIds[0], temporalIds[2]]) await expect(client.schedule.getHandle(id ?? '').describe()).rejects.toThrow(ScheduleNotFoundError);

    // A trigger added back gets its schedule again; all paused, all resumed by the workflow.
    deploy(wf, 3, every10s, { nightly: { scheduleType: 'daily', dailyTime: '03:00', timezone: 'Asia/Tokyo' } });
    expect((await schedules.sync(wf)).map((v) => [v.id, v.status])).toEqual([[`${wf}:s`, 'active'], [`${wf}:nightly`, 'paused']]);
    expect((await schedules.pause(wf)).map((v) => v.status)).toEqual(['paused', 'paused']);
    expect((await schedules.resume(wf)).map((v) => v.status)).toEqual(['active', 'active']);
    expect(await schedules.resume(wf, 'gone')).toEqual([]);

    // Undeployed: every one is deleted, and forgotten.
    deployments.delete(wf);
    expect(await schedules.sync(wf)).toEqual([]);
    for (const id of temporalIds.slice(0, 2)) await expect(client.schedule.getHandle(id).describe()).rejects.toThrow(ScheduleNotFoundError);
    expect(await createScheduleIndex(database as Database<RunnerDB>, instance).of(wf)).toEqual([]);
  }, 200_000);

  it("lists many workflows' schedules in one call, a page at a time in schedule id order (a workflow's together, its starter's first); one gone from Temporal, another instance's and an unasked workflow's are left out", async () => {
    const suffix = uniqueSuffix();
    const [a, b, none, unasked] = [`wfa-${suffix}`, `wfb-${suffix}`, `wfc-${suffix}`, `wfd-${suffix}`];
    const every10s = { scheduleType: 'minutes', minutesInterval: '10s' };
    deploy(a, 1, every10s, { nightly: { scheduleType: 'daily', dailyTime: '02:00', timezone: 'Asia/Tokyo' } });
    deploy(b, 3, { scheduleType: 'hourly', hourlyMinute: '5' });
    deploy(unasked, 1, every10s);
    for (const wf of [a, b, unasked]) await schedules.sync(wf);
    await createScheduleIndex(database as Database<RunnerDB>, `other${suffix}`).add(a, `other${suffix}-schedule-${a}`);
    const asked = [b, none, a, 'no-such-workflow'];

    const all = await schedules.list(asked, 500);
    expect(all.next).toBeUndefined();
    expect(all.schedules.map((v) => [v.id, v.workflowId, v.blockId, v.cronExpression, v.status, v.deploymentVersion])).toEqual([
      [`${a}:s`, a, 's', '@every 10s', 'active', 1],
      [`${a}:nightly`, a, 'nightly', '0 2 * * *', 'active', 1],
      [`${b}:s`, b, 's', '5 * * * *', 'active', 3],
    ]);
    expect(all.schedules[0]?.nextRunAt).toHaveLength(5);

    // Two at a time: the first page says where the second starts; the second is the last.
    const first = await schedules.list(asked, 2);
    expect(first.schedules.map((v) => v.id)).toEqual([`${a}:s`, `${a}:nightly`]);
    expect(first.next).toBe(`${instance}-schedule-${a}:nightly`);
    const second = await schedules.list(asked, 2, first.next);
    expect(second).toEqual({ schedules: [all.schedules[2]] });

    // Paused shows as paused; a schedule deleted behind the runner's back is left out, not a failure.
    await schedules.pause(b);
    await client.schedule.getHandle(`${instance}-schedule-${a}:nightly`).delete();
    expect((await schedules.list(asked, 500)).schedules.map((v) => [v.id, v.status, v.nextRunAt.length])).toEqual([
      [`${a}:s`, 'active', 5],
      [`${b}:s`, 'paused', 0],
    ]);
    expect(await schedules.list([], 500)).toEqual({ schedules: [] });

    for (const wf of [a, b, unasked]) {
      deployments.delete(wf);
      await schedules.sync(wf);
    }
    expect(await schedules.list(asked, 500)).toEqual({ schedules: [] });
  }, 200_000);

  it('at a runner start, schedules written by an older runner get the spec their deployment makes now (pause kept, a block\'s moved to its own id), a stale one goes, a failing workflow is logged and the rest go on; a second start changes nothing', async () => {
    const [kept, moved, stale, failing] = ['kept', 'moved', 'stale', 'failing'].map((n) => `wf-${n}-${uniqueSuffix()}`) as [string, string, string, string];
    // What runners before d9c4105 wrote: one schedule per workflow at `<instance>-schedule-<id>`, a
    // fixed UTC cron for 09:30 Paris (drifting an hour at each clock change), an interval phased as
    // of the deploy for every 45 minutes; no block in the memo (it is in the run's arguments).
    const legacy = (workflowId: string, triggerBlockId: string, spec: ScheduleSpec, paused: boolean) =>
      client.schedule.create({
        scheduleId: `${instance}-schedule-${workflowId}`,
        spec,
        action: { type: 'startWorkflow', workflowType: 'runWorkflow', workflowId: `${instance}-scheduled-${workflowId}`, taskQueue, args: [{ workflowId, triggerBlockId }], memo: { cronExpression: 'old', timezone: 'UTC', scheduleType: 'daily', deploymentVersion: 1 } },
        ...(paused ? { state: { paused: true, note: 'Paused through /api/schedules' } } : {}),
      });
    deploy(kept, 1, { scheduleType: 'daily', dailyTime: '09:30', timezone: 'Europe/Paris' });
    await legacy(kept, 's', { cronExpressions: ['30 8 * * *'] }, true);
    deploy(moved, 1, undefined, { b: { scheduleType: 'minutes', minutesInterval: '45', minutesStartingAt: '09:00', timezone: 'Europe/Paris' } });
    await legacy(moved, 'b', { intervals: [{ every: '45m', offset: '0s' }] }, false);
    // Recorded by this runner, then undeployed while no event reached it.
    deploy(stale, 1, { scheduleType: 'hourly' });
    await schedules.sync(stale);
    deployments.delete(stale);
    deploy(failing, 1, { scheduleType: 'hourly' });
    await schedules.sync(failing);
    unreadable.add(failing);
    // Deployed with a schedule trigger but no schedule of this instance (another instance's runner
    // shares the registry, or its deploy event is still to come): the start makes none.
    const elsewhere = `wf-elsewhere-${uniqueSuffix()}`;
    deploy(elsewhere, 1, { scheduleType: 'hourly' });

    const parisTime = (iso: string) => new Date(iso).toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
    const check = async () => {
      const [k, ...moreKept] = await schedules.get(kept);
      expect(moreKept).toEqual([]);
      expect(k).toMatchObject({ id: `${kept}:s`, blockId: 's', cronExpression: '30 9 * * *', timezone: 'Europe/Paris', status: 'paused' });
      const keptSpec = (await client.schedule.getHandle(`${instance}-schedule-${kept}`).describe()).spec;
      expect(keptSpec.timezone).toBe('Europe/Paris');
      await client.schedule.getHandle(`${instance}-schedule-${kept}`).unpause();
      expect((await schedules.get(kept))[0]?.nextRunAt.map(parisTime)).toEqual(Array(5).fill('09:30'));
      await client.schedule.getHandle(`${instance}-schedule-${kept}`).pause();

      const [m, ...moreMoved] = await schedules.get(moved);
      expect(moreMoved).toEqual([]);
      expect(m).toMatchObject({ id: `${moved}:b`, blockId: 'b', cronExpression: '@every 2700s', timezone: 'Europe/Paris', status: 'active' });
      await expect(client.schedule.getHandle(`${instance}-schedule-${moved}`).describe()).rejects.toThrow(ScheduleNotFoundError);
      const movedSpec = (await client.schedule.getHandle(`${instance}-schedule-${moved}:b`).describe()).spec;
      expect([movedSpec.intervals ?? [], (movedSpec.calendars ?? []).length > 0]).toEqual([[], true]);
      // 09:00 and every 45 minutes of Paris time, whatever the day.
      for (const t of m?.nextRunAt ?? []) {
        const [h, min] = parisTime(t).split(':').map(Number);
        expect((((h ?? 0) * 60 + (min ?? 0) - 540) % 45 + 45) % 45).toBe(0);
      }
      expect(await schedules.get(stale)).toEqual([]);
      expect(await createScheduleIndex(database as Database<RunnerDB>, instance).of(stale)).toEqual([]);
    };

    const started = await resyncSchedulesAtStart(schedules, () => Promise.resolve([kept, moved, failing, elsewhere]), logger, []);
    expect(started).toEqual({ synced: 3, failed: [failing] });
    await check();
    expect(await schedules.get(elsewhere)).toEqual([]);
    // The failing one was left as it was.
    expect(await schedules.get(failing)).toMatchObject([{ cronExpression: '0 * * * *' }]);
    // Another start: the same schedules, nothing duplicated.
    await resyncSchedulesAtStart(schedules, () => Promise.resolve([kept, moved, failing]), logger, []);
    await check();
    // A registry that cannot list yet is asked again; one that never can is logged, not thrown.
    let calls = 0;
    const late = () => (++calls < 3 ? Promise.reject(new Error('registry starting')) : Promise.resolve([kept]));
    expect(await resyncSchedulesAtStart(schedules, late, logger, [0, 0, 0])).toMatchObject({ failed: [failing] });
    expect(calls).toBe(3);
    expect(await resyncSchedulesAtStart(schedules, () => Promise.reject(new Error('down')), logger, [0])).toBeUndefined();

    unreadable.delete(failing);
    for (const wf of [kept, moved, failing, elsewhere]) {
      deployments.delete(wf);
      await schedules.sync(wf);
    }
  }, 200_000);

  it('a schedule block\'s schedule an older runner left paused at the workflow\'s id keeps its pause when a deploy before the resync makes the starter a schedule too (the starter takes that id, active)', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    await client.schedule.create({
      scheduleId: `${instance}-schedule-${wf}`,
      spec: { intervals: [{ every: '45m', offset: '0s' }] },
      action: { type: 'startWorkflow', workflowType: 'runWorkflow', workflowId: `${instance}-scheduled-${wf}`, taskQueue, args: [{ workflowId: wf, triggerBlockId: 'b' }], memo: { cronExpression: 'old', timezone: 'UTC', scheduleType: 'minutes', deploymentVersion: 1 } },
      state: { paused: true, note: 'Paused through /api/schedules' },
    });
    deploy(wf, 2, { scheduleType: 'hourly' }, { b: { scheduleType: 'daily', dailyTime: '02:00' } });
    expect((await schedules.sync(wf)).map((v) => [v.id, v.cronExpression, v.status])).toEqual([
      [`${wf}:s`, '0 * * * *', 'active'],
      [`${wf}:b`, '0 2 * * *', 'paused'],
    ]);
    deployments.delete(wf);
    expect(await schedules.sync(wf)).toEqual([]);
  }, 60_000);

  it('two runner processes (two managers on one database): a sync that read a deployment holds the workflow until it is done, so another\'s sync after an undeploy removes what it made', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    deploy(wf, 1, { scheduleType: 'hourly' });
    const order: string[] = [];
    let readDeployed = () => undefined as void;
    const read = new Promise<void>((resolve) => (readDeployed = resolve));
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The other process: its start's resync reads "deployed", then is slow to write the schedule.
    const other = managerOf(async (workflowId) => {
      const d = deployments.get(workflowId);
      order.push(`other read ${d ? 'deployed' : 'undeployed'}`);
      readDeployed();
      await held;
      return d;
    });
    const first = other.sync(wf);
    // What a failure leaves is removed (this manager syncs after the other).
    onTestFinished(async () => {
      release();
      await first.catch(() => undefined);
      deployments.delete(wf);
      await schedules.sync(wf);
    });
    await read;
    // Undeployed meanwhile; this process's event consumer syncs.
    deployments.delete(wf);
    const second = schedules.sync(wf).then((views) => {
      order.push('this synced');
      return views;
    });
    // Released once this sync waits for the other's lock (before the fix: once it has synced). Only a wait on this
    // workflow's lock counts: other test files wait on advisory locks of the same database meanwhile.
    const waiting = async () =>
      order.includes('this synced') ||
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and objsubid = 1 and ((classid::bigint << 32) | objid::bigint) = hashtext(${scheduleLockKeyOf(instance, wf)})::bigint`.execute(
            database?.db as Kysely<RunnerDB>,
          )
        ).rows[0]?.n ?? 0,
      ) > 0;
    await expect.poll(waiting, { timeout: 30_000, interval: 50 }).toBe(true);
    release();
    expect((await first).map((v) => v.id)).toEqual([`${wf}:s`]);
    expect(await second).toEqual([]);
    expect(order).toEqual(['other read deployed', 'this synced']);
    await expect(client.schedule.getHandle(`${instance}-schedule-${wf}`).describe()).rejects.toThrow(ScheduleNotFoundError);
    expect(await schedules.get(wf)).toEqual([]);
  }, 60_000);

  it('a sync whose lock connection is lost midway fails alone (the runner goes on), and the next sync of the workflow takes the lock and makes its schedule', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    const db = database?.db as Kysely<RunnerDB>;
    deploy(wf, 1, { scheduleType: 'hourly' });
    onTestFinished(async () => {
      deployments.delete(wf);
      await schedules.sync(wf);
    });
    // The backend holding the workflow's lock (a bigint advisory key is shown as its two halves).
    const holder = async () =>
      (
        await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and granted and objsubid = 1 and ((classid::bigint << 32) | objid::bigint) = hashtext(${scheduleLockKeyOf(instance, wf)})::bigint`.execute(db)
      ).rows[0]?.pid;
    const gone = async (pid: number) => (await sql<{ n: string }>`select count(*) as n from pg_stat_activity where pid = ${pid}`.execute(db)).rows[0]?.n === '0';
    // Postgres drops the lock's connection while the sync reads the deployment (a restart, a network cut).
    const cut = managerOf(async (workflowId) => {
      const pid = (await holder()) ?? 0;
      expect(pid).toBeGreaterThan(0);
      await sql`select pg_terminate_backend(${pid})`.execute(db);
      await expect.poll(() => gone(pid), { timeout: 10_000, interval: 50 }).toBe(true);
      return deployments.get(workflowId);
    });
    // Which of pg's errors the sync sees depends on when the server's goodbye reaches the client (as in
    // platform's advisoryLock test): the terminating error itself, the socket's end, or the client already marked unusable.
    await expect(cut.sync(wf)).rejects.toThrow(/terminating connection due to administrator command|Connection terminated unexpectedly|Client has encountered a connection error and is not queryable/);
    expect(await holder()).toBeUndefined();
    expect((await schedules.sync(wf)).map((v) => [v.id, v.cronExpression])).toEqual([[`${wf}:s`, '0 * * * *']]);
  }, 60_000);

  it('the schedules recorded by another instance\'s runner on the same database are not this one\'s: its sync and resync leave them', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    const db = database as Database<RunnerDB>;
    // Another instance whose name starts like this one's.
    const otherInstance = `${instance}-schedule-x`;
    const theirs = createScheduleIndex(db, otherInstance);
    const ids = [`${otherInstance}-schedule-${wf}`, `${otherInstance}-schedule-${wf}:b`];
    for (const id of ids) await theirs.add(wf, id);
    const ours = createScheduleIndex(db, instance);
    expect(await ours.of(wf)).toEqual([]);
    expect(await ours.workflows()).not.toContain(wf);
    expect(await schedules.sync(wf)).toEqual([]);
    expect(await schedules.resync([wf])).toMatchObject({ failed: [] });
    expect(await theirs.of(wf)).toEqual(ids);
    expect(await theirs.workflows()).toContain(wf);
    for (const id of ids) await theirs.remove(id);
  }, 60_000);

  /**
   * Temporal's backfill runs a schedule's actions for a past range as if time had passed: the stand-in
   * for time skipping, which needs a test server this machine cannot download (docs/triggers.md).
   */
  it('fires at each due time of its spec and timezone over a backfilled week across a daylight-saving change (daily, every 90 minutes), a daily time the spring change skips run shifted as cron runs it, and monthly over a year', async () => {
    const scheduledStarts = async (wf: string, expected: number): Promise<string[]> => {
      const query = `TemporalScheduledById = "${instance}-schedule-${wf}"`;
      let starts: string[] = [];
      await expect
        .poll(
          async () => {
            starts = [];
            for await (const w of client.workflow.list({ query })) {
              const at = w.searchAttributes.TemporalScheduledStartTime?.[0];
              if (at instanceof Date) starts.push(at.toISOString());
            }
            return starts.length;
          },
          { timeout: 60_000, interval: 250 },
        )
        .toBe(expected);
      for await (const w of client.workflow.list({ query })) await client.workflow.getHandle(w.workflowId, w.runId).terminate('backfill test done').catch(() => undefined);
      return starts.sort();
    };
    const backfill = (wf: string, start: string, end: string) =>
      client.schedule.getHandle(`${instance}-schedule-${wf}`).backfill([{ start: new Date(start), end: new Date(end), overlap: 'ALLOW_ALL' }]);

    // Daily at 09:30 in Paris: 08:30 UTC until the clocks go forward on 29 March 2026, 07:30 UTC after.
    const daily = `wf-${uniqueSuffix()}`;
    deploy(daily, 1, { scheduleType: 'daily', dailyTime: '09:30', timezone: 'Europe/Paris' });
    await schedules.sync(daily);
    await backfill(daily, '2026-03-25T00:00:00Z', '2026-04-02T00:00:00Z');
    expect(await scheduledStarts(daily, 8)).toEqual([
      '2026-03-25T08:30:00.000Z',
      '2026-03-26T08:30:00.000Z',
      '2026-03-27T08:30:00.000Z',
      '2026-03-28T08:30:00.000Z',
      '2026-03-29T07:30:00.000Z',
      '2026-03-30T07:30:00.000Z',
      '2026-03-31T07:30:00.000Z',
      '2026-04-01T07:30:00.000Z',
    ]);

    // Every 90 minutes from 09:00 in Paris: the same local times on both sides of the change (…,
    // 00:00, 01:30, then 03:00 once the clocks went forward, 04:30, …, 09:00), so the UTC gap is
    // 30 minutes that night; an interval of 90 minutes of absolute time would fire at 08:00 local after it.
    const ninety = `wf-${uniqueSuffix()}`;
    deploy(ninety, 1, { scheduleType: 'minutes', minutesInterval: '90', minutesStartingAt: '09:00', timezone: 'Europe/Paris' });
    await schedules.sync(ninety);
    await backfill(ninety, '2026-03-28T19:45:00Z', '2026-03-29T11:45:00Z');
    expect(await scheduledStarts(ninety, 12)).toEqual(
      ['2026-03-28T20:00', '2026-03-28T21:30', '2026-03-28T23:00', '2026-03-29T00:30', '2026-03-29T01:00', '2026-03-29T02:30', '2026-03-29T04:00', '2026-03-29T05:30', '2026-03-29T07:00', '2026-03-29T08:30', '2026-03-29T10:00', '2026-03-29T11:30'].map(
        (t) => `${t}:00.000Z`,
      ),
    );

    // Daily at 02:30 in Paris, a time the clocks skip on 28 March 2027: that night it runs at 03:30
    // (01:30 UTC), as cron and the form's next runs have it; Temporal alone would skip the day.
    const gap = `wf-${uniqueSuffix()}`;
    deploy(gap, 1, { scheduleType: 'daily', dailyTime: '02:30', timezone: 'Europe/Paris' });
    await schedules.sync(gap);
    await backfill(gap, '2027-03-26T00:00:00Z', '2027-03-31T00:00:00Z');
    expect(await scheduledStarts(gap, 5)).toEqual(['2027-03-26T01:30', '2027-03-27T01:30', '2027-03-28T01:30', '2027-03-29T00:30', '2027-03-30T00:30'].map((t) => `${t}:00.000Z`));

    // Monthly on the 15th at 06:00 UTC over 2025: twelve fires, one a month.
    const monthly = `wf-${uniqueSuffix()}`;
    deploy(monthly, 1, { scheduleType: 'monthly', monthlyDay: '15', monthlyTime: '06:00' });
    await schedules.sync(monthly);
    await backfill(monthly, '2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
    expect(await scheduledStarts(monthly, 12)).toEqual(Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, '0')}-15T06:00:00.000Z`));

    for (const wf of [daily, ninety, gap, monthly]) {
      deployments.delete(wf);
      await schedules.sync(wf);
    }
  }, 200_000);

  /** Runs the probe on the schedules' queue in this process until `handle` has its result. */
  async function completeWithWorker<T>(result: () => Promise<T>): Promise<T> {
    const workerConnection = await NativeConnection.connect({ address: (await backingEnv()).temporalAddress });
    try {
      const worker = await Worker.create({ connection: workerConnection, taskQueue, workflowBundle: probe });
      return await worker.runUntil(result());
    } finally {
      await workerConnection.close();
    }
  }

  /** The workflow id of the schedule's first fire, once it has fired. */
  async function firstFire(wf: string): Promise<string> {
    const handle = client.schedule.getHandle(`${instance}-schedule-${wf}`);
    let id = '';
    await expect
      .poll(
        async () => {
          const first = (await handle.describe()).info.recentActions[0];
          id = first?.action.type === 'startWorkflow' ? first.action.workflow.workflowId : '';
          return id;
        },
        { timeout: 60_000, interval: 100 },
      )
      .not.toBe('');
    return id;
  }

  it('a worker process killed (SIGKILL) while its scheduled run is going: another worker finishes that run, and it fired once', async () => {
    expect(existsSync(workerScript), `${workerScript} is missing: run npx tsc -b first`).toBe(true);
    const child = spawn(process.execPath, [workerScript], { env: { ...process.env, TEMPORAL_ADDRESS: (await backingEnv()).temporalAddress, TASK_QUEUE: taskQueue }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => /^ready$/m.test(d.toString()) && resolve());
        child.once('exit', (code) => reject(new Error(`the worker process exited with ${code}`)));
      });
      const wf = `wf-${uniqueSuffix()}`;
      deploy(wf, 4, { scheduleType: 'minutes', minutesInterval: '10s' });
      await schedules.sync(wf);
      const runId = await firstFire(wf);
      const run = client.workflow.getHandle(runId);
      // The process has taken the run: its durable timer (the probe's 15 s) is started. Then it dies.
      await expect.poll(async () => (await run.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes) ?? false, { timeout: 60_000, interval: 100 }).toBe(true);
      child.kill('SIGKILL');
      await exited;
      expect((await run.describe()).status.name).toBe('RUNNING');

      expect(await completeWithWorker(() => run.result())).toEqual({ workflowId: wf, trigger: 'schedule', deploymentVersion: 4, actorId: 'owner' });
      const fired = (await client.schedule.getHandle(`${instance}-schedule-${wf}`).describe()).info.recentActions;
      const sameDue = fired.filter((a) => a.scheduledAt.getTime() === fired[0]?.scheduledAt.getTime());
      expect(sameDue).toHaveLength(1);
      deployments.delete(wf);
      await schedules.sync(wf);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);

  it('fires while no worker is up, skips the next fire while that run is still going, and the run completes once a worker is back', async () => {
    const wf = `wf-${uniqueSuffix()}`;
    deploy(wf, 3, { scheduleType: 'minutes', minutesInterval: '10s' });
    await schedules.sync(wf);
    const handle = client.schedule.getHandle(`${instance}-schedule-${wf}`);
    // No worker polls the queue: the server still starts the run when it is due.
    const firstRunId = await firstFire(wf);
    // That run is still going (nobody runs it), so the next due time is skipped, not piled up.
    await expect.poll(async () => (await handle.describe()).info.numActionsSkippedOverlap, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(1);
    expect((await handle.describe()).info.recentActions).toHaveLength(1);

    const result = await completeWithWorker(() => client.workflow.getHandle(firstRunId).result());
    expect(result).toEqual({ workflowId: wf, trigger: 'schedule', deploymentVersion: 3, actorId: 'owner' });
    deployments.delete(wf);
    await schedules.sync(wf);
  }, 200_000);
});
