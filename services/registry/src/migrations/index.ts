import type { Migration } from 'kysely';
import type { Cipher } from '../secrets/cipher.js';
import { workspacesAndWorkflows } from './0001_workspaces_and_workflows.js';
import { registryTables } from './0002_registry.js';
import { encryptedApiKeys } from './0003_encrypted_api_keys.js';
import { initialWorkspaces } from './0004_initial_workspaces.js';
import { deployedFingerprints } from './0005_deployed_fingerprints.js';
import { apiKeyHashes } from './0006_api_key_hashes.js';
import { triggerTables } from './0007_triggers.js';
import { webhookPaths } from './0008_webhook_paths.js';
import { apiKeyHashIndex } from './0009_api_key_hash_index.js';
import { workflowCopies } from './0010_workflow_copies.js';

/** The migrations before workflow API keys were encrypted (kept apart for the migration's test). */
export const plainMigrations: Record<string, Migration> = {
  '0001_workspaces_and_workflows': workspacesAndWorkflows,
  '0002_registry': registryTables,
};

/** The registry's migrations, applied in name order; `cipher` encrypts the API keys stored in clear. */
export function registryMigrations(cipher: Cipher): Record<string, Migration> {
  return {
    ...plainMigrations,
    '0003_encrypted_api_keys': encryptedApiKeys(cipher),
    '0004_initial_workspaces': initialWorkspaces,
    '0005_deployed_fingerprints': deployedFingerprints,
    '0006_api_key_hashes': apiKeyHashes(cipher),
    '0007_triggers': triggerTables,
    '0008_webhook_paths': webhookPaths,
    '0009_api_key_hash_index': apiKeyHashIndex,
    '0010_workflow_copies': workflowCopies,
  };
}
