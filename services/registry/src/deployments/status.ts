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

/** Spec 000 §4: after a revert the webhook is active only when the starter starts by webhook. */
export function startsByWebhook(blocks: Record<string, unknown>): boolean {
  return Object.values(blocks).some((block) => {
    if (typeof block !== 'object' || block === null) return false;
    const b = block as { type?: unknown; subBlocks?: Record<string, { value?: unknown }> };
    return b.type === 'starter' && b.subBlocks?.startWorkflow?.value === 'webhook';
  });
}
