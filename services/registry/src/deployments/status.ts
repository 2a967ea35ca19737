import type { Selectable } from 'kysely';
import type { WorkflowTable } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';
import { openApiKey } from './apiKey.js';

/** Deployment status per workflow (spec 000 §3). */
export interface DeploymentStatusView {
  isDeployed: boolean;
  deployedAt: string | null;
  apiKey: string | null;
  needsRedeployment: boolean;
  hasActiveWebhook: boolean;
}

/** Row → status, with the API key decrypted. */
export function toStatus(row: Selectable<WorkflowTable>, cipher: Cipher): DeploymentStatusView {
  return {
    isDeployed: row.is_deployed,
    deployedAt: row.deployed_at ? row.deployed_at.toISOString() : null,
    apiKey: openApiKey(cipher, row),
    needsRedeployment: row.needs_redeployment,
    hasActiveWebhook: row.has_active_webhook,
  };
}

