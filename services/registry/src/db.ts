import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

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

export interface FolderTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  color: string;
  is_expanded: Generated<boolean>;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
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
  /** The workflow API key encrypted (deployments/apiKey.ts), null before the first deploy. */
  api_key: string | null;
  api_key_key_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 (hex) of the workflow API key, checked against a caller's key (migration 0006). */
  api_key_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The workflow this one was duplicated from (migration 0010), null for one created otherwise. */
  copied_from: ColumnType<string | null, string | null | undefined, string | null>;
  needs_redeployment: Generated<boolean>;
  has_active_webhook: Generated<boolean>;
  /**
   * Editor stream version up to which needsRedeployment is settled: the deployment's, the last
   * revert's, or that of the last event that flipped it by fingerprint; only later events count.
   */
  baseline_version: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * graphFingerprint of the active deployment's state: editor events carrying a fingerprint set
   * needsRedeployment to whether theirs differs. Null: no deployment, or one the fingerprint could
   * not be computed for (then any graph event after baseline_version sets the flag).
   */
  deployed_fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A frozen copy of a workflow's state, one per deploy. */
export interface DeploymentVersionTable {
  workflow_id: string;
  version: number;
  state: Json<Record<string, unknown>>;
  editor_version: ColumnType<number, number, number>;
  /** graphFingerprint of `state`; null for a state that is not a graph. */
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  is_active: boolean;
  deployed_at: Date;
  created_by: string;
  created_at: Timestamp;
}

/** One environment variable of a user; `value` is ciphertext (see secrets/cipher.ts). */
export interface EnvironmentVariableTable {
  user_id: string;
  name: string;
  value: string;
  key_id: string;
  updated_at: Timestamp;
}

export interface CustomToolTable {
  id: string;
  user_id: string;
  title: string;
  schema: Json<Record<string, unknown>>;
  code: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An OAuth credential; tokens are ciphertext. */
export interface OAuthCredentialTable {
  id: string;
  user_id: string;
  provider_id: string;
  scopes: string;
  access_token: string;
  refresh_token: string | null;
  key_id: string;
  expires_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A pending authorization (the `state` parameter of the OAuth code flow). */
export interface OAuthStateTable {
  state: string;
  user_id: string;
  provider_id: string;
  code_verifier: string;
  created_at: Timestamp;
}

/** Marks that a user's first workspace was created (at sign-up or later); at most once per user. */
export interface InitialWorkspaceTable {
  user_id: string;
  workspace_id: string;
  created_at: Timestamp;
}

/** The registry's schema. */
export interface RegistryDB {
  workspaces: WorkspaceTable;
  workspace_members: WorkspaceMemberTable;
  folders: FolderTable;
  workflows: WorkflowTable;
  deployment_versions: DeploymentVersionTable;
  environment_variables: EnvironmentVariableTable;
  custom_tools: CustomToolTable;
  oauth_credentials: OAuthCredentialTable;
  oauth_states: OAuthStateTable;
  initial_workspaces: InitialWorkspaceTable;
}
