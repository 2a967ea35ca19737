import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@temporalio/client';
import { createTestDatabase } from '@weft/testkit';
import type { CopilotDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createChatStore, type ChatStore } from './store/chatStore.js';
import { createMemoryEditor, type MemoryEditor } from './testing/memoryEditor.js';
import { applyYamlEdit, runCopilotTool } from './toolRunner.js';
import { createTurns, type Turns } from './turns.js';

const MENDED_YAML = 'blocks:\n  start:\n    type: starter\n    name: Start\n  a1:\n    type: agent\n    name: Agent 1\n';

/**
 * A checkpoint keeps the editor's version its state was read at, and its revert names it
 * (`restoresVersion`): a workflow stored with two blocks named alike before the rule gets them back
 * from a checkpoint far older than the editor's 20-step undo history. A checkpoint stored before
 * versions were kept has only the history, as before.
 */
describe('reverting a copilot checkpoint older than the undo history (chat store on real Postgres)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase<CopilotDB>>>;
  let store: ChatStore;
  let editor: MemoryEditor;
  let turns: Turns;

  beforeAll(async () => {
    database = await createTestDatabase<CopilotDB>('copilot', migrations);
    store = createChatStore(database.db);
    editor = createMemoryEditor();
    const ports = { editor, registry: { environment: () => Promise.resolve({}) }, runs: { lastRun: () => Promise.resolve(null) } };
    // revert never starts a turn: the client's connection is lazy and never opened here.
    turns = createTurns({ client: new Client(), queues: { copilot: 'unused', integrations: 'unused' }, store, ports, operator: { model: 'gpt-4o', provider: 'openai' } });
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** A workflow with "Agent 1" and "agent1" (read alike), as stored before the rule; a copilot edit that mends it; 25 edits after. */
  async function mendedLongAgo(workflowId: string): Promise<{ checkpointId: string; legacyVersion: number }> {
    await editor.execute(workflowId, 'u1', [
      { type: 'addBlock', id: 'start', blockType: 'starter', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 'a1', blockType: 'agent', name: 'Agent 1', position: { x: 300, y: 0 } },
    ]);
    const blocks = editor.state(workflowId).blocks;
    const a1 = blocks['a1'];
    if (!a1) throw new Error('the agent was added');
    editor.storeLegacy(workflowId, { ...blocks, a2: { ...a1, id: 'a2', name: 'agent1', position: { x: 300, y: 300 } } });
    const legacyVersion = (await editor.getState(workflowId)).version;
    const chat = await store.openChat({ workflowId, workspaceId: 'ws', userId: 'u1', firstMessage: 'tidy up' });
    const { checkpointId } = await applyYamlEdit({ ports: { editor, registry: { environment: () => Promise.resolve({}) }, runs: { lastRun: () => Promise.resolve(null) } }, store }, {
      workflowId,
      actorId: 'u1',
      chatId: chat.id,
      turnId: 't1',
      checkpointId: `cp_${workflowId}`,
      yamlContent: MENDED_YAML,
      applyAutoLayout: false,
    });
    expect(editor.state(workflowId).blocks['a2']).toBeUndefined();
    for (let i = 0; i < 25; i++) await editor.execute(workflowId, 'u1', [{ type: 'moveBlock', id: 'start', position: { x: i, y: 0 } }]);
    expect(editor.state(workflowId).history.past.some((entry) => entry.state.blocks['a2'] !== undefined)).toBe(false);
    return { checkpointId, legacyVersion };
  }

  it('keeps the version with the checkpoint and puts the old name clash back on revert', async () => {
    const { checkpointId, legacyVersion } = await mendedLongAgo('wf-1');
    expect((await store.checkpoint(checkpointId)).version).toBe(legacyVersion);
    await turns.revert(checkpointId, 'u1');
    const named = Object.fromEntries(Object.values(editor.state('wf-1').blocks).map((b) => [b.id, b.name]));
    expect(named).toMatchObject({ a1: 'Agent 1', a2: 'agent1' });
  });

  it("edit_workflow with a second starter imports the first and hands the model the warning of the one left out", async () => {
    await editor.execute('wf-3', 'u1', [{ type: 'addBlock', id: 'start', blockType: 'starter', position: { x: 0, y: 0 } }]);
    const chat = await store.openChat({ workflowId: 'wf-3', workspaceId: 'ws', userId: 'u1', firstMessage: 'two starts' });
    const ports = { editor, registry: { environment: () => Promise.resolve({}) }, runs: { lastRun: () => Promise.resolve(null) } };
    const yamlContent = `${MENDED_YAML}  again:\n    type: starter\n    name: Start 2\n`;
    const outcome = await runCopilotTool({ ports, store }, { turnId: 't3', chatId: chat.id, workflowId: 'wf-3', actorId: 'u1', propose: false }, { id: 'c1', name: 'edit_workflow', arguments: { yamlContent } });
    expect(outcome).toMatchObject({
      success: true,
      data: { warnings: ['Left out starter block "Start 2" (again): a workflow can have only one starter block, and "Start" (start) is kept'] },
    });
    expect(Object.values(editor.state('wf-3').blocks).filter((b) => b.type === 'starter').map((b) => b.id)).toEqual(['start']);
  });

  it('a proposal with a new starter before the existing one keeps the existing, and its data and its acceptance say what is left out and which references dangle', async () => {
    await editor.execute('wf-4', 'u1', [{ type: 'addBlock', id: 'start', blockType: 'starter', position: { x: 0, y: 0 } }]);
    const chat = await store.openChat({ workflowId: 'wf-4', workspaceId: 'ws', userId: 'u1', firstMessage: 'propose' });
    const ports = { editor, registry: { environment: () => Promise.resolve({}) }, runs: { lastRun: () => Promise.resolve(null) } };
    const yamlContent = 'blocks:\n  again:\n    type: starter\n    name: Start 2\n  start:\n    type: starter\n    name: Start\n  fn:\n    type: function\n    name: Fn\n    inputs:\n      code: return <start2.input>\n';
    const warning = 'Left out starter block "Start 2" (again): a workflow can have only one starter block, and "Start" (start) is kept; these references to it now read nothing: <start2.input> in "Fn" (fn)';
    const outcome = await runCopilotTool({ ports, store }, { turnId: 't4', chatId: chat.id, workflowId: 'wf-4', actorId: 'u1', propose: true }, { id: 'c1', name: 'edit_workflow', arguments: { yamlContent } });
    expect(outcome).toMatchObject({ success: true, data: { warnings: [warning], diff: { blocks: { removed: [] }, warnings: [warning] } } });
    const proposalId = (outcome as { proposalId: string }).proposalId;
    expect(await store.proposal(proposalId)).toMatchObject({ diff: { warnings: [warning] } });
    expect(await turns.decide(proposalId, 'u1', true)).toMatchObject({ status: 'accepted', warnings: [warning] });
    expect(Object.values(editor.state('wf-4').blocks).filter((b) => b.type === 'starter').map((b) => b.id)).toEqual(['start']);
  });

  it('a checkpoint stored before versions were kept is refused past the history, naming the block', async () => {
    const { checkpointId } = await mendedLongAgo('wf-2');
    await database.db.updateTable('checkpoints').set({ version: null }).where('id', '=', checkpointId).execute();
    await expect(turns.revert(checkpointId, 'u1')).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining('blocks.a2.name') });
    expect(editor.state('wf-2').blocks['a2']).toBeUndefined();
  });
});
