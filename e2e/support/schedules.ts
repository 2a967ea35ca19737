import { Connection } from '@temporalio/client';
import { expect, inject } from 'vitest';
import { api } from './http.js';

/** One schedule as /api/schedules shows it (its id `<workflowId>:<blockId>`). */
export interface ScheduleView {
  id: string;
  workflowId: string;
  blockId: string;
  cronExpression: string;
  timezone: string;
  nextRunAt: string[];
  lastRunAt: string | null;
  status: string;
  scheduleType: string;
  deploymentVersion: number;
}

/** What GET /api/schedules?workflowId= answers: the first schedule under the workflow's id, and every one. */
export interface WorkflowSchedules extends ScheduleView {
  schedules: ScheduleView[];
}

/** A schedule run as the executions list shows it, with the due time its id carries. */
export interface ScheduledRun {
  executionId: string;
  status: string;
  trigger: string;
  deploymentVersion: number | null;
  output: unknown;
  /** The fire's due time (ms): Temporal names a scheduled run `<schedule's workflow id>-<RFC 3339 due time>`. */
  due: number;
}

/** A new workflow of the file's account with `commands(starter id)` applied; answers its id. */
export async function scheduledWorkflow(commands: (starter: string) => unknown[]): Promise<string> {
  const { body: spaces } = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  const made = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: spaces.workspaces[0]?.id });
  expect(made.status).toBe(201);
  const { body: read } = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${made.body.id}`);
  const starter = Object.values(read.data.state.blocks).find((b) => b.type === 'starter')?.id ?? '';
  expect((await api('POST', `/api/workflows/${made.body.id}/commands`, { commands: commands(starter) })).status).toBe(200);
  return made.body.id;
}

/** Deploys the workflow (its schedule is written before the answer) and answers its schedule. */
export async function deployScheduled(workflowId: string): Promise<WorkflowSchedules> {
  const deployed = await api('POST', `/api/workflows/${workflowId}/deploy`, {});
  expect(deployed.status, JSON.stringify(deployed.body)).toBe(200);
  return schedule(workflowId);
}

export async function schedule(workflowId: string): Promise<WorkflowSchedules> {
  const got = await api<WorkflowSchedules>('GET', `/api/schedules?workflowId=${workflowId}`);
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return got.body;
}

/** Every schedule run of the workflow the gateway lists (all pages), oldest due time first. */
export async function scheduledRuns(workflowId: string): Promise<ScheduledRun[]> {
  const runs: ScheduledRun[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { executions: Array<Omit<ScheduledRun, 'due'>>; nextCursor: string | null } } = await api('GET', `/api/workflows/${workflowId}/executions?trigger=schedule&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status).toBe(200);
    for (const e of page.body.executions) {
      const due = /-(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/.exec(e.executionId)?.[1];
      expect(due, `a scheduled run's id ends with its due time: ${e.executionId}`).toBeDefined();
      runs.push({ ...e, due: Date.parse(due ?? '') });
    }
    cursor = page.body.nextCursor;
  } while (cursor);
  return runs.sort((a, b) => a.due - b.due);
}

/** What the stack's Temporal server recorded of a workflow's schedule. */
export interface TemporalRecord {
  paused: boolean;
  /** Actions taken in all. */
  actions: number;
  /** Fires skipped because the previous run was still going (overlap policy skip). */
  skippedOverlap: number;
  /** Runs the schedule started that are still going. */
  running: number;
  /** The recent fires (Temporal keeps the last ten): due time and when it was taken, in ms. */
  recent: Array<{ due: number; takenAt: number }>;
}

type Long = { toNumber(): number } | number | string | null | undefined;
const num = (v: Long): number => (v === null || v === undefined ? 0 : typeof v === 'object' ? v.toNumber() : Number(v));
const ms = (t: { seconds?: Long; nanos?: number | null } | null | undefined): number => num(t?.seconds) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

let connection: Promise<Connection> | undefined;

/** The workflow's Temporal Schedule (`<instance>-schedule-<workflowId>`) as the server describes it. */
export async function temporalRecord(workflowId: string): Promise<TemporalRecord> {
  const env = inject('weftEnv');
  connection ??= Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  // The raw call: the schedule's action carries encrypted payloads a client here could not decode.
  const d = await (await connection).workflowService.describeSchedule({ namespace: env.TEMPORAL_NAMESPACE ?? 'default', scheduleId: `${env.WEFT_INSTANCE ?? ''}-schedule-${workflowId}` });
  return {
    paused: d.schedule?.state?.paused ?? false,
    actions: num(d.info?.actionCount),
    skippedOverlap: num(d.info?.overlapSkipped),
    running: d.info?.runningWorkflows?.length ?? 0,
    recent: (d.info?.recentActions ?? []).map((a) => ({ due: ms(a.scheduleTime), takenAt: ms(a.actualTime) })),
  };
}

export async function closeTemporal(): Promise<void> {
  const open = connection;
  connection = undefined;
  await (await open)?.close();
}
