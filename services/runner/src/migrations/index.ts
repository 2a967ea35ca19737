import { sql, type Kysely, type Migration } from 'kysely';
import { runs } from './0002_runs.js';
import { blobs } from './0003_blobs.js';
import { attemptLog } from './0004_attemptLog.js';
import { schedules } from './0005_schedules.js';
import { reusedLog } from './0006_reusedLog.js';
import { cancelledBlockLogs } from './0007_cancelledBlockLogs.js';
import { blockLogSubPosition } from './0008_blockLogSubPosition.js';

/** The runner's migrations, applied in name order. */
export const migrations: Record<string, Migration> = {
  '0001_executions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('executions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed')`))
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('input', 'jsonb', (c) => c.notNull())
        .addColumn('output', 'jsonb')
        .addColumn('logs', 'jsonb')
        .addColumn('error', 'text')
        .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('ended_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('executions_workflow').on('executions').columns(['workflow_id', 'started_at']).execute();
    },
  },
  '0002_runs': runs,
  '0003_blobs': blobs,
  '0004_attemptLog': attemptLog,
  '0005_schedules': schedules,
  '0006_reusedLog': reusedLog,
  '0007_cancelledBlockLogs': cancelledBlockLogs,
  '0008_blockLogSubPosition': blockLogSubPosition,
};
