import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;

/** An execution's status: running until its run ends one of three ways. */
export type ExecutionStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface ExecutionTable {
  id: string;
  workflow_id: string;
  status: ExecutionStatus;
  trigger: string;
  input: Json<unknown>;
  output: NullableJson;
  /** Unused since 0002 (block logs have their own table); kept for rows written before. */
  logs: NullableJson;
  error: string | null;
  started_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  workspace_id: string | null;
  actor_id: string | null;
  deployment_version: number | null;
  /** The frozen state the run ran (a rerun runs it again). */
  state: NullableJson;
  cost: NullableJson;
  tokens: NullableJson;
  /** A Response block's {status, headers, data}. */
  response: NullableJson;
  rerun_of: string | null;
  from_block_id: string | null;
  /** The number of the execution's last run event. */
  last_seq: Generated<number>;
}

/** `cancelled`: cut short while it ran (the run cancelled, or a failure or Response ending what was in flight). */
export type BlockLogStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

export interface BlockLogTable {
  execution_id: string;
  /** Block id plus loop iteration and parallel branch: one row per time a block ran. */
  log_key: string;
  /** Run event number of the row's first event: the order of the log. */
  position: number;
  /** The order among rows of one position (a reused container's copied body logs, after it): 0 for others. */
  position_sub: ColumnType<number, number | undefined, number>;
  block_id: string;
  block_name: string;
  block_type: string;
  status: BlockLogStatus;
  input: NullableJson;
  output: NullableJson;
  error: string | null;
  attempts: number | null;
  /** Each try of a retried call: `AttemptRecord[]`. */
  attempt_log: NullableJson;
  /** Set when a rerun reused the block's earlier output. */
  reused: boolean | null;
  tokens: NullableJson;
  cost: NullableJson;
  loop_iteration: NullableJson;
  parallel_branch: NullableJson;
  started_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  duration_ms: number | null;
}

export interface RunEventTable {
  execution_id: string;
  seq: number;
  event_key: string;
  type: string;
  data: Json<unknown>;
  created_at: Timestamp;
}

/** A value kept outside Temporal's history (`BlobRef.$blobRef` is its `ref`). */
export interface RunBlobTable {
  ref: string;
  execution_id: string;
  value: ColumnType<unknown, string, string>;
  bytes: number;
  created_at: Generated<Date>;
}

/** A Temporal Schedule the runner made for a workflow (one per schedule trigger). */
export interface WorkflowScheduleTable {
  schedule_id: string;
  workflow_id: string;
  created_at: Generated<Date>;
}

/** The runner's schema. */
export interface RunnerDB {
  executions: ExecutionTable;
  block_logs: BlockLogTable;
  run_events: RunEventTable;
  run_blobs: RunBlobTable;
  workflow_schedules: WorkflowScheduleTable;
}
