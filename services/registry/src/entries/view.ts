import type { Selectable } from 'kysely';
import type { WorkflowTable } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';
import { openApiKey } from '../deployments/apiKey.js';

/** A workflow registry entry as the registry answers it. */
export interface WorkflowView {
  id: string;
  workspaceId: string;
  folderId: string | null;
  name: string;
  description: string;
  color: string;
  marketplaceData: Record<string, unknown> | null;
  isDeployed: boolean;
  deployedAt: string | null;
  apiKey: string | null;
  needsRedeployment: boolean;
  hasActiveWebhook: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Row → view, with the API key decrypted. */
export function toWorkflowView(row: Selectable<WorkflowTable>, cipher: Cipher): WorkflowView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    folderId: row.folder_id,
    name: row.name,
    description: row.description,
    color: row.color,
    marketplaceData: row.marketplace_data,
    isDeployed: row.is_deployed,
    deployedAt: row.deployed_at ? row.deployed_at.toISOString() : null,
    apiKey: openApiKey(cipher, row),
    needsRedeployment: row.needs_redeployment,
    hasActiveWebhook: row.has_active_webhook,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The event payload of a workflow: the view without its API key. */
export function workflowEventData(view: WorkflowView): Omit<WorkflowView, 'apiKey'> {
  const { apiKey: _apiKey, ...rest } = view;
  return rest;
}
