import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { appendOutbox, createEnvelope } from '@weft/platform';
import type { RunnerDB } from './db.js';
import type { RunResult, RunnableState } from './workflows/types.js';

/** Starts and awaits one durable run; the caller supplies how (Temporal in production). */
export type StartRun = (executionId: string, state: RunnableState, input: unknown) => Promise<RunResult>;

export interface ExecutionOutcome extends RunResult {
  executionId: string;
}

/** Records a run, runs it, stores its result and publishes runCompleted through the outbox. */
export async function executeWorkflow(
  deps: { db: Kysely<RunnerDB>; instance: string; startRun: StartRun; kick: () => void },
  workflowId: string,
  state: RunnableState,
  input: unknown,
  trigger: 'manual' | 'api',
): Promise<ExecutionOutcome> {
  const executionId = randomUUID();
  await deps.db.insertInto('executions').values({ id: executionId, workflow_id: workflowId, status: 'running', trigger, input: JSON.stringify(input ?? null) }).execute();
  let result: RunResult;
  try {
    result = await deps.startRun(executionId, state, input);
  } catch (err) {
    result = { success: false, output: null, logs: [], error: err instanceof Error ? err.message : String(err) };
  }
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('executions')
      .set({
        status: result.success ? 'succeeded' : 'failed',
        output: JSON.stringify(result.output ?? null),
        logs: JSON.stringify(result.logs),
        error: result.error ?? null,
        ended_at: new Date(),
      })
      .where('id', '=', executionId)
      .execute();
    await appendOutbox(trx, [
      createEnvelope(`${deps.instance}.runner.run.${executionId}`, 'runCompleted', { executionId, workflowId, success: result.success, error: result.error ?? null }),
    ]);
  });
  deps.kick();
  return { executionId, ...result };
}
