import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Runs as the run API shows them: executions gain status `cancelled`, workspace, deployment version,
 * the frozen state (for reruns), cost, response and an event counter; each block's log gets a row
 * (`block_logs`) and every progress event a numbered row (`run_events`, what an SSE reader replays).
 */
export const runs: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table executions drop constraint if exists executions_status_check`.execute(db);
    await sql`alter table executions add constraint executions_status_check check (status in ('running', 'succeeded', 'failed', 'cancelled'))`.execute(db);
    await db.schema
      .alterTable('executions')
      .addColumn('workspace_id', 'text')
      .addColumn('actor_id', 'text')
      .addColumn('deployment_version', 'integer')
      .addColumn('state', 'jsonb')
      .addColumn('cost', 'jsonb')
      .addColumn('tokens', 'jsonb')
      .addColumn('response', 'jsonb')
      .addColumn('rerun_of', 'text')
      .addColumn('from_block_id', 'text')
      .addColumn('last_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('executions_listing').on('executions').columns(['workflow_id', 'started_at desc', 'id desc']).execute();
    await db.schema
      .createTable('block_logs')
      .addColumn('execution_id', 'text', (c) => c.notNull())
      .addColumn('log_key', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('block_id', 'text', (c) => c.notNull())
      .addColumn('block_name', 'text', (c) => c.notNull())
      .addColumn('block_type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed', 'skipped')`))
      .addColumn('input', 'jsonb')
      .addColumn('output', 'jsonb')
      .addColumn('error', 'text')
      .addColumn('attempts', 'integer')
      .addColumn('tokens', 'jsonb')
      .addColumn('cost', 'jsonb')
      .addColumn('loop_iteration', 'jsonb')
      .addColumn('parallel_branch', 'jsonb')
      .addColumn('started_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ended_at', 'timestamptz')
      .addColumn('duration_ms', 'integer')
      .addPrimaryKeyConstraint('block_logs_pk', ['execution_id', 'log_key'])
      .execute();
    await db.schema
      .createTable('run_events')
      .addColumn('execution_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('run_events_pk', ['execution_id', 'seq'])
      .addUniqueConstraint('run_events_key', ['execution_id', 'event_key'])
      .execute();
  },
};
