import { sql, type Kysely } from 'kysely';
import { withAdvisoryLock, type Database } from '@weft/platform';
import type { RunnerDB } from '../db.js';

/** The Temporal Schedule id of the workflow's starter on the instance; a schedule block's is it plus `:<blockId>`. */
export const starterScheduleIdOf = (instance: string, workflowId: string): string => `${instance}-schedule-${workflowId}`;

/**
 * The Temporal Schedule ids the runner made, per workflow (kept in its database): only its
 * instance's (`<instance>-schedule-<workflowId>[:<blockId>]`), so runners of two instances sharing a
 * database never take each other's for their own.
 */
export interface ScheduleIndex {
  /** The schedule ids recorded for the workflow. */
  of(workflowId: string): Promise<string[]>;
  /** Records a schedule before it is created (a crash in between leaves a row for nothing: harmless). */
  add(workflowId: string, scheduleId: string): Promise<void>;
  /** Forgets a schedule once it is deleted. */
  remove(scheduleId: string): Promise<void>;
  /**
   * Up to `limit` recorded schedules of the given workflows after the schedule id `after` (empty:
   * from the first), in schedule id order: a workflow's together, its starter's first.
   */
  page(workflowIds: readonly string[], after: string, limit: number): Promise<{ workflowId: string; scheduleId: string }[]>;
  /** Every workflow with a recorded schedule. */
  workflows(): Promise<string[]>;
  /**
   * Runs `work` holding the workflow's lock of the instance (a Postgres session advisory lock, on a
   * pooled connection of its own; see withAdvisoryLock), with the index on that connection: one change
   * of a workflow's schedules at a time across the runner processes sharing the database. What work
   * writes is committed at once (no transaction), so a record made before a create stays if it fails.
   * A connection whose unlock does not answer true is destroyed rather than pooled, so a failed unlock
   * never keeps the workflow locked.
   */
  locked<T>(workflowId: string, work: (index: ScheduleIndex) => Promise<T>): Promise<T>;
}

/** The key of a workflow's schedules lock of the instance (hashed by Postgres: the same key as runners before withAdvisoryLock). */
export const scheduleLockKeyOf = (instance: string, workflowId: string): string => `weft-schedules:${instance}:${workflowId}`;

export function createScheduleIndex(database: Pick<Database<RunnerDB>, 'db' | 'pool'>, instance: string): ScheduleIndex {
  const { db, pool } = database;
  const prefix = starterScheduleIdOf(instance, '');
  const on = (conn: Kysely<RunnerDB>): ScheduleIndex => ({
    async of(workflowId) {
      const starter = starterScheduleIdOf(instance, workflowId);
      const rows = await conn
        .selectFrom('workflow_schedules')
        .select('schedule_id')
        .where('workflow_id', '=', workflowId)
        .where(sql<boolean>`(schedule_id = ${starter} or starts_with(schedule_id, ${`${starter}:`}))`)
        .orderBy('schedule_id')
        .execute();
      return rows.map((r) => r.schedule_id);
    },
    async add(workflowId, scheduleId) {
      await conn.insertInto('workflow_schedules').values({ schedule_id: scheduleId, workflow_id: workflowId }).onConflict((oc) => oc.column('schedule_id').doNothing()).execute();
    },
    async remove(scheduleId) {
      await conn.deleteFrom('workflow_schedules').where('schedule_id', '=', scheduleId).execute();
    },
    async page(workflowIds, after, limit) {
      if (workflowIds.length === 0 || limit < 1) return [];
      const rows = await conn
        .selectFrom('workflow_schedules')
        .select(['workflow_id', 'schedule_id'])
        // One array parameter, however many workflows the workspace has.
        .where(sql<boolean>`workflow_id = any(${[...workflowIds]}::text[])`)
        .where(sql<boolean>`(schedule_id = ${prefix} || workflow_id or starts_with(schedule_id, ${prefix} || workflow_id || ':'))`)
        .where('schedule_id', '>', after)
        .orderBy('schedule_id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ workflowId: r.workflow_id, scheduleId: r.schedule_id }));
    },
    async workflows() {
      const rows = await conn
        .selectFrom('workflow_schedules')
        .select('workflow_id')
        .distinct()
        .where(sql<boolean>`(schedule_id = ${prefix} || workflow_id or starts_with(schedule_id, ${prefix} || workflow_id || ':'))`)
        .orderBy('workflow_id')
        .execute();
      return rows.map((r) => r.workflow_id);
    },
    locked(workflowId, work) {
      return withAdvisoryLock(pool, scheduleLockKeyOf(instance, workflowId), (lockConn: Kysely<RunnerDB>) => work(on(lockConn)));
    },
  });
  return on(db);
}
