import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import { migrate, platformMigrations } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow, deleteWorkflow } from '../entries/workflows.js';
import { createCipher, generateKey, parseKeys } from '../secrets/cipher.js';
import { plainMigrations, registryMigrations } from '../migrations/index.js';
import { deploy, undeploy } from './deployments.js';
import { resolveDeploymentKey, workflowOfDeploymentKey } from './apiKey.js';
import { activeDeployment } from './triggers.js';
import { removeMember, setMember } from '../workspaces/members.js';

describe('deployment API keys checked for deployed runs', () => {
  it('every trigger of a deployment acts as its deployer; once they may no longer deploy there, as the owner', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'owner', 'W');
      await setMember(registry, 'owner', ws.id, 'dev', 'write');
      const wf = await createWorkflow(registry, 'owner', ws.id, {});
      const key = (await deploy(registry, 'dev', wf.id)).apiKey ?? '';
      const actors = async () => [(await resolveDeploymentKey(registry.db, wf.id, key)).actorId, (await activeDeployment(registry.db, wf.id))?.actorId];
      expect(await actors()).toEqual(['dev', 'dev']);
      expect(await resolveDeploymentKey(registry.db, wf.id, key)).toMatchObject({ deployedBy: 'dev', actorId: 'dev' });
      await setMember(registry, 'owner', ws.id, 'dev', 'read');
      expect(await actors()).toEqual(['owner', 'owner']);
      await setMember(registry, 'owner', ws.id, 'dev', 'admin');
      expect(await actors()).toEqual(['dev', 'dev']);
      await removeMember(registry, 'owner', ws.id, 'dev');
      expect(await actors()).toEqual(['owner', 'owner']);
      // The active version decides: the owner's redeploy makes the owner the actor.
      await setMember(registry, 'owner', ws.id, 'dev', 'write');
      await deploy(registry, 'owner', wf.id);
      expect(await actors()).toEqual(['owner', 'owner']);
    } finally {
      await drop();
    }
  });

  it('answers the active deployed version for the right key; 401 for a wrong one, 403 when not deployed, 404 once deleted', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      await expect(resolveDeploymentKey(registry.db, wf.id, 'wf_anything')).rejects.toMatchObject({ code: 'unauthenticated', message: 'Invalid API key' });
      const key = (await deploy(registry, 'u1', wf.id)).apiKey ?? '';
      await deploy(registry, 'u1', wf.id);
      const grant = await resolveDeploymentKey(registry.db, wf.id, key);
      expect(grant).toMatchObject({ workflowId: wf.id, workspaceId: ws.id, version: 2, deployedBy: 'u1' });
      expect(grant.state).toMatchObject({ blocks: {}, edges: [] });
      await expect(resolveDeploymentKey(registry.db, wf.id, `${key}x`)).rejects.toMatchObject({ code: 'unauthenticated' });
      await expect(resolveDeploymentKey(registry.db, wf.id, '')).rejects.toMatchObject({ code: 'unauthenticated' });
      // Another workflow's key does not open this one.
      const other = await createWorkflow(registry, 'u1', ws.id, {});
      const otherKey = (await deploy(registry, 'u1', other.id)).apiKey ?? '';
      await expect(resolveDeploymentKey(registry.db, wf.id, otherKey)).rejects.toMatchObject({ code: 'unauthenticated' });
      await undeploy(registry, 'u1', wf.id);
      await expect(resolveDeploymentKey(registry.db, wf.id, key)).rejects.toMatchObject({ code: 'forbidden', message: 'Workflow is not deployed' });
      await deleteWorkflow(registry, 'u1', wf.id);
      await expect(resolveDeploymentKey(registry.db, wf.id, key)).rejects.toMatchObject({ code: 'not_found', message: `Workflow ${wf.id} not found` });
    } finally {
      await drop();
    }
  });

  it('names the workflow a key belongs to, deployed or not; a key of no workflow is 401, and so is a deleted workflow\'s', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const [a, b] = [await createWorkflow(registry, 'u1', ws.id, {}), await createWorkflow(registry, 'u1', ws.id, {})];
      const [keyA, keyB] = [(await deploy(registry, 'u1', a.id)).apiKey ?? '', (await deploy(registry, 'u1', b.id)).apiKey ?? ''];
      expect(await workflowOfDeploymentKey(registry.db, keyA)).toBe(a.id);
      expect(await workflowOfDeploymentKey(registry.db, keyB)).toBe(b.id);
      for (const wrong of [`${keyA}x`, '', 'wf_anything']) {
        await expect(workflowOfDeploymentKey(registry.db, wrong)).rejects.toMatchObject({ code: 'unauthenticated', message: 'Invalid API key' });
      }
      await undeploy(registry, 'u1', a.id);
      expect(await workflowOfDeploymentKey(registry.db, keyA)).toBe(a.id);
      await deleteWorkflow(registry, 'u1', a.id);
      await expect(workflowOfDeploymentKey(registry.db, keyA)).rejects.toMatchObject({ code: 'unauthenticated' });
    } finally {
      await drop();
    }
  });

  it('hashes the keys stored before the hash column (migration 0006), also those stored in clear', async () => {
    const database = await createTestDatabase<RegistryDB>('registry', plainMigrations);
    try {
      const plain = 'wf_stored-before-hashes';
      await sql`insert into workspaces (id, name, owner_id) values ('ws1', 'W', 'u1')`.execute(database.db);
      await sql`insert into workflows (id, workspace_id, name, description, color, is_deployed, api_key) values ('wf1', 'ws1', 'A', '', '#3972F6', true, ${plain})`.execute(database.db);
      await sql`insert into deployment_versions (workflow_id, version, state, editor_version, is_active, deployed_at, created_by) values ('wf1', 1, '{"blocks":{},"edges":[]}', 1, true, now(), 'u1')`.execute(database.db);
      const cipher = createCipher(parseKeys(generateKey('k1')));
      await migrate(database, { ...platformMigrations, ...registryMigrations(cipher) });
      expect(await resolveDeploymentKey(database.db, 'wf1', plain)).toMatchObject({ version: 1, workspaceId: 'ws1' });
    } finally {
      await database.drop();
    }
  });
});
