import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError, appendOutbox, createEnvelope, type EventEnvelope } from '@weft/platform';
import type { BlockLogStatus, ExecutionStatus, RunnerDB } from './db.js';
import { reusedLogsOf, type ReusedLogs } from './reusedLogs.js';
import type { AttemptRecord, BlockLog, CostSummary, RunEvent, RunResult, RunTrigger, RunnableState, TokenUsage } from './workflows/types.js';

/**
 * The run log: executions, one row per block run, and the numbered event log an SSE reader replays.
 * Every write goes through `recordRunEvent`, idempotent per event (a retried activity, or the
 * runner's own watcher and the workflow both reporting the end, write once; the first one wins).
 */

/** Where the log reports what it wrote: outbox relay and live readers. */
export interface RunLogDeps {
  db: Kysely<RunnerDB>;
  instance: string;
  /** Wakes the outbox relay after a commit that wrote outbox rows. */
  kick(): void;
  /** Wakes readers of the run's events after a commit. */
  notify(executionId: string): void;
}

/** A new execution row (the API side writes it before starting the run). */
export interface NewExecution {
  executionId: string;
  workflowId: string;
  trigger: RunTrigger;
  input: unknown;
  workspaceId?: string | undefined;
  actorId?: string | undefined;
  deploymentVersion?: number | undefined;
  state?: RunnableState | undefined;
  rerunOf?: string | undefined;
  fromBlockId?: string | undefined;
  startedAt?: Date;
}

/** A stored run event as readers see it (`seq` numbers the run's events from 1). */
export interface StoredRunEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
  at: string;
}

/** One block's log as the API shows it: a finished block's, or one still running (of a run still going). */
export type BlockLogView = FinishedBlockLogView | RunningBlockLogView;

export interface FinishedBlockLogView extends BlockLog {
  status: Exclude<BlockLogStatus, 'running'>;
}

/** A block still running: neither a success nor a failure yet (no `success`), and no end. */
export interface RunningBlockLogView extends Omit<BlockLog, 'success' | 'endedAt' | 'durationMs'> {
  status: 'running';
  running: true;
  success?: undefined;
  endedAt?: undefined;
  durationMs?: undefined;
}

export interface ExecutionView {
  executionId: string;
  workflowId: string;
  workspaceId: string | null;
  status: ExecutionStatus;
  trigger: string;
  input: unknown;
  output: unknown;
  error: string | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  cost: CostSummary | null;
  tokens: TokenUsage | null;
  response: RunResult['response'] | null;
  deploymentVersion: number | null;
  actorId: string | null;
  rerunOf: string | null;
  fromBlockId: string | null;
  /** The number of the run's last event (where an SSE reader that saw everything stands). */
  lastSeq: number;
  logs?: BlockLogView[];
}

/**
 * Run events that can never be recorded, whatever the tries: one holding a value nested deeper than
 * JSON.stringify can walk (thousands of levels: a RangeError, stack exhausted). The run-log activity
 * fails them non-retryably, so a run's end is never retried forever.
 */
export class UnrecordableRunEventError extends AppError {
  constructor(message: string) {
    super('validation', message);
    this.name = 'UnrecordableRunEventError';
  }
}

/** The failure type the run-log activity gives an `UnrecordableRunEventError` (non-retryable). */
export const UNRECORDABLE_RUN_EVENT = 'UnrecordableRunEvent';

/**
 * The error a run is recorded with when its workflow failed recording its end (`reason`: the
 * activity's own message, naming the events and why), instead of Temporal's "Activity task failed".
 */
export function unrecordedEndMessage(reason: string): string {
  return `The run's end could not be recorded: ${reason}`;
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** Identifies one run of a block: its id plus loop iteration and parallel branch indexes. */
export function blockLogKey(blockId: string, loopIteration?: number[], parallelBranch?: number[]): string {
  let key = blockId;
  if (loopIteration && loopIteration.length > 0) key += `@l${loopIteration.join('.')}`;
  if (parallelBranch && parallelBranch.length > 0) key += `@p${parallelBranch.join('.')}`;
  return key;
}

/** Writes the execution row unless it exists (a start retried, or a run Temporal started itself). */
export async function createExecution(db: Kysely<RunnerDB> | Transaction<RunnerDB>, e: NewExecution): Promise<void> {
  await db
    .insertInto('executions')
    .values({
      id: e.executionId,
      workflow_id: e.workflowId,
      status: 'running',
      trigger: e.trigger,
      input: JSON.stringify(e.input ?? null),
      workspace_id: e.workspaceId ?? null,
      actor_id: e.actorId ?? null,
      deployment_version: e.deploymentVersion ?? null,
      state: json(e.state),
      rerun_of: e.rerunOf ?? null,
      from_block_id: e.fromBlockId ?? null,
      // Milliseconds, as JavaScript has them: list cursors carry this value exactly.
      started_at: e.startedAt ?? new Date(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

function statusOf(result: RunResult): ExecutionStatus {
  if (result.cancelled) return 'cancelled';
  return result.success ? 'succeeded' : 'failed';
}

/** What a run event stores for readers and publishes (large logs stay in block_logs). */
/** The event key of a run's end. */
const RUN_COMPLETED_KEY = 'run:completed';

function eventData(event: RunEvent): { key: string; type: string; data: Record<string, unknown> } {
  switch (event.type) {
    case 'runStarted':
      return { key: 'run:started', type: event.type, data: { executionId: event.executionId, workflowId: event.workflowId, startedAt: event.at } };
    case 'blockStarted': {
      const { type, executionId, at, ...rest } = event;
      return { key: `block:${blockLogKey(event.blockId, event.loopIteration, event.parallelBranch)}:started`, type, data: { executionId, startedAt: at, ...rest } };
    }
    case 'blockCompleted':
    case 'blockError':
      return { key: doneKey(event.log), type: event.type, data: { executionId: event.executionId, ...event.log } };
    case 'runCompleted': {
      const { logs: _logs, ...result } = event.result;
      return { key: RUN_COMPLETED_KEY, type: event.type, data: { executionId: event.executionId, workflowId: event.workflowId, status: statusOf(event.result), ...result } };
    }
    default: {
      const never: never = event;
      throw new Error(`unknown run event ${JSON.stringify(never)}`);
    }
  }
}

async function upsertBlockLog(trx: Transaction<RunnerDB>, executionId: string, position: number, log: BlockLog): Promise<void> {
  const status: BlockLogStatus = log.skipped ? 'skipped' : log.cancelled ? 'cancelled' : log.success ? 'succeeded' : 'failed';
  const values = {
    block_name: log.blockName,
    block_type: log.blockType,
    status,
    input: json(log.input),
    output: json(log.output),
    error: log.error ?? null,
    attempts: log.attempts ?? null,
    attempt_log: json(log.attemptLog),
    tokens: json(log.tokens),
    cost: json(log.cost),
    loop_iteration: json(log.loopIteration),
    parallel_branch: json(log.parallelBranch),
    started_at: log.startedAt,
    ended_at: log.endedAt,
    duration_ms: Math.round(log.durationMs),
    reused: log.reused === true ? true : null,
  };
  await trx
    .insertInto('block_logs')
    .values({ execution_id: executionId, log_key: blockLogKey(log.blockId, log.loopIteration, log.parallelBranch), position, block_id: log.blockId, ...values })
    .onConflict((oc) => oc.columns(['execution_id', 'log_key']).doUpdateSet(values))
    .execute();
}

/**
 * Records one run event: appends it to the run's numbered log, applies it to the execution and its
 * block logs, and writes `runStarted`, `blockCompleted` (also for a failed block) and `runCompleted`
 * to the outbox on `<instance>.runner.run.<executionId>`. Answers false when it was recorded before.
 */
export async function recordRunEvent(deps: RunLogDeps, event: RunEvent): Promise<boolean> {
  return (await recordRunEvents(deps, [event]))[0] ?? false;
}

/**
 * Records several events of one run in one transaction, in the order given (what the run-log sink
 * has queued for a run while its previous write was going on, or the run's last events with its
 * end). All or none: when one cannot be recorded yet (no row for the run) none is, and the caller
 * tries again. Answers, per event, false when it was recorded before.
 *
 * Statements per batch, not per event: each run's row is locked and its seen events read once, the
 * batch's run events go in one insert, the run's `last_seq` is set once and the outbox rows go in
 * one insert; only the block-log rows and the end's own updates are one statement each (a reused
 * container's copied body logs: one `insert … select` for the whole body).
 */
export async function recordRunEvents(deps: RunLogDeps, events: RunEvent[]): Promise<boolean[]> {
  if (events.length === 0) return [];
  // A run started through the API has its start recorded before the workflow runs, and its end
  // recorded by the workflow before the API's watcher reports it: the second report of either finds
  // it with one read instead of a transaction (events are never removed).
  if (events.length === 1 && (events[0]?.type === 'runStarted' || events[0]?.type === 'runCompleted')) {
    const recorded = await deps.db.selectFrom('run_events').select('seq').where('execution_id', '=', events[0].executionId).where('event_key', '=', eventData(events[0]).key).executeTakeFirst();
    if (recorded) return [false];
  }
  const wrote = await writeRunEvents(deps, events);
  if (wrote.some(Boolean)) {
    deps.kick();
    for (const id of new Set(events.filter((_, i) => wrote[i]).map((e) => e.executionId))) deps.notify(id);
  }
  return wrote;
}

/** The transaction of `recordRunEvents`; a RangeError in it (a value too deep to serialise) is an UnrecordableRunEventError. */
async function writeRunEvents(deps: RunLogDeps, events: RunEvent[]): Promise<boolean[]> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const runs = new Map<string, RunBatch>();
      const envelopes: EventEnvelope[] = [];
      const answers: boolean[] = [];
      for (const event of events) {
        let run = runs.get(event.executionId);
        if (!run) {
          run = await openRunBatch(trx, deps.instance, event.executionId, events);
          runs.set(event.executionId, run);
        }
        answers.push(await applyRunEvent(trx, run, event, envelopes));
      }
      const rows = [...runs.values()].flatMap((run) => run.rows);
      if (rows.length > 0) await trx.insertInto('run_events').values(rows).execute();
      for (const run of runs.values()) {
        if (run.seq !== run.savedSeq) await trx.updateTable('executions').set({ last_seq: run.seq }).where('id', '=', run.executionId).execute();
      }
      await appendOutbox(trx, envelopes);
      return answers;
    });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    const what = events.map((e) => e.type).join(', ');
    throw new UnrecordableRunEventError(`Run events (${what}) of execution ${events[0]?.executionId ?? ''} cannot be recorded: a value in them is nested too deeply to store (${err.message})`);
  }
}

/** One run's part of a batch: its locked row, the event keys it has, and the events to insert. */
interface RunBatch {
  executionId: string;
  subject: string;
  row: { workflow_id: string; started_at: Date; trigger: string; rerun_of: string | null };
  /** The run's `last_seq` as its row holds it (the end sets it with the run's other columns). */
  savedSeq: number;
  seq: number;
  /** Keys of the run's events written before (among those the batch could write) and of the batch's so far. */
  seen: Set<string>;
  rows: Array<{ execution_id: string; seq: number; event_key: string; type: string; data: string; created_at: Date }>;
  now: Date;
  /** What a rerun copies from the run it reran (its state read once per batch). */
  reuse: ReusedLogs;
}

/** The key of a block log's end event. */
function doneKey(log: BlockLog): string {
  return `block:${blockLogKey(log.blockId, log.loopIteration, log.parallelBranch)}:done`;
}

async function openRunBatch(trx: Transaction<RunnerDB>, instance: string, executionId: string, events: RunEvent[]): Promise<RunBatch> {
  const mine = events.filter((e) => e.executionId === executionId);
  const start = mine.find((e) => e.type === 'runStarted');
  if (start?.type === 'runStarted') {
    await createExecution(trx, {
      executionId,
      workflowId: start.workflowId,
      // A run without a row was started by Temporal itself: a schedule unless it says otherwise.
      trigger: start.trigger ?? 'schedule',
      input: start.input ?? null,
      workspaceId: start.workspaceId,
      actorId: start.actorId,
      deploymentVersion: start.deploymentVersion,
      state: start.state,
      startedAt: new Date(start.at),
    });
  }
  const row = await trx.selectFrom('executions').select(['workflow_id', 'last_seq', 'started_at', 'trigger', 'rerun_of']).where('id', '=', executionId).forUpdate().executeTakeFirst();
  // Retryable: the run's runStarted has not been recorded yet (events of one run may race).
  if (!row) throw new Error(`Execution ${executionId} has no row yet`);
  // The batch's keys, and for an end the keys of the block logs it carries (those written before are not written again).
  const keys = new Set(mine.map((e) => eventData(e).key));
  for (const e of mine) if (e.type === 'runCompleted') for (const l of e.result.logs) keys.add(doneKey(l));
  // Whether the run has ended: what a worker reports after that (a cancel that did not wait for it) is not recorded.
  keys.add(RUN_COMPLETED_KEY);
  const seen = new Set((await trx.selectFrom('run_events').select('event_key').where('execution_id', '=', executionId).where('event_key', 'in', [...keys]).execute()).map((r) => r.event_key));
  return { executionId, subject: `${instance}.runner.run.${executionId}`, row, savedSeq: row.last_seq, seq: row.last_seq, seen, rows: [], now: new Date(), reuse: reusedLogsOf(executionId, row.rerun_of) };
}

/**
 * Writes a block's log; for a block a rerun reused, also what the run it reran logged besides its
 * output (`ReusedLogs.copy`): its tries, and a reused container's body logs right after it (one
 * `insert … select` per container). Answers those body logs.
 */
async function writeBlockLog(trx: Transaction<RunnerDB>, run: RunBatch, position: number, log: BlockLog): Promise<BlockLog[]> {
  await upsertBlockLog(trx, run.executionId, position, log);
  return run.reuse.copy(trx, log, position);
}

/** Copied body logs as events of the run, after their container's (a reader's stream lists them as the log does). */
function reportCopied(run: RunBatch, copied: readonly BlockLog[], append: (key: string, type: string, data: Record<string, unknown>) => number, envelopes: EventEnvelope[]): void {
  for (const log of copied) {
    const key = doneKey(log);
    if (run.seen.has(key)) continue;
    run.seen.add(key);
    append(key, log.success ? 'blockCompleted' : 'blockError', { executionId: run.executionId, ...log });
    envelopes.push(createEnvelope(run.subject, 'blockCompleted', { executionId: run.executionId, workflowId: run.row.workflow_id, ...log }));
  }
}

async function applyRunEvent(trx: Transaction<RunnerDB>, run: RunBatch, event: RunEvent, envelopes: EventEnvelope[]): Promise<boolean> {
  const { key, type, data } = eventData(event);
  const { executionId, subject, row, now } = run;
  if (run.seen.has(key)) return false;
  // The run's end is its last event (a reader's stream ends with it). A block's end the workflow
  // reports after an end recorded without it (the cancel API's, when the workflow was slow to stop)
  // still sets that block's log — a block that finished just before the cancel keeps its outcome
  // and output — but is no event of the run; a late start changes nothing.
  if (run.seen.has(RUN_COMPLETED_KEY)) {
    run.seen.add(key);
    if (event.type === 'blockCompleted' || event.type === 'blockError') await writeBlockLog(trx, run, event.ordinal ?? run.seq, event.log);
    return false;
  }
  run.seen.add(key);
  const append = (eventKey: string, eventType: string, eventPayload: Record<string, unknown>) => {
    run.seq += 1;
    run.rows.push({ execution_id: executionId, seq: run.seq, event_key: eventKey, type: eventType, data: JSON.stringify(eventPayload), created_at: now });
    return run.seq;
  };
  switch (event.type) {
    case 'runStarted':
      append(key, type, data);
      envelopes.push(createEnvelope(subject, 'runStarted', { executionId, workflowId: row.workflow_id, trigger: row.trigger, startedAt: row.started_at.toISOString() }));
      break;
    case 'blockStarted': {
      const position = append(key, type, data);
      await trx
        .insertInto('block_logs')
        .values({
          execution_id: executionId,
          log_key: blockLogKey(event.blockId, event.loopIteration, event.parallelBranch),
          // The workflow's own numbering: events of one run can reach the recorder out of order.
          position: event.ordinal ?? position,
          block_id: event.blockId,
          block_name: event.blockName,
          block_type: event.blockType,
          status: 'running',
          loop_iteration: json(event.loopIteration),
          parallel_branch: json(event.parallelBranch),
          started_at: event.at,
        })
        // A completion that arrived first made the row: the start's place is the earlier one.
        .onConflict((oc) => oc.columns(['execution_id', 'log_key']).doUpdateSet({ position: sql<number>`least(block_logs.position, excluded.position)` }))
        .execute();
      break;
    }
    case 'blockCompleted':
    case 'blockError': {
      const position = append(key, type, data);
      const copied = await writeBlockLog(trx, run, event.ordinal ?? position, event.log);
      envelopes.push(createEnvelope(subject, 'blockCompleted', { executionId, workflowId: row.workflow_id, ...event.log }));
      reportCopied(run, copied, append, envelopes);
      break;
    }
    case 'runCompleted': {
      // Logs the workflow did not report one by one (or whose report was lost) join the log now.
      for (const log of event.result.logs) {
        const logKey = doneKey(log);
        if (run.seen.has(logKey)) continue;
        run.seen.add(logKey);
        const logType = log.success || log.skipped ? 'blockCompleted' : 'blockError';
        const position = append(logKey, logType, { executionId, ...log });
        const copied = await writeBlockLog(trx, run, position, log);
        envelopes.push(createEnvelope(subject, 'blockCompleted', { executionId, workflowId: row.workflow_id, ...log }));
        reportCopied(run, copied, append, envelopes);
      }
      const status = statusOf(event.result);
      const durationMs = now.getTime() - row.started_at.getTime();
      append(key, type, { ...data, startedAt: row.started_at.toISOString(), endedAt: now.toISOString(), durationMs });
      await trx
        .updateTable('executions')
        .set({
          status,
          output: json(event.result.output ?? null),
          error: event.result.error ?? null,
          cost: json(event.result.cost),
          tokens: json(event.result.tokens),
          response: json(event.result.response),
          ended_at: now,
          last_seq: run.seq,
        })
        .where('id', '=', executionId)
        .execute();
      run.savedSeq = run.seq;
      // Block logs still marked running belonged to blocks the end cut short (their own report was lost): cancelled, not failed.
      await trx.updateTable('block_logs').set({ status: 'cancelled', error: status === 'cancelled' ? 'Run cancelled' : 'Run ended', ended_at: now }).where('execution_id', '=', executionId).where('status', '=', 'running').execute();
      envelopes.push(
        createEnvelope(subject, 'runCompleted', {
          executionId,
          workflowId: row.workflow_id,
          status,
          success: event.result.success,
          error: event.result.error ?? null,
          cost: event.result.cost ?? null,
          durationMs,
        }),
      );
      break;
    }
    default: {
      const never: never = event;
      throw new Error(`unknown run event ${JSON.stringify(never)}`);
    }
  }
  return true;
}

type ExecutionRow = Awaited<ReturnType<typeof selectExecution>>;

function selectExecution(db: Kysely<RunnerDB>, executionId: string) {
  return db.selectFrom('executions').selectAll().where('id', '=', executionId).executeTakeFirst();
}

function toView(row: NonNullable<ExecutionRow>): ExecutionView {
  const ended = row.ended_at;
  return {
    executionId: row.id,
    workflowId: row.workflow_id,
    workspaceId: row.workspace_id,
    status: row.status,
    trigger: row.trigger,
    input: row.input,
    output: row.output ?? null,
    error: row.error,
    startedAt: row.started_at.toISOString(),
    endedAt: ended ? ended.toISOString() : null,
    durationMs: ended ? ended.getTime() - row.started_at.getTime() : null,
    cost: (row.cost as CostSummary | null) ?? null,
    tokens: (row.tokens as TokenUsage | null) ?? null,
    response: (row.response as RunResult['response'] | null) ?? null,
    deploymentVersion: row.deployment_version,
    actorId: row.actor_id,
    rerunOf: row.rerun_of,
    fromBlockId: row.from_block_id,
    lastSeq: row.last_seq,
  };
}

/** The block logs of a run in the order the blocks started. */
export async function listBlockLogs(db: Kysely<RunnerDB>, executionId: string): Promise<BlockLogView[]> {
  const rows = await db.selectFrom('block_logs').selectAll().where('execution_id', '=', executionId).orderBy('position').orderBy('position_sub').execute();
  return rows.map((r) => ({
    blockId: r.block_id,
    blockName: r.block_name,
    blockType: r.block_type,
    ...(r.status === 'running'
      ? { status: r.status, running: true, startedAt: r.started_at.toISOString() }
      : { status: r.status, success: r.status === 'succeeded' || r.status === 'skipped', startedAt: r.started_at.toISOString(), endedAt: (r.ended_at ?? r.started_at).toISOString(), durationMs: r.duration_ms ?? 0 }),
    ...(r.input !== null ? { input: r.input } : {}),
    ...(r.output !== null ? { output: r.output } : {}),
    ...(r.error !== null ? { error: r.error } : {}),
    ...(r.attempts !== null ? { attempts: r.attempts } : {}),
    ...(r.attempt_log !== null ? { attemptLog: r.attempt_log as AttemptRecord[] } : {}),
    ...(r.tokens !== null ? { tokens: r.tokens as TokenUsage } : {}),
    ...(r.cost !== null ? { cost: r.cost as CostSummary } : {}),
    ...(r.loop_iteration !== null ? { loopIteration: r.loop_iteration as number[] } : {}),
    ...(r.parallel_branch !== null ? { parallelBranch: r.parallel_branch as number[] } : {}),
    ...(r.status === 'skipped' ? { skipped: true } : {}),
    ...(r.status === 'cancelled' ? { cancelled: true } : {}),
    ...(r.reused === true ? { reused: true } : {}),
  }));
}

function blobRefOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const ref = (value as { $blobRef?: unknown }).$blobRef;
  return typeof ref === 'string' && Object.keys(value).every((k) => k === '$blobRef' || k === 'bytes') ? ref : undefined;
}

/** One object or array being rebuilt by `mapBlobRefs`: its entries, and the values mapped so far. */
interface MapFrame {
  entries: Array<[string, unknown]>;
  array: boolean;
  mapped: unknown[];
}

/**
 * `value` with each BlobRef occurrence (in walk order) replaced by what `swap` answers for it.
 * Iterative: a stored value may be nested thousands of levels deep (a block's output), which a
 * recursive walk cannot take (a read of the execution answered 500).
 */
function mapBlobRefs(value: unknown, swap: (ref: string, bytes: number, raw: unknown) => unknown): unknown {
  const leaf = (v: unknown): unknown => {
    const ref = blobRefOf(v);
    return ref === undefined ? v : swap(ref, Number((v as { bytes?: unknown }).bytes) || 0, v);
  };
  const open = (v: unknown): MapFrame | undefined => {
    if (v === null || typeof v !== 'object' || blobRefOf(v) !== undefined) return undefined;
    if (Array.isArray(v)) return { entries: v.map((item: unknown, i): [string, unknown] => [String(i), item]), array: true, mapped: [] };
    return { entries: Object.entries(v), array: false, mapped: [] };
  };
  const root = open(value);
  if (root === undefined) return leaf(value);
  const stack: MapFrame[] = [root];
  for (;;) {
    const top = stack[stack.length - 1] as MapFrame;
    const next = top.entries[top.mapped.length];
    if (next !== undefined) {
      const frame = open(next[1]);
      if (frame === undefined) top.mapped.push(leaf(next[1]));
      else stack.push(frame);
      continue;
    }
    stack.pop();
    const built = top.array ? top.mapped : Object.fromEntries(top.entries.map(([key], i) => [key, top.mapped[i]]));
    const parent = stack[stack.length - 1];
    if (parent === undefined) return built;
    parent.mapped.push(built);
  }
}

/**
 * At most this many bytes of stored values (outputs over 256 KB) are put back into one answer (a run's
 * answer, an execution read, a batch of run events); the rest stay references `{$blobRef, bytes}`,
 * readable one by one (`getExecutionValue`). A 50 × 50 loop of 300 KB outputs would otherwise answer
 * 750 MB, past what gRPC carries (GRPC_MAX_MESSAGE_BYTES) and what a client wants at once.
 */
export const ANSWER_VALUES_BUDGET_BYTES = 16 * 1024 * 1024;

/**
 * `value` with its BlobRefs (values over 256 KB the run kept outside Temporal's history) replaced by
 * the stored values, level by level (a stored value may hold refs itself), in walk order while they
 * fit in `budgetBytes` (each occurrence counts); what does not fit stays a reference.
 */
export async function withBlobs<T>(db: Kysely<RunnerDB>, value: T, budgetBytes = ANSWER_VALUES_BUDGET_BYTES): Promise<T> {
  let current: unknown = value;
  let left = budgetBytes;
  const loaded = new Map<string, unknown>();
  for (let depth = 0; depth < 10; depth++) {
    const taken: boolean[] = [];
    const wanted = new Set<string>();
    mapBlobRefs(current, (ref, bytes, raw) => {
      const fits = bytes <= left;
      if (fits) {
        left -= bytes;
        wanted.add(ref);
      }
      taken.push(fits);
      return raw;
    });
    if (wanted.size === 0) break;
    const missing = [...wanted].filter((r) => !loaded.has(r));
    if (missing.length > 0) for (const r of await db.selectFrom('run_blobs').select(['ref', 'value']).where('ref', 'in', missing).execute()) loaded.set(r.ref, r.value);
    let i = 0;
    current = mapBlobRefs(current, (ref, _bytes, raw) => (taken[i++] === true && loaded.has(ref) ? loaded.get(ref) : raw));
    if (![...wanted].some((r) => loaded.has(r))) break;
  }
  return current as T;
}

/** What a value's slot key may be (`storeValue`'s `key`): lower-case hex, so a ref stays `<executionId>/<one segment>`. */
const STORED_VALUE_KEY = /^[0-9a-f]{1,64}$/;

/**
 * Keeps a value (its JSON text) of a run outside Temporal's history; answers its reference. With a
 * `key` (see STORED_VALUE_KEY) the value goes to the slot `<executionId>/<key>` and a later store of the
 * same key replaces it, value and bytes: a retried activity keeps one value, not one per try.
 */
export async function storeValue(db: Kysely<RunnerDB>, executionId: string, json: string, key?: string): Promise<{ $blobRef: string; bytes: number }> {
  if (key !== undefined && !STORED_VALUE_KEY.test(key)) throw new AppError('validation', 'key must be 1-64 lower-case hex characters');
  const ref = { $blobRef: `${executionId}/${key ?? randomUUID()}`, bytes: Buffer.byteLength(json) };
  const insert = db.insertInto('run_blobs').values({ ref: ref.$blobRef, execution_id: executionId, value: json, bytes: ref.bytes });
  await (key === undefined ? insert : insert.onConflict((oc) => oc.column('ref').doUpdateSet({ value: json, bytes: ref.bytes, created_at: sql`now()` }))).execute();
  return ref;
}

/**
 * One stored value of an execution's answer (a `$blobRef` left in it): a value of this run, of a
 * workflow block's child run (`<executionId>-…`), or of the run it reran (its outputs reused).
 */
export async function getExecutionValue(db: Kysely<RunnerDB>, executionId: string, ref: string): Promise<unknown> {
  let owner: string | null = executionId;
  for (let hops = 0; owner && hops < 50; hops++) {
    if (ref.startsWith(`${owner}/`) || ref.startsWith(`${owner}-`)) {
      const row = await db.selectFrom('run_blobs').select('value').where('ref', '=', ref).executeTakeFirst();
      if (row) return withBlobs(db, row.value as unknown);
      break;
    }
    const earlier: { rerun_of: string | null } | undefined = await db.selectFrom('executions').select('rerun_of').where('id', '=', owner).executeTakeFirst();
    owner = earlier?.rerun_of ?? null;
  }
  throw new AppError('not_found', `Value ${ref} not found in execution ${executionId}`);
}

/** An execution with its block logs (values kept outside the history loaded back); `not_found` when there is none. */
export async function getExecution(db: Kysely<RunnerDB>, executionId: string, opts: { logs?: boolean } = {}): Promise<ExecutionView> {
  const row = await selectExecution(db, executionId);
  if (!row) throw new AppError('not_found', `Execution ${executionId} not found`);
  const view = toView(row);
  if (opts.logs === false) return view;
  return withBlobs(db, { ...view, logs: await listBlockLogs(db, executionId) });
}

/** The frozen state an execution ran, for a rerun. */
export async function getExecutionState(db: Kysely<RunnerDB>, executionId: string): Promise<RunnableState | null> {
  const row = await db.selectFrom('executions').select('state').where('id', '=', executionId).executeTakeFirst();
  return (row?.state as RunnableState | null | undefined) ?? null;
}

export interface ListExecutionsQuery {
  workflowId: string;
  status?: ExecutionStatus | undefined;
  trigger?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

function encodeCursor(startedAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([startedAt.toISOString(), id])).toString('base64url');
}

function decodeCursor(cursor: string): { startedAt: Date; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      const startedAt = new Date(parsed[0]);
      if (!Number.isNaN(startedAt.getTime())) return { startedAt, id: parsed[1] };
    }
  } catch {
    // falls through to the validation error
  }
  throw new AppError('validation', 'cursor: not a cursor this API answered');
}

/** A workflow's executions, newest first, with a cursor to the next page. */
export async function listExecutions(db: Kysely<RunnerDB>, q: ListExecutionsQuery): Promise<{ executions: ExecutionView[]; nextCursor: string | null }> {
  let query = db.selectFrom('executions').selectAll().where('workflow_id', '=', q.workflowId);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.trigger) query = query.where('trigger', '=', q.trigger);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    query = query.where(sql<boolean>`(started_at, id) < (${c.startedAt}, ${c.id})`);
  }
  const rows = await query.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(q.limit + 1).execute();
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return { executions: page.map(toView), nextCursor: rows.length > q.limit && last ? encodeCursor(last.started_at, last.id) : null };
}

/** The run's events after `after`, in order. */
export async function readRunEvents(db: Kysely<RunnerDB>, executionId: string, after: number, limit: number): Promise<StoredRunEvent[]> {
  const rows = await db
    .selectFrom('run_events')
    .select(['seq', 'type', 'data', 'created_at'])
    .where('execution_id', '=', executionId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: r.seq, type: r.type, data: r.data as Record<string, unknown>, at: r.created_at.toISOString() }));
}

/** Executions still marked running (the runner watches their workflows again after a restart). */
export async function runningExecutionIds(db: Kysely<RunnerDB>): Promise<string[]> {
  const rows = await db.selectFrom('executions').select('id').where('status', '=', 'running').execute();
  return rows.map((r) => r.id);
}
