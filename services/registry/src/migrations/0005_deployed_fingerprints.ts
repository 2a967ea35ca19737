import type { Kysely, Migration } from 'kysely';
import type { RegistryDB } from '../db.js';
import { deployedFingerprint } from '../deployments/fingerprint.js';

/**
 * The fingerprint of each deployment version's state, and of the active one on its workflow, so
 * needsRedeployment can compare what would run with what is deployed. Computed here for the
 * deployments made before; a state that is not a graph keeps null (the version-based rule).
 */
export const deployedFingerprints: Migration = {
  async up(db: Kysely<RegistryDB>) {
    await db.schema.alterTable('deployment_versions').addColumn('fingerprint', 'text').execute();
    await db.schema.alterTable('workflows').addColumn('deployed_fingerprint', 'text').execute();
    const versions = await db.selectFrom('deployment_versions').select(['workflow_id', 'version', 'state', 'is_active']).execute();
    for (const row of versions) {
      const fingerprint = deployedFingerprint(row.state);
      if (fingerprint === null) continue;
      await db.updateTable('deployment_versions').set({ fingerprint }).where('workflow_id', '=', row.workflow_id).where('version', '=', row.version).execute();
      if (row.is_active) await db.updateTable('workflows').set({ deployed_fingerprint: fingerprint }).where('id', '=', row.workflow_id).execute();
    }
  },
};
