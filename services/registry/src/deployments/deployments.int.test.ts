import { describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import { migrate, platformMigrations } from '@weft/platform';
import { graphFingerprint } from '@weft/workflow';
import type { RegistryDB } from '../db.js';
import type { EditorState } from '../ports.js';
import { createTestRegistry } from '../testSupport.js';
import { createCipher, generateKey, parseKeys } from '../secrets/cipher.js';
import { plainMigrations, registryMigrations } from '../migrations/index.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow } from '../entries/workflows.js';
import { activateDeploymentVersion, deploy, getDeployedState, getDeployment, revertToDeployed } from './deployments.js';

/** A draft with a starter and one function block at `x` whose code is `code` (a deploy refuses a workflow without a starter). */
function draft(x: number, code: string): EditorState {
  const block = { id: 'f', type: 'function', name: 'Function 1', position: { x, y: 0 }, subBlocks: { code: { id: 'code', type: 'code', value: code } }, outputs: {}, enabled: true, data: {} };
  const starter = { id: 's', type: 'starter', name: 'Start', position: { x: 0, y: 0 }, subBlocks: {}, outputs: {}, enabled: true, data: {} };
  return { blocks: { s: starter, f: block }, edges: [], loops: {}, parallels: {}, variables: {} };
}

describe('deployed fingerprints (real Postgres)', () => {
  it('are stored on deploy, revert and activate; activating compares the draft by what would run', async () => {
    let state = draft(0, 'return 1');
    const { registry, drop } = await createTestRegistry({
      editor: { getState: () => Promise.resolve({ version: 3, state }), executeCommands: () => Promise.resolve({ version: 4 }) },
    });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      const entry = () => registry.db.selectFrom('workflows').select(['deployed_fingerprint', 'needs_redeployment']).where('id', '=', wf.id).executeTakeFirstOrThrow();
      const v1 = graphFingerprint(state);
      await deploy(registry, 'u1', wf.id);
      expect(await entry()).toEqual({ deployed_fingerprint: v1, needs_redeployment: false });
      state = draft(0, 'return 2');
      await deploy(registry, 'u1', wf.id);
      const v2 = graphFingerprint(state);
      const stored = await registry.db.selectFrom('deployment_versions').select(['version', 'fingerprint']).where('workflow_id', '=', wf.id).orderBy('version').execute();
      expect(stored).toEqual([{ version: 1, fingerprint: v1 }, { version: 2, fingerprint: v2 }]);

      state = draft(500, 'return 1'); // version 1's graph, moved
      expect((await activateDeploymentVersion(registry, 'u1', wf.id, 1)).needsRedeployment).toBe(false);
      expect((await activateDeploymentVersion(registry, 'u1', wf.id, 2)).needsRedeployment).toBe(true);
      expect(await entry()).toEqual({ deployed_fingerprint: v2, needs_redeployment: true });

      await registry.db.updateTable('workflows').set({ deployed_fingerprint: null }).where('id', '=', wf.id).execute();
      await revertToDeployed(registry, 'u1', wf.id);
      expect(await entry()).toEqual({ deployed_fingerprint: v2, needs_redeployment: false });
    } finally {
      await drop();
    }
  });

  it('judge edits made while a deployment was written against the new deployment once it is committed', async () => {
    // The editor moves on between the read that freezes the deployment and its commit.
    const reads: Array<{ version: number; state: EditorState }> = [];
    const { registry, drop } = await createTestRegistry({
      editor: { getState: () => Promise.resolve(reads.length > 1 ? (reads.shift() ?? reads[0]!) : reads[0]!), executeCommands: () => Promise.resolve({ version: 9 }) },
    });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      const entry = () => registry.db.selectFrom('workflows').select(['needs_redeployment', 'baseline_version']).where('id', '=', wf.id).executeTakeFirstOrThrow();
      const flips = async () => (await sql<{ v: boolean }>`select (envelope->'data'->>'needsRedeployment')::boolean as v from outbox where envelope->>'type' = 'needsRedeploymentSet' order by seq`.execute(registry.db)).rows.map((r) => r.v);

      // A value changed during the deploy: the deployment is behind the draft.
      reads.push({ version: 3, state: draft(0, 'return 1') }, { version: 5, state: draft(0, 'return 2') });
      expect((await deploy(registry, 'u1', wf.id)).needsRedeployment).toBe(true);
      expect(await entry()).toEqual({ needs_redeployment: true, baseline_version: 5 });
      expect(await flips()).toEqual([true]);

      // Only a move during the deploy: nothing to redeploy, nothing written.
      reads.length = 0;
      reads.push({ version: 6, state: draft(0, 'return 2') }, { version: 7, state: draft(300, 'return 2') });
      expect((await deploy(registry, 'u1', wf.id)).needsRedeployment).toBe(false);
      expect(await entry()).toEqual({ needs_redeployment: false, baseline_version: 6 });

      // Activating an older version while the draft moves on to what that version runs.
      reads.length = 0;
      reads.push({ version: 8, state: draft(0, 'return 2') }, { version: 9, state: draft(40, 'return 1') });
      expect((await activateDeploymentVersion(registry, 'u1', wf.id, 1)).needsRedeployment).toBe(false);
      // The activation itself stored true (the first read); the settle cleared it and said so.
      expect(await flips()).toEqual([true, false]);

      // An edit that lands right after a revert, before the registry records it, still counts.
      reads.length = 0;
      reads.push({ version: 10, state: draft(0, 'return 3') });
      await revertToDeployed(registry, 'u1', wf.id); // the fake editor answers the revert as version 9
      expect(await entry()).toEqual({ needs_redeployment: true, baseline_version: 10 });
      expect(await flips()).toEqual([true, false, true]);
    } finally {
      await drop();
    }
  });

  it('keep the workflow variables with the deployment, count them in the fingerprint and restore them on revert', async () => {
    const limit = { id: 'v1', workflowId: 'x', name: 'limit', type: 'number', value: 3, validationError: undefined };
    let state: EditorState = { ...draft(0, 'return <variable.limit>'), variables: { v1: limit } };
    let editorVersion = 3;
    const reverts: unknown[] = [];
    const { registry, drop } = await createTestRegistry({
      editor: {
        getState: () => Promise.resolve({ version: editorVersion, state }),
        executeCommands: (_id, _commands, _actor, opts) => {
          reverts.push(opts?.deployedState);
          return Promise.resolve({ version: editorVersion });
        },
      },
    });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      await deploy(registry, 'u1', wf.id);
      const frozen = { v1: { id: 'v1', name: 'limit', type: 'number', value: 3 } };
      expect((await getDeployedState(registry.db, wf.id)).state.variables).toEqual(frozen);
      const row = await registry.db.selectFrom('deployment_versions').select('state').where('workflow_id', '=', wf.id).executeTakeFirstOrThrow();
      expect((row.state as { variables?: unknown }).variables).toEqual(frozen);

      // A changed value is a change to redeploy; setting it back is not.
      editorVersion = 4;
      state = { ...state, variables: { v1: { ...limit, value: 4 } } };
      expect((await getDeployment(registry, 'u1', wf.id)).needsRedeployment).toBe(true);
      editorVersion = 5;
      state = { ...state, variables: { v1: limit } };
      expect((await getDeployment(registry, 'u1', wf.id)).needsRedeployment).toBe(false);

      await revertToDeployed(registry, 'u1', wf.id);
      expect(reverts).toEqual([{ blocks: state.blocks, edges: [], variables: frozen, deployedAt: expect.any(Number) }]);
    } finally {
      await drop();
    }
  });

  it('a deployment saved before variables were kept runs with none and shows needsRedeployment while the draft has some', async () => {
    let state: EditorState = draft(0, 'return 1');
    let version = 3;
    const reverts: unknown[] = [];
    const { registry, drop } = await createTestRegistry({
      editor: {
        getState: () => Promise.resolve({ version, state }),
        executeCommands: (_id, _commands, _actor, opts) => {
          reverts.push(opts?.deployedState);
          return Promise.resolve({ version: 3 });
        },
      },
    });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      await deploy(registry, 'u1', wf.id);
      // As such a deployment was stored: no variables key, the fingerprint of the graph alone.
      await sql`update deployment_versions set state = state - 'variables' where workflow_id = ${wf.id}`.execute(registry.db);
      expect((await getDeployedState(registry.db, wf.id)).state.variables).toBeUndefined();
      expect((await getDeployment(registry, 'u1', wf.id)).needsRedeployment).toBe(false);
      // The draft gains a variable with no edit event the registry saw: the status read says so anyway.
      state = { ...state, variables: { v1: { name: 'limit', type: 'number', value: 3 } } };
      version = 4;
      expect((await getDeployment(registry, 'u1', wf.id)).needsRedeployment).toBe(true);
      // A revert restores the graph and leaves the draft's variables, which the deployment never recorded.
      await revertToDeployed(registry, 'u1', wf.id);
      expect(reverts).toEqual([{ blocks: state.blocks, edges: [], deployedAt: expect.any(Number) }]);
    } finally {
      await drop();
    }
  });

  it('a deployment saved before variables were kept is judged once at its baseline, not on every status read', async () => {
    let state: EditorState = draft(0, 'return 1');
    let version = 3;
    const { registry: plain, drop } = await createTestRegistry({
      editor: { getState: () => Promise.resolve({ version, state }), executeCommands: () => Promise.resolve({ version }) },
    });
    // Each status read's statements, by kind and table.
    let statements: string[] = [];
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        statements.push(`${args.node.kind}${JSON.stringify(args.node).includes('"deployment_versions"') ? ' deployment_versions' : ''}`);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const registry = { ...plain, db: plain.db.withPlugin(counter) };
    try {
      const ws = await createWorkspace(plain, 'u1', 'W');
      const wf = await createWorkflow(plain, 'u1', ws.id, {});
      const read = async () => {
        statements = [];
        const status = await getDeployment(registry, 'u1', wf.id);
        return { needs: status.needsRedeployment, statements };
      };
      await deploy(plain, 'u1', wf.id);
      await sql`update deployment_versions set state = state - 'variables' where workflow_id = ${wf.id}`.execute(plain.db);
      const first = await read();
      expect(first.needs).toBe(false);
      expect(first.statements.filter((q) => q.includes('deployment_versions'))).not.toHaveLength(0);
      // Judged the same at this baseline: later reads neither look at the deployment again nor write.
      const second = await read();
      expect(second.needs).toBe(false);
      expect(second.statements.filter((q) => q.includes('deployment_versions') || q.startsWith('UpdateQueryNode'))).toEqual([]);
      expect(second.statements.length).toBeLessThan(first.statements.length);
      expect((await read()).statements).toEqual(second.statements);
      // An edit that adds a variable is a later draft version: still judged, and shown at once.
      state = { ...state, variables: { v1: { name: 'limit', type: 'number', value: 3 } } };
      version = 4;
      expect((await read()).needs).toBe(true);
    } finally {
      await drop();
    }
  });

  it('are computed by the migration for deployments made before, from their stored state', async () => {
    const database = await createTestDatabase<RegistryDB>('registry', plainMigrations);
    try {
      const old = draft(0, 'return 1');
      const frozen = JSON.stringify({ blocks: old.blocks, edges: old.edges, loops: old.loops, parallels: old.parallels });
      await sql`insert into workspaces (id, name, owner_id) values ('ws', 'W', 'u1')`.execute(database.db);
      await sql`insert into workflows (id, workspace_id, name, description, color, is_deployed) values ('wf', 'ws', 'A', '', '#000', true), ('odd', 'ws', 'B', '', '#000', true)`.execute(database.db);
      await sql`insert into deployment_versions (workflow_id, version, state, editor_version, is_active, deployed_at, created_by) values
        ('wf', 1, ${'{"blocks":{},"edges":[]}'}::jsonb, 1, false, now(), 'u1'), ('wf', 2, ${frozen}::jsonb, 2, true, now(), 'u1'),
        ('odd', 1, ${'{"blocks":[]}'}::jsonb, 1, true, now(), 'u1')`.execute(database.db);
      await migrate(database, { ...platformMigrations, ...registryMigrations(createCipher(parseKeys(generateKey('k1')))) });
      const versions = await database.db.selectFrom('deployment_versions').select(['workflow_id', 'version', 'fingerprint']).orderBy('workflow_id').orderBy('version').execute();
      expect(versions).toEqual([
        { workflow_id: 'odd', version: 1, fingerprint: null },
        { workflow_id: 'wf', version: 1, fingerprint: graphFingerprint({ blocks: {}, edges: [] }) },
        { workflow_id: 'wf', version: 2, fingerprint: graphFingerprint(old) },
      ]);
      const entries = await database.db.selectFrom('workflows').select(['id', 'deployed_fingerprint']).orderBy('id').execute();
      expect(entries).toEqual([
        { id: 'odd', deployed_fingerprint: null },
        { id: 'wf', deployed_fingerprint: graphFingerprint(old) },
      ]);
    } finally {
      await database.drop();
    }
  });
});
