import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ExecutionTable {
  id: string;
  workflow_id: string;
  status: 'running' | 'succeeded' | 'failed';
  trigger: string;
  input: Json<unknown>;
  output: ColumnType<unknown, string | null, string | null>;
  logs: ColumnType<unknown, string | null, string | null>;
  error: string | null;
  started_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** The runner's schema. */
export interface RunnerDB {
  executions: ExecutionTable;
}
