import type { Transaction } from 'kysely';
import type { RunnerDB } from './db.js';
import { topLevelOf } from './rerunOutputs.js';
import type { AttemptRecord, BlockLog, RunnableState } from './workflows/types.js';

/**
 * What the run log of a rerun takes from the run it reran, beside what the workflow reports of a
 * reused block (its output): a block reused as failed keeps its tries (`attempts`, `attemptLog`), and
 * a reused loop or parallel gets its body blocks' logs, marked reused. Written here, outside the
 * workflow, so recorded runs replay unchanged.
 */

/** How far back a chain of reruns is followed for a block's earlier log (each rerun reran the one before). */
const MAX_CHAIN = 50;

type Db = Transaction<RunnerDB>;

const inBody = (log: Pick<BlockLog, 'loopIteration' | 'parallelBranch'>): boolean => (log.loopIteration?.length ?? 0) > 0 || (log.parallelBranch?.length ?? 0) > 0;

/** The runs a rerun reran, nearest first (the run it reran, then the one that one reran, …). */
async function* earlierRuns(db: Db, rerunOf: string): AsyncGenerator<string> {
  let from: string | null = rerunOf;
  for (let i = 0; from !== null && i < MAX_CHAIN; i++) {
    yield from;
    const row: { rerun_of: string | null } | undefined = await db.selectFrom('executions').select('rerun_of').where('id', '=', from).executeTakeFirst();
    from = row?.rerun_of ?? null;
  }
}

/** A reused block that failed: its tries as the run that ran it logged them (a rerun that reused it too logged none before). */
async function copyTries(db: Db, executionId: string, rerunOf: string, blockId: string): Promise<void> {
  for await (const from of earlierRuns(db, rerunOf)) {
    const earlier = await db.selectFrom('block_logs').select(['attempts', 'attempt_log', 'reused']).where('execution_id', '=', from).where('log_key', '=', blockId).executeTakeFirst();
    if (!earlier) return;
    if (earlier.attempts === null && earlier.reused === true) continue;
    if (earlier.attempts === null) return;
    await db
      .updateTable('block_logs')
      .set({ attempts: earlier.attempts, attempt_log: earlier.attempt_log === null ? null : JSON.stringify(earlier.attempt_log) })
      .where('execution_id', '=', executionId)
      .where('log_key', '=', blockId)
      .where('attempts', 'is', null)
      .execute();
    return;
  }
}

type BlockLogRow = Awaited<ReturnType<typeof bodyRowsOf>>[number];

function bodyRowsOf(db: Db, executionId: string) {
  return db
    .selectFrom('block_logs')
    .selectAll()
    .where('execution_id', '=', executionId)
    .where((eb) => eb.or([eb('loop_iteration', 'is not', null), eb('parallel_branch', 'is not', null)]))
    .orderBy('position')
    .orderBy('position_sub')
    .execute();
}

/** A copied body log as the run reports it: reused, at the container's moment, taking no time (as a reused block does). */
function reusedBodyLog(row: BlockLogRow, at: Pick<BlockLog, 'startedAt' | 'endedAt'>): BlockLog {
  const failed = row.status === 'failed';
  return {
    blockId: row.block_id,
    blockName: row.block_name,
    blockType: row.block_type,
    startedAt: at.startedAt,
    endedAt: at.endedAt,
    durationMs: 0,
    success: row.status === 'succeeded' || row.status === 'skipped',
    ...(row.input !== null ? { input: row.input } : {}),
    ...(row.output !== null ? { output: row.output } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(failed && row.attempts !== null ? { attempts: row.attempts } : {}),
    ...(failed && row.attempt_log !== null ? { attemptLog: row.attempt_log as AttemptRecord[] } : {}),
    ...(row.loop_iteration !== null ? { loopIteration: row.loop_iteration as number[] } : {}),
    ...(row.parallel_branch !== null ? { parallelBranch: row.parallel_branch as number[] } : {}),
    ...(row.status === 'skipped' ? { skipped: true } : {}),
    ...(row.status === 'cancelled' ? { cancelled: true } : {}),
    reused: true,
  };
}

/** The body logs of a reused top-level container, from the nearest run that logged them (the one that ran it, or a rerun that copied them). */
async function earlierBodyLogs(db: Db, executionId: string, rerunOf: string, container: Pick<BlockLog, 'blockId' | 'startedAt' | 'endedAt'>): Promise<BlockLog[]> {
  const stateRow = await db.selectFrom('executions').select('state').where('id', '=', executionId).executeTakeFirst();
  const state = (stateRow?.state as RunnableState | null | undefined) ?? null;
  const topOf = state ? topLevelOf(state) : undefined;
  if (!topOf) return [];
  for await (const from of earlierRuns(db, rerunOf)) {
    const own = await db.selectFrom('block_logs').select('reused').where('execution_id', '=', from).where('log_key', '=', container.blockId).executeTakeFirst();
    if (!own) return [];
    const body = (await bodyRowsOf(db, from)).filter((r) => topOf(r.block_id) === container.blockId);
    // A rerun logged before these copies reused the container with no body log: the run before has them.
    if (body.length > 0 || own.reused !== true) return body.map((r) => reusedBodyLog(r, container));
  }
  return [];
}

/**
 * After a reused block's log is written: fills in the tries of one reused as failed, and answers the
 * body logs of a reused loop or parallel (in the order they ran) for the caller to write after the
 * container's log and report as the run's events; empty for anything else.
 */
export async function copyReusedLogs(db: Db, executionId: string, rerunOf: string | null, log: BlockLog): Promise<BlockLog[]> {
  if (log.reused !== true || rerunOf === null || inBody(log)) return [];
  if (!log.success && !log.skipped && !log.cancelled && log.attempts === undefined) await copyTries(db, executionId, rerunOf, log.blockId);
  if (log.blockType !== 'loop' && log.blockType !== 'parallel') return [];
  return earlierBodyLogs(db, executionId, rerunOf, log);
}
