import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface WorkspaceTable {
  id: string;
  name: string;
  owner_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspaceMemberTable {
  workspace_id: string;
  user_id: string;
  permission: 'admin' | 'write' | 'read';
  created_at: Timestamp;
}

export interface WorkflowTable {
  id: string;
  workspace_id: string;
  folder_id: string | null;
  name: string;
  description: string;
  color: string;
  marketplace_data: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  is_deployed: Generated<boolean>;
  deployed_at: Date | null;
  api_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The registry's schema. */
export interface RegistryDB {
  workspaces: WorkspaceTable;
  workspace_members: WorkspaceMemberTable;
  workflows: WorkflowTable;
}
