import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext } from '@weft/platform';
import { editorHandlersTestEnv, testCallContext, type EditorHandlersTestEnv } from '../testSupport.js';
import type { RegistryPort } from '../lifecycle/streamLifecycle.js';

const registry: RegistryPort = { existing: () => Promise.resolve(new Set()), copiedFrom: () => Promise.resolve(undefined) };
const from = (caller: string | undefined): CallContext => ({ ...testCallContext, caller });

/**
 * setDeployed, setNeedsRedeployment and setWebhookActive reach the editor's ExecuteCommands only from
 * the registry (the service that owns deployments), as the calling service names itself in the call's
 * metadata; from any other service, or a caller that names none, they are refused (403) and nothing is
 * stored. Editing commands are taken from anyone as before.
 */
describe('deployment-flag commands are taken from the registry only (real Postgres)', () => {
  let t: EditorHandlersTestEnv;

  beforeAll(async () => {
    t = await editorHandlersTestEnv(registry);
    await t.env.start('wf-flags');
  });

  afterAll(async () => {
    await t?.env.database.drop();
  });

  const request = (commands: unknown[]) => ({ workflowId: 'wf-flags', commandsJson: JSON.stringify(commands), actorId: 'u1' });

  it.each([undefined, 'copilot', 'gateway', 'runner'])('refuses them from %s, naming the command, and stores nothing', async (caller) => {
    for (const command of [{ type: 'setDeployed', isDeployed: true }, { type: 'setNeedsRedeployment', needsRedeployment: true }, { type: 'setWebhookActive', hasActiveWebhook: true }]) {
      await expect(t.handlers.executeCommands(request([{ type: 'moveBlock', id: 'nowhere', position: { x: 0, y: 0 } }, command]), from(caller))).rejects.toMatchObject({
        code: 'forbidden',
        message: `commands[1].type: ${command.type} is taken from the registry only, which owns deployments (the caller is ${caller ?? 'unnamed'})`,
      });
    }
    const batch = await t.handlers.executeCommandsBatch({ items: [{ request: request([{ type: 'setDeployed', isDeployed: true }]), requestId: 'r1' }] }, from(caller));
    expect(batch.outcomes[0]?.error?.code).toBe('forbidden');
    const now = await t.stateOf('wf-flags');
    expect([now.version, now.state.isDeployed, now.state.needsRedeployment, now.state.hasActiveWebhook]).toEqual([1, false, false, false]);
  });

  it('takes them from the registry, and editing commands from any caller', async () => {
    await t.handlers.executeCommands(request([{ type: 'setDeployed', isDeployed: true, deployedAt: 1_700_000_000_000 }, { type: 'setNeedsRedeployment', needsRedeployment: true }]), from('registry'));
    const now = await t.stateOf('wf-flags');
    expect([now.state.isDeployed, now.state.deployedAt, now.state.needsRedeployment]).toEqual([true, 1_700_000_000_000, true]);
    await t.handlers.executeCommands(request([{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 300, y: 0 } }]), from('copilot'));
    expect((await t.stateOf('wf-flags')).state.blocks['fn']?.type).toBe('function');
  });

  it.each([undefined, 'copilot', 'gateway'])('refuses a deployed state (revertToDeployed) from %s, naming the field, and stores nothing', async (caller) => {
    const before = await t.stateOf('wf-flags');
    const deployed = { blocks: before.state.blocks, edges: [], deployedAt: 1_700_000_000_000 };
    const revert = { ...request([{ type: 'revertToDeployed' }]), deployedStateJson: JSON.stringify(deployed) };
    await expect(t.handlers.executeCommands(revert, from(caller))).rejects.toMatchObject({
      code: 'forbidden',
      message: `deployedStateJson is taken from the registry only, which owns deployments (the caller is ${caller ?? 'unnamed'})`,
    });
    const batch = await t.handlers.executeCommandsBatch({ items: [{ request: revert, requestId: 'r2' }] }, from(caller));
    expect(batch.outcomes[0]?.error?.code).toBe('forbidden');
    expect((await t.stateOf('wf-flags')).version).toBe(before.version);
    await t.handlers.executeCommands(revert, from('registry'));
    expect((await t.stateOf('wf-flags')).version).toBeGreaterThan(before.version);
  });
});
