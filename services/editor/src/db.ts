import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
type BigInt = ColumnType<number, number, number>;

export interface StreamTable {
  workflow_id: string;
  version: BigInt;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventTable {
  workflow_id: string;
  version: BigInt;
  type: string;
  data: Json<unknown>;
  occurred_at: Timestamp;
}

export interface SnapshotTable {
  workflow_id: string;
  version: BigInt;
  state: Json<unknown>;
  taken_at: Timestamp;
}

/**
 * The read model answering "what does workflow X look like now": the small flags in `state`, the
 * larger parts in their own columns and the blocks in `workflow_blocks`, so an edit rewrites only
 * what it changed.
 */
export interface WorkflowStateTable {
  workflow_id: string;
  version: BigInt;
  state: Json<unknown>;
  edges: Json<unknown>;
  loops: Json<unknown>;
  parallels: Json<unknown>;
  variables: Json<unknown>;
  updated_at: Timestamp;
}

/** One block of a workflow's read model. */
export interface WorkflowBlockTable {
  workflow_id: string;
  block_id: string;
  block: Json<unknown>;
}

export interface ProcessedCommandTable {
  workflow_id: string;
  command_id: string;
  result: Json<unknown>;
  created_at: Timestamp;
}

/** A workflow the registry deleted: its stream is dropped and never started again. */
export interface DeletedWorkflowTable {
  workflow_id: string;
  deleted_at: Timestamp;
}

/** The editor's schema. */
export interface EditorDB {
  streams: StreamTable;
  events: EventTable;
  snapshots: SnapshotTable;
  workflow_states: WorkflowStateTable;
  workflow_blocks: WorkflowBlockTable;
  processed_commands: ProcessedCommandTable;
  deleted_workflows: DeletedWorkflowTable;
}
