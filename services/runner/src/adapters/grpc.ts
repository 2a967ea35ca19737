import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError, type ServiceHandlers } from '@weft/platform';
import { describeIssues, type runner } from '@weft/contracts';
import type { ExecutionStatus, RunnerDB } from '../db.js';
import type { Executions } from '../executions.js';
import { getExecution, getExecutionValue, listExecutions, readRunEvents, storeValue, withBlobs, type ExecutionView } from '../executionsStore.js';
import type { RunLive } from '../live/runLive.js';
import type { RunTrigger, RunnableState } from '../workflows/types.js';

const TRIGGERS = ['manual', 'api', 'webhook', 'schedule', 'chat', 'workflow'] as const satisfies readonly RunTrigger[];
const STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const satisfies readonly ExecutionStatus[];
/** Longest a ReadRunEvents call waits for an event. */
const MAX_WAIT_MS = 30_000;
const MAX_EVENTS = 1_000;

const stateSchema = z.looseObject({
  blocks: z.record(z.string(), z.looseObject({ id: z.string(), type: z.string(), name: z.string() })),
  edges: z.array(z.looseObject({ id: z.string(), source: z.string(), target: z.string() })),
});

function parseJson(field: string, text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be JSON`);
  }
}

function parseState(text: string): RunnableState {
  const parsed = stateSchema.safeParse(parseJson('stateJson', text));
  if (!parsed.success) throw new AppError('validation', `stateJson: ${describeIssues(parsed.error)}`);
  // The schema checked what a run reads first; the rest of the block shape is the engine's to judge.
  return parsed.data as unknown as RunnableState;
}

function oneOf<T extends string>(field: string, allowed: readonly T[], value: string): T {
  const found = allowed.find((a) => a === value);
  if (!found) throw new AppError('validation', `${field} must be one of ${allowed.join(', ')}`);
  return found;
}

/** An execution view on the wire. */
export function toWire(v: ExecutionView): runner.Execution {
  return {
    executionId: v.executionId,
    workflowId: v.workflowId,
    workspaceId: v.workspaceId ?? '',
    status: v.status,
    trigger: v.trigger,
    inputJson: JSON.stringify(v.input ?? null),
    outputJson: JSON.stringify(v.output ?? null),
    error: v.error ?? undefined,
    startedAt: v.startedAt,
    endedAt: v.endedAt ?? undefined,
    durationMs: v.durationMs ?? undefined,
    costJson: v.cost ? JSON.stringify(v.cost) : '',
    tokensJson: v.tokens ? JSON.stringify(v.tokens) : '',
    responseJson: v.response ? JSON.stringify(v.response) : '',
    deploymentVersion: v.deploymentVersion ?? undefined,
    logsJson: v.logs ? JSON.stringify(v.logs) : '',
    rerunOf: v.rerunOf ?? undefined,
    fromBlockId: v.fromBlockId ?? undefined,
    lastSeq: v.lastSeq,
  };
}

/** The runner's original gRPC surface: one waited run of the draft (kept for existing callers). */
export function runnerHandlers(deps: { executions: Executions }): ServiceHandlers<typeof runner.RunnerServiceService> {
  return {
    async executeWorkflow(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      const v = await deps.executions.start({ workflowId: req.workflowId, input: parseJson('inputJson', req.inputJson), trigger: 'manual', actorId: req.actorId || undefined, wait: true, stream: false });
      return {
        executionId: v.executionId,
        success: v.status === 'succeeded',
        outputJson: JSON.stringify(v.output ?? null),
        logsJson: JSON.stringify(v.logs ?? []),
        error: v.error ?? undefined,
      };
    },
  };
}

/** Runs: start (draft or deployed state, waited or not), read, list, cancel, rerun and the event log. */
export function runHandlers(deps: { db: Kysely<RunnerDB>; executions: Executions; live: RunLive }): ServiceHandlers<typeof runner.RunServiceService> {
  return {
    async startRun(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      const v = await deps.executions.start({
        workflowId: req.workflowId,
        input: parseJson('inputJson', req.inputJson),
        trigger: oneOf('trigger', TRIGGERS, req.trigger || 'manual'),
        actorId: req.actorId || undefined,
        workspaceId: req.workspaceId || undefined,
        state: req.stateJson ? parseState(req.stateJson) : undefined,
        deploymentVersion: req.deploymentVersion,
        triggerBlockId: req.triggerBlockId || undefined,
        wait: req.wait,
        stream: req.stream,
        executionId: req.executionId || undefined,
      });
      return { execution: toWire(v) };
    },
    async getExecution(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      return { execution: toWire(await getExecution(deps.db, req.executionId, { logs: !req.withoutLogs })) };
    },
    async getExecutionValue(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      if (!req.ref) throw new AppError('validation', 'ref is required');
      return { valueJson: JSON.stringify(await getExecutionValue(deps.db, req.executionId, req.ref)) };
    },
    async storeValue(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      try {
        JSON.parse(req.valueJson);
      } catch {
        throw new AppError('validation', 'valueJson must be JSON text');
      }
      return storeValue(deps.db, req.executionId, req.valueJson, req.key || undefined).then((r) => ({ ref: r.$blobRef, bytes: r.bytes }));
    },
    async listExecutions(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      if (req.limit < 0 || req.limit > 100) throw new AppError('validation', 'limit must be between 1 and 100');
      const page = await listExecutions(deps.db, {
        workflowId: req.workflowId,
        status: req.status ? oneOf('status', STATUSES, req.status) : undefined,
        trigger: req.trigger ? oneOf('trigger', TRIGGERS, req.trigger) : undefined,
        cursor: req.cursor || undefined,
        limit: req.limit || 20,
      });
      return { executions: page.executions.map(toWire), nextCursor: page.nextCursor ?? undefined };
    },
    async cancelExecution(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      return { execution: toWire(await deps.executions.cancel(req.executionId)) };
    },
    async rerunExecution(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      if (!req.fromBlockId) throw new AppError('validation', 'fromBlockId is required');
      const v = await deps.executions.rerun(req.executionId, req.fromBlockId, {
        actorId: req.actorId || undefined,
        wait: req.wait,
        stream: req.stream,
        newExecutionId: req.newExecutionId || undefined,
      });
      return { execution: toWire(v) };
    },
    async getRerunState(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      return { stateJson: JSON.stringify(await deps.executions.rerunState(req.executionId)) };
    },
    async readRunEvents(req) {
      if (!req.executionId) throw new AppError('validation', 'executionId is required');
      const limit = req.limit > 0 ? Math.min(req.limit, MAX_EVENTS) : MAX_EVENTS;
      const deadline = Date.now() + Math.min(Math.max(req.waitMs, 0), MAX_WAIT_MS);
      const w = deps.live.watch(req.executionId);
      try {
        for (;;) {
          const view = await getExecution(deps.db, req.executionId, { logs: false });
          const events = view.lastSeq > req.after ? await readRunEvents(deps.db, req.executionId, req.after, limit) : [];
          const left = deadline - Date.now();
          if (events.length > 0 || view.status !== 'running' || left <= 0) {
            // A block's output over 256 KB is a BlobRef in the event: the reader gets the value (within the answer's budget).
            return { eventsJson: JSON.stringify(await withBlobs(deps.db, events)), status: view.status, lastSeq: view.lastSeq };
          }
          await w.next(left);
        }
      } finally {
        w.close();
      }
    },
  };
}
