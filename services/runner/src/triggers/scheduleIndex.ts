import type { Kysely } from 'kysely';
import type { RunnerDB } from '../db.js';

/** The Temporal Schedule ids the runner made, per workflow (kept in its database). */
export interface ScheduleIndex {
  /** The schedule ids recorded for the workflow. */
  of(workflowId: string): Promise<string[]>;
  /** Records a schedule before it is created (a crash in between leaves a row for nothing: harmless). */
  add(workflowId: string, scheduleId: string): Promise<void>;
  /** Forgets a schedule once it is deleted. */
  remove(scheduleId: string): Promise<void>;
  /** Every workflow with a recorded schedule. */
  workflows(): Promise<string[]>;
}

export function createScheduleIndex(db: Kysely<RunnerDB>): ScheduleIndex {
  return {
    async of(workflowId) {
      const rows = await db.selectFrom('workflow_schedules').select('schedule_id').where('workflow_id', '=', workflowId).orderBy('schedule_id').execute();
      return rows.map((r) => r.schedule_id);
    },
    async add(workflowId, scheduleId) {
      await db.insertInto('workflow_schedules').values({ schedule_id: scheduleId, workflow_id: workflowId }).onConflict((oc) => oc.column('schedule_id').doNothing()).execute();
    },
    async remove(scheduleId) {
      await db.deleteFrom('workflow_schedules').where('schedule_id', '=', scheduleId).execute();
    },
    async workflows() {
      const rows = await db.selectFrom('workflow_schedules').select('workflow_id').distinct().orderBy('workflow_id').execute();
      return rows.map((r) => r.workflow_id);
    },
  };
}
