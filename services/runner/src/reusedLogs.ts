import { sql, type Selectable, type Transaction } from 'kysely';
import { pushTo } from '@weft/catalog';
import type { BlockLogTable, RunnerDB } from './db.js';
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

type BlockLogRow = Selectable<BlockLogTable>;

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

/** The body logs of a reused top-level container copied from one earlier run in one `insert … select`; answers them in the order they ran. */
async function copyBodyFrom(db: Db, executionId: string, from: string, bodyIds: readonly string[], container: Pick<BlockLog, 'startedAt' | 'endedAt'>, position: number): Promise<BlockLog[]> {
  const copied = await db
    .insertInto('block_logs')
    .columns(['execution_id', 'log_key', 'position', 'position_sub', 'block_id', 'block_name', 'block_type', 'status', 'input', 'output', 'error', 'attempts', 'attempt_log', 'loop_iteration', 'parallel_branch', 'started_at', 'ended_at', 'duration_ms', 'reused'])
    .expression(
      db
        .selectFrom('block_logs')
        .select([
          sql<string>`${executionId}::text`.as('execution_id'),
          'log_key',
          sql<number>`${position}::integer`.as('position'),
          // In the order they ran, right after the container's own row (position_sub 0).
          sql<number>`row_number() over (order by position, position_sub)`.as('position_sub'),
          'block_id',
          'block_name',
          'block_type',
          'status',
          'input',
          'output',
          'error',
          // A failed body block keeps its tries, as a failed reused block does; the others show none.
          sql<number | null>`case when status = 'failed' then attempts end`.as('attempts'),
          sql<unknown>`case when status = 'failed' then attempt_log end`.as('attempt_log'),
          'loop_iteration',
          'parallel_branch',
          // At the container's moment, taking no time, costing nothing in this run (no tokens, no cost).
          sql<Date>`${container.startedAt}::timestamptz`.as('started_at'),
          sql<Date>`${container.endedAt}::timestamptz`.as('ended_at'),
          sql<number>`0`.as('duration_ms'),
          sql<boolean>`true`.as('reused'),
        ])
        .where('execution_id', '=', from)
        .where('block_id', 'in', bodyIds)
        .where((eb) => eb.or([eb('loop_iteration', 'is not', null), eb('parallel_branch', 'is not', null)])),
    )
    // Written before (the end carrying the container again): the same values, its place kept.
    .onConflict((oc) =>
      oc.columns(['execution_id', 'log_key']).doUpdateSet((eb) => ({
        block_name: eb.ref('excluded.block_name'),
        block_type: eb.ref('excluded.block_type'),
        status: eb.ref('excluded.status'),
        input: eb.ref('excluded.input'),
        output: eb.ref('excluded.output'),
        error: eb.ref('excluded.error'),
        attempts: eb.ref('excluded.attempts'),
        attempt_log: eb.ref('excluded.attempt_log'),
        tokens: null,
        cost: null,
        loop_iteration: eb.ref('excluded.loop_iteration'),
        parallel_branch: eb.ref('excluded.parallel_branch'),
        started_at: eb.ref('excluded.started_at'),
        ended_at: eb.ref('excluded.ended_at'),
        duration_ms: 0,
        reused: true,
      })),
    )
    .returningAll()
    .execute();
  return copied.sort((a, b) => a.position_sub - b.position_sub).map((r) => reusedBodyLog(r, container));
}

/** The body block ids (at any depth) of each top-level container of the rerun's state; undefined for a state the engine refuses. */
async function bodiesOf(db: Db, executionId: string): Promise<Map<string, string[]> | undefined> {
  const row = await db.selectFrom('executions').select('state').where('id', '=', executionId).executeTakeFirst();
  const state = (row?.state as RunnableState | null | undefined) ?? null;
  const topOf = state ? topLevelOf(state) : undefined;
  if (!state || !topOf) return undefined;
  const bodies = new Map<string, string[]>();
  for (const id of Object.keys(state.blocks)) {
    const top = topOf(id);
    if (top !== id) pushTo(bodies, top, id);
  }
  return bodies;
}

/** What a rerun's run log copies from the run it reran, for the reused blocks of one batch of its events. */
export interface ReusedLogs {
  /**
   * After a reused block's log is written at `position`: fills in the tries of one reused as failed,
   * and copies the body logs of a reused loop or parallel right after it, answering them (in the order
   * they ran) for the caller to report as the run's events; empty for anything else.
   */
  copy(db: Db, log: BlockLog, position: number): Promise<BlockLog[]>;
}

/** The copier of one batch: the rerun's state is read once, at its first reused container. */
export function reusedLogsOf(executionId: string, rerunOf: string | null): ReusedLogs {
  let bodies: Promise<Map<string, string[]> | undefined> | undefined;
  return {
    async copy(db, log, position) {
      if (log.reused !== true || rerunOf === null || inBody(log)) return [];
      if (!log.success && !log.skipped && !log.cancelled && log.attempts === undefined) await copyTries(db, executionId, rerunOf, log.blockId);
      if (log.blockType !== 'loop' && log.blockType !== 'parallel') return [];
      bodies ??= bodiesOf(db, executionId);
      const bodyIds = (await bodies)?.get(log.blockId) ?? [];
      if (bodyIds.length === 0) return [];
      // From the nearest run that logged them: the one that ran the container, or a rerun that copied them.
      for await (const from of earlierRuns(db, rerunOf)) {
        const own = await db.selectFrom('block_logs').select('reused').where('execution_id', '=', from).where('log_key', '=', log.blockId).executeTakeFirst();
        if (!own) return [];
        const body = await copyBodyFrom(db, executionId, from, bodyIds, log, position);
        // A rerun logged before these copies reused the container with no body log: the run before has them.
        if (body.length > 0 || own.reused !== true) return body;
      }
      return [];
    },
  };
}
