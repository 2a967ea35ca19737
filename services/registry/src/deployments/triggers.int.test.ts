import { describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { AppError } from '@weft/platform';
import type { EditorState } from '../ports.js';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow } from '../entries/workflows.js';
import { activateDeploymentVersion, deploy, getDeployment, revertToDeployed, setWebhookActive, undeploy } from './deployments.js';
import { sql } from 'kysely';
import { setTimeout as pause } from 'node:timers/promises';
import { activeDeployment, CLAIM_LEASE_MS, claimDelivery, deployedWorkflowIds, readDelivery, releaseDelivery, renewDelivery, resolveWebhook, takeOverDelivery } from './triggers.js';

function starter(values: Record<string, unknown>) {
  return { id: 's', type: 'starter', name: 'Start', position: { x: 0, y: 0 }, enabled: true, data: {}, outputs: {}, subBlocks: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { id: k, type: 'short-input', value }])) };
}
function stateWith(blocks: Array<ReturnType<typeof starter>>, edges: Array<{ id: string; source: string; target: string }> = []): EditorState {
  return { blocks: Object.fromEntries(blocks.map((b) => [b.id, b])), edges, loops: {}, parallels: {}, variables: {} };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

/** A test registry whose editor answers each workflow's state from `states`. */
async function registryWithEditor() {
  const states = new Map<string, EditorState>();
  const { registry, drop } = await createTestRegistry({
    editor: { getState: (id: string) => Promise.resolve({ version: 1, state: states.get(id) ?? stateWith([]) }), executeCommands: () => Promise.resolve({ version: 2 }) },
  });
  return { states, registry, drop };
}

describe('deploy checks and webhook registration (real Postgres)', () => {
  it('refuses a broken workflow with every problem, registers webhook paths uniquely, follows undeploy', async () => {
    const { states, registry, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const a = await createWorkflow(registry, 'u1', ws.id, {});
      const b = await createWorkflow(registry, 'u1', ws.id, {});
      const fn = { ...starter({ code: 'return <nosuch.x>' }), id: 'f', type: 'function', name: 'Fn' };
      states.set(a.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: '' }), fn], [{ id: 'e', source: 's', target: 'f' }]));
      const err = await refusal(deploy(registry, 'u1', a.id));
      expect(err.code).toBe('validation');
      expect(err.message).toBe('The workflow cannot be deployed: Fn (code): Reference <nosuch.x> names no block and 1 more problem');
      expect(err.details.problems).toEqual([
        { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <nosuch.x> names no block' },
        { blockId: 's', blockName: 'Start', field: 'webhookPath', message: 'Webhook Path is required' },
      ]);
      expect((await getDeployment(registry, 'u1', a.id)).isDeployed).toBe(false);

      states.set(a.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: '/orders/new' })]));
      expect((await deploy(registry, 'u1', a.id)).hasActiveWebhook).toBe(true);
      const resolved = await resolveWebhook(registry.db, 'orders/new');
      expect(resolved).toMatchObject({ workflowId: a.id, workspaceId: ws.id, ownerId: 'u1', deploymentVersion: 1 });
      expect(JSON.parse(resolved.stateJson).blocks.s.subBlocks.webhookPath.value).toBe('/orders/new');

      states.set(b.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: 'orders/new' })]));
      const conflict = await refusal(deploy(registry, 'u1', b.id));
      expect(conflict.code).toBe('conflict');
      expect(conflict.message).toBe('Start (webhookPath): Webhook path "orders/new" is already used by another workflow');
      expect(conflict.details).toEqual({ field: 'webhookPath', path: 'orders/new', blockId: 's', blockName: 'Start' });
      expect((await getDeployment(registry, 'u1', b.id)).isDeployed).toBe(false);

      // A redeploy without a webhook frees the path; activating version 1 takes it back.
      states.set(a.id, stateWith([starter({ startWorkflow: 'manual' })]));
      expect((await deploy(registry, 'u1', a.id)).hasActiveWebhook).toBe(false);
      expect((await refusal(resolveWebhook(registry.db, 'orders/new'))).code).toBe('not_found');
      expect((await activateDeploymentVersion(registry, 'u1', a.id, 1)).hasActiveWebhook).toBe(true);
      expect((await resolveWebhook(registry.db, 'orders/new')).deploymentVersion).toBe(1);

      await undeploy(registry, 'u1', a.id);
      expect((await refusal(resolveWebhook(registry.db, 'orders/new'))).code).toBe('not_found');
      expect(await activeDeployment(registry.db, a.id)).toBeUndefined();
      expect((await deploy(registry, 'u1', b.id)).hasActiveWebhook).toBe(true);
    } finally {
      await drop();
    }
  });

  it("names no block for a problem of the whole workflow, and reads a container's body from the state's loop list", async () => {
    const { states, registry, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const a = await createWorkflow(registry, 'u1', ws.id, {});
      const fn = (id: string, name: string, code: string) => ({ ...starter({ code }), id, type: 'function', name });
      states.set(a.id, stateWith([fn('f', 'Fn', 'return 1')]));
      const err = await refusal(deploy(registry, 'u1', a.id));
      expect(err.message).toBe('The workflow cannot be deployed: Workflow (blocks): The workflow has no starter block');
      // No blockId or blockName at all, also once the details are JSON (as they travel to the gateway).
      expect(JSON.parse(JSON.stringify(err.details))).toEqual({ problems: [{ field: 'blocks', message: 'The workflow has no starter block' }] });

      // A body block the loop lists (no data.parentId) is inside it, as the runner reads it: no "empty loop", <loop.index> readable.
      const loop = { ...starter({}), id: 'l', type: 'loop', name: 'Loop 1' };
      const listed = stateWith([starter({ startWorkflow: 'manual' }), loop, fn('in', 'Inner', 'return <loop.index>')], [{ id: 'e', source: 's', target: 'l' }]);
      states.set(a.id, { ...listed, loops: { l: { id: 'l', nodes: ['in'] } } });
      expect((await deploy(registry, 'u1', a.id)).isDeployed).toBe(true);
    } finally {
      await drop();
    }
  });

  it('registers every webhook of a workflow (starter and each webhook block) and frees or replaces them all on redeploy and undeploy', async () => {
    const { states, registry, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const a = await createWorkflow(registry, 'u1', ws.id, {});
      const hook = (id: string, name: string, provider: string, path: string) => ({ ...starter({ webhookProvider: provider, webhookConfig: { path } }), id, type: 'webhook', name });
      states.set(a.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: 'multi/start' }), hook('g', 'Git', 'github', 'multi/gh'), hook('t', 'Tele', 'telegram', 'multi/tg')]));
      expect((await deploy(registry, 'u1', a.id)).hasActiveWebhook).toBe(true);
      for (const path of ['multi/start', 'multi/gh', 'multi/tg']) expect((await resolveWebhook(registry.db, path)).workflowId).toBe(a.id);

      // A second workflow claiming one of them is refused, naming its block, field and path; nothing of it is registered.
      const b = await createWorkflow(registry, 'u1', ws.id, {});
      states.set(b.id, stateWith([starter({ startWorkflow: 'manual' }), hook('x', 'Mine', 'generic', 'multi/free'), hook('y', 'Theirs', 'generic', 'multi/tg')]));
      const conflict = await refusal(deploy(registry, 'u1', b.id));
      expect([conflict.code, conflict.message]).toEqual(['conflict', 'Theirs (webhookConfig): Webhook path "multi/tg" is already used by another workflow']);
      expect(conflict.details).toMatchObject({ field: 'webhookConfig', path: 'multi/tg', blockId: 'y' });
      expect((await refusal(resolveWebhook(registry.db, 'multi/free'))).code).toBe('not_found');
      expect((await getDeployment(registry, 'u1', b.id)).isDeployed).toBe(false);

      // A redeploy replaces the set: the dropped block's path is free, a moved one listens on its new path.
      states.set(a.id, stateWith([starter({ startWorkflow: 'manual' }), hook('g', 'Git', 'github', 'multi/gh2')]));
      await deploy(registry, 'u1', a.id);
      expect((await resolveWebhook(registry.db, 'multi/gh2')).workflowId).toBe(a.id);
      for (const path of ['multi/start', 'multi/gh', 'multi/tg']) expect((await refusal(resolveWebhook(registry.db, path))).code).toBe('not_found');
      // b starts by a manual starter: its flag is off (spec 000 §4: the starter's webhook), its blocks listen.
      expect((await deploy(registry, 'u1', b.id)).hasActiveWebhook).toBe(false);

      await undeploy(registry, 'u1', a.id);
      expect((await refusal(resolveWebhook(registry.db, 'multi/gh2'))).code).toBe('not_found');
      expect((await resolveWebhook(registry.db, 'multi/tg')).workflowId).toBe(b.id);
    } finally {
      await drop();
    }
  });

  it("a webhook switched off (hasActiveWebhook false) listens on nothing until switched back on; the switch is the starter's, a webhook block listens while deployed", async () => {
    const { states, registry, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const a = await createWorkflow(registry, 'u1', ws.id, {});
      states.set(a.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: 'switch/a' })]));
      await deploy(registry, 'u1', a.id);
      expect((await resolveWebhook(registry.db, 'switch/a')).workflowId).toBe(a.id);
      expect((await setWebhookActive(registry, 'u1', a.id, false)).hasActiveWebhook).toBe(false);
      const off = await refusal(resolveWebhook(registry.db, 'switch/a'));
      expect([off.code, off.message]).toEqual(['not_found', 'No deployed workflow listens on webhook path "switch/a"']);
      // The path stays the workflow's while it is off.
      const b = await createWorkflow(registry, 'u1', ws.id, {});
      states.set(b.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: 'switch/a' })]));
      expect((await refusal(deploy(registry, 'u1', b.id))).code).toBe('conflict');
      expect((await setWebhookActive(registry, 'u1', a.id, true)).hasActiveWebhook).toBe(true);
      expect((await resolveWebhook(registry.db, 'switch/a')).workflowId).toBe(a.id);

      // A workflow started by a webhook block: the flag follows the starter (manual: off, spec 000 §4), on
      // deploy and after a revert alike, and the block's path listens all the same, switch or not.
      const hookBlock = { ...starter({ webhookProvider: 'generic', webhookConfig: { path: 'switch/block' } }), id: 'h', type: 'webhook', name: 'Hook' };
      const c = await createWorkflow(registry, 'u1', ws.id, {});
      states.set(c.id, stateWith([starter({ startWorkflow: 'manual' }), hookBlock], [{ id: 'e', source: 's', target: 'h' }]));
      expect((await deploy(registry, 'u1', c.id)).hasActiveWebhook).toBe(false);
      expect((await resolveWebhook(registry.db, 'switch/block')).workflowId).toBe(c.id);
      await setWebhookActive(registry, 'u1', c.id, true);
      await revertToDeployed(registry, 'u1', c.id);
      expect((await getDeployment(registry, 'u1', c.id)).hasActiveWebhook).toBe(false);
      expect((await resolveWebhook(registry.db, 'switch/block')).workflowId).toBe(c.id);

      // A starter in webhook mode beside a webhook block: switched off, the starter's path answers not
      // found and the block's still listens; a revert turns the starter's back on.
      const d = await createWorkflow(registry, 'u1', ws.id, {});
      const dHook = { ...hookBlock, subBlocks: { ...hookBlock.subBlocks, webhookConfig: { id: 'webhookConfig', type: 'short-input', value: { path: 'switch/d-block' } } } };
      states.set(d.id, stateWith([starter({ startWorkflow: 'webhook', webhookPath: 'switch/d-start' }), dHook]));
      expect((await deploy(registry, 'u1', d.id)).hasActiveWebhook).toBe(true);
      await setWebhookActive(registry, 'u1', d.id, false);
      expect((await refusal(resolveWebhook(registry.db, 'switch/d-start'))).code).toBe('not_found');
      expect((await resolveWebhook(registry.db, 'switch/d-block')).workflowId).toBe(d.id);
      await revertToDeployed(registry, 'u1', d.id);
      expect((await getDeployment(registry, 'u1', d.id)).hasActiveWebhook).toBe(true);
      expect((await resolveWebhook(registry.db, 'switch/d-start')).workflowId).toBe(d.id);
    } finally {
      await drop();
    }
  });

  it('lists the deployed workflows of a workspace, or of every workspace (the runner resyncs their schedules at start)', async () => {
    const { states, registry, drop } = await registryWithEditor();
    try {
      const [w1, w2] = [await createWorkspace(registry, 'u1', 'One'), await createWorkspace(registry, 'u1', 'Two')];
      const [a, b, c] = [await createWorkflow(registry, 'u1', w1.id, {}), await createWorkflow(registry, 'u1', w2.id, {}), await createWorkflow(registry, 'u1', w2.id, {})];
      for (const wf of [a, b, c]) states.set(wf.id, stateWith([starter({ startWorkflow: 'schedule', scheduleType: 'hourly' })]));
      for (const wf of [a, b, c]) await deploy(registry, 'u1', wf.id);
      await undeploy(registry, 'u1', c.id);
      expect(await deployedWorkflowIds(registry.db, w2.id)).toEqual([b.id]);
      const all = await deployedWorkflowIds(registry.db);
      expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(all).not.toContain(c.id);
    } finally {
      await drop();
    }
  });

  it('claims a delivery once however often it comes', async () => {
    const { registry, drop } = await createTestRegistry({});
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimDelivery(registry.db, wf.id, 'gh-123', `exec-${i}`)));
      const firsts = claims.filter((c) => !c.duplicate);
      expect(firsts).toHaveLength(1);
      expect(new Set(claims.map((c) => c.executionId))).toEqual(new Set([firsts[0]?.executionId]));
      expect((await claimDelivery(registry.db, wf.id, 'gh-124', 'exec-x')).duplicate).toBe(false);
      // A run that could not start gives its claim back (only its own); the next delivery runs.
      expect(await releaseDelivery(registry.db, wf.id, 'gh-124', 'exec-other')).toEqual({ released: false });
      expect(await releaseDelivery(registry.db, wf.id, 'gh-124', 'exec-x')).toEqual({ released: true });
      expect(await claimDelivery(registry.db, wf.id, 'gh-124', 'exec-y')).toMatchObject({ duplicate: false, executionId: 'exec-y' });
    } finally {
      await drop();
    }
  });

  it('a repeat whose first claim is given back right after the repeat found it answers, never fails', async () => {
    const { registry, drop } = await createTestRegistry({});
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      expect(await claimDelivery(registry.db, wf.id, 'gh-9', 'exec-1')).toMatchObject({ duplicate: false, executionId: 'exec-1' });
      // The first delivery's start fails and gives its claim back just after the repeat's insert
      // found it taken: a claim read in a statement of its own would find nothing there.
      const inserts = new Set<unknown>();
      const releasedMidway: KyselyPlugin = {
        transformQuery: (args) => {
          if (args.node.kind === 'InsertQueryNode') inserts.add(args.queryId);
          return args.node;
        },
        transformResult: async (args) => {
          if (inserts.has(args.queryId)) await releaseDelivery(registry.db, wf.id, 'gh-9', 'exec-1');
          return args.result;
        },
      };
      const repeat = await claimDelivery(registry.db.withPlugin(releasedMidway), wf.id, 'gh-9', 'exec-2');
      expect(repeat).toMatchObject({ duplicate: true, executionId: 'exec-1' });
      // Given back now, the provider's next retry claims it and runs.
      expect(await claimDelivery(registry.db, wf.id, 'gh-9', 'exec-3')).toMatchObject({ duplicate: false, executionId: 'exec-3' });
      // Claims and give-backs at once: every claim answers one execution that holds or held the delivery.
      const racing = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? releaseDelivery(registry.db, wf.id, 'gh-9', `exec-${i + 1}`) : claimDelivery(registry.db, wf.id, 'gh-9', `exec-${i + 4}`))),
      );
      for (const answer of racing) if ('duplicate' in answer) expect(answer.executionId).toMatch(/^exec-\d+$/);
    } finally {
      await drop();
    }
  });

  it('a claim left behind is taken over by one repeat once stale, never a fresh one', async () => {
    const { registry, drop } = await createTestRegistry({});
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      expect(await readDelivery(registry.db, wf.id, 'gh-7')).toEqual({ stale: false });
      await claimDelivery(registry.db, wf.id, 'gh-7', 'exec-1');
      // Fresh: read as it is, and not taken (its start may be under way).
      expect(await readDelivery(registry.db, wf.id, 'gh-7')).toEqual({ executionId: 'exec-1', stale: false });
      expect(await takeOverDelivery(registry.db, wf.id, 'gh-7', 'exec-1', 'exec-2')).toEqual({ taken: false });
      // The gateway crashed after claiming: the claim ages past the bound.
      await sql`update webhook_deliveries set created_at = now() - interval '1 minute' where delivery_id = 'gh-7'`.execute(registry.db);
      expect(await readDelivery(registry.db, wf.id, 'gh-7')).toEqual({ executionId: 'exec-1', stale: true });
      // Two repeats found it stale at once: one takes it, the other is told no.
      const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => takeOverDelivery(registry.db, wf.id, 'gh-7', 'exec-1', `repeat-${i}`)));
      expect(racing.filter((r) => r.taken)).toHaveLength(1);
      const winner = `repeat-${racing.findIndex((r) => r.taken)}`;
      // The winner's claim is fresh again: later repeats are its duplicates and cannot take it.
      expect(await readDelivery(registry.db, wf.id, 'gh-7')).toEqual({ executionId: winner, stale: false });
      expect(await claimDelivery(registry.db, wf.id, 'gh-7', 'exec-9')).toMatchObject({ duplicate: true, executionId: winner });
      expect(await takeOverDelivery(registry.db, wf.id, 'gh-7', winner, 'exec-10')).toEqual({ taken: false });
      // A stale claim that is no longer the one the repeat found is not taken.
      await sql`update webhook_deliveries set created_at = now() - interval '1 minute' where delivery_id = 'gh-7'`.execute(registry.db);
      expect(await takeOverDelivery(registry.db, wf.id, 'gh-7', 'exec-1', 'exec-11')).toEqual({ taken: false });
    } finally {
      await drop();
    }
  });

  it("a claim its claimer renews is never taken over however long the start takes; once the renewals stop it is, after the lease (the lease a parameter here)", async () => {
    const LEASE = 1_500;
    const { registry, drop } = await createTestRegistry({});
    const db = registry.db;
    // The database's clock, which the lease is measured by.
    const dbNow = async () => (await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db)).rows[0]?.now.getTime() ?? Number.NaN;
    /** Polls `check` until it answers true, failing past `withinMs` of the database's clock. */
    async function until(check: () => Promise<boolean>, withinMs: number): Promise<void> {
      const end = (await dbNow()) + withinMs;
      while (!(await check())) {
        if ((await dbNow()) > end) throw new Error('condition not met in time');
        await pause(25);
      }
    }
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      const claim = await claimDelivery(db, wf.id, 'gh-8', 'exec-1');
      expect(claim).toMatchObject({ duplicate: false, executionId: 'exec-1', leaseMs: CLAIM_LEASE_MS });
      // A slow start: its claimer renews a fifth of a lease apart for three leases; repeats looking
      // all along never find it stale and never take it.
      const slowUntil = claim.claimedAtMs + 3 * LEASE;
      let renewedAt = await dbNow();
      let looks = 0;
      while ((await dbNow()) < slowUntil) {
        if ((await dbNow()) - renewedAt >= LEASE / 5) {
          renewedAt = await dbNow();
          expect(await renewDelivery(db, wf.id, 'gh-8', 'exec-1')).toEqual({ renewed: true });
        }
        expect(await readDelivery(db, wf.id, 'gh-8', LEASE)).toEqual({ executionId: 'exec-1', stale: false });
        expect(await takeOverDelivery(db, wf.id, 'gh-8', 'exec-1', `repeat-${looks}`, LEASE)).toEqual({ taken: false });
        looks += 1;
        await pause(25);
      }
      expect(looks).toBeGreaterThan(3);
      // Its claimer stops renewing (it died): once the lease has lapsed a repeat finds it stale.
      await until(async () => (await readDelivery(db, wf.id, 'gh-8', LEASE)).stale, 4 * LEASE);
      // A claimer that was only slow to renew keeps its claim: the renewal makes it fresh again,
      // and a repeat that found it stale before is told no.
      expect(await renewDelivery(db, wf.id, 'gh-8', 'exec-1')).toEqual({ renewed: true });
      expect(await takeOverDelivery(db, wf.id, 'gh-8', 'exec-1', 'repeat-early', LEASE)).toEqual({ taken: false });
      // No more renewals: lapsed again, one of the repeats racing for it takes it over.
      await until(async () => (await readDelivery(db, wf.id, 'gh-8', LEASE)).stale, 4 * LEASE);
      const racing = await Promise.all(Array.from({ length: 4 }, (_, i) => takeOverDelivery(db, wf.id, 'gh-8', 'exec-1', `late-${i}`, LEASE)));
      expect(racing.filter((r) => r.taken)).toHaveLength(1);
      const winner = `late-${racing.findIndex((r) => r.taken)}`;
      expect(await readDelivery(db, wf.id, 'gh-8', LEASE)).toEqual({ executionId: winner, stale: false });
      // The old claimer, were it alive after all, learns its claim is gone; the new one renews its own.
      expect(await renewDelivery(db, wf.id, 'gh-8', 'exec-1')).toEqual({ renewed: false });
      expect(await renewDelivery(db, wf.id, 'gh-8', winner)).toEqual({ renewed: true });
      // With the registry's own lease, the same claim is fresh.
      expect(await readDelivery(db, wf.id, 'gh-8')).toEqual({ executionId: winner, stale: false });
    } finally {
      await drop();
    }
  });
});
