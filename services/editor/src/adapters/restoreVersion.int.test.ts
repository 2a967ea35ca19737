import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockState } from '@weft/workflow';
import { editorHandlersTestEnv, testCallContext as ctx, TEST_SNAPSHOT_EVERY, type EditorHandlersTestEnv } from '../testSupport.js';
import type { RegistryPort } from '../lifecycle/streamLifecycle.js';

const registry: RegistryPort = { existing: () => Promise.resolve(new Set()), copiedFrom: () => Promise.resolve(undefined) };
const starters = (state: { blocks: Record<string, BlockState> }) => Object.values(state.blocks).filter((b) => b.type === 'starter').map((b) => b.id).sort();

/**
 * A copilot checkpoint older than the editor's 20-step undo history, of a workflow stored before the
 * rules (a second starter, two blocks named alike, a schedule inside a loop): its revert names the
 * version it was read at (`restoresVersion`), and the editor takes back what the workflow held at that
 * version, read from its own event log (past a snapshot, too). A state the workflow never held is
 * still refused, whatever version is named.
 */
describe('a whole-state save restoring a version older than the undo history (real Postgres)', () => {
  let t: EditorHandlersTestEnv;

  beforeAll(async () => {
    t = await editorHandlersTestEnv(registry);
  });

  afterAll(async () => {
    await t?.env.database.drop();
  });

  const run = (workflowId: string, commands: unknown[]) => t.handlers.executeCommands({ workflowId, commandsJson: JSON.stringify(commands), actorId: 'u1' }, ctx);

  /** A workflow as a pre-rule editor stored it; answers its blocks and the version they were stored at. */
  async function legacy(workflowId: string): Promise<{ blocks: Record<string, BlockState>; version: number }> {
    await t.env.start(workflowId);
    await run(workflowId, [
      { type: 'addBlock', id: 'a1', blockType: 'agent', name: 'Agent 1', position: { x: 300, y: 0 } },
      { type: 'addBlock', id: 'loop', blockType: 'loop', position: { x: 600, y: 0 } },
    ]);
    const { version, state } = await t.stateOf(workflowId);
    const first = Object.values(state.blocks).find((b) => b.type === 'starter');
    const agent = state.blocks['a1'];
    if (!first || !agent) throw new Error('the workflow has a starter and an agent');
    const sched: BlockState = { ...agent, id: 'sched', type: 'schedule', name: 'Schedule 1', subBlocks: {}, outputs: {}, data: { parentId: 'loop', extent: 'parent' } };
    const blocks = {
      ...state.blocks,
      start2: { ...first, id: 'start2', name: 'Start 1', position: { x: 0, y: 400 } },
      a2: { ...agent, id: 'a2', name: 'agent1', position: { x: 300, y: 400 } },
      sched,
    };
    const data = { type: 'stateReplaced', at: 1_600_000_000_000, blocks, edges: [] };
    await t.env.db.insertInto('events').values({ workflow_id: workflowId, version: version + 1, type: data.type, data: JSON.stringify(data), occurred_at: new Date() }).execute();
    await t.env.db.updateTable('streams').set({ version: version + 1 }).where('workflow_id', '=', workflowId).execute();
    t.env.store.clearCache();
    const stored = await t.stateOf(workflowId);
    expect(starters(stored.state)).toHaveLength(2);
    return { blocks: stored.state.blocks, version: stored.version };
  }

  /** Mends the old state (as a copilot edit would), then moves on far past the history and a snapshot. */
  async function mendAndMoveOn(workflowId: string): Promise<void> {
    await run(workflowId, [{ type: 'removeBlock', id: 'start2' }]);
    await run(workflowId, [{ type: 'renameBlock', id: 'a2', name: 'Writer' }]);
    await run(workflowId, [{ type: 'setParent', id: 'sched', parentId: null }]);
    for (let i = 0; i < 25; i++) await run(workflowId, [{ type: 'moveBlock', id: 'a1', position: { x: 300 + i, y: 0 } }]);
    await run(workflowId, Array.from({ length: TEST_SNAPSHOT_EVERY }, (_, i) => ({ type: 'moveBlock', id: 'loop', position: { x: 600 + i, y: 0 } })));
    await t.env.store.flushSnapshots();
    t.env.store.clearCache();
    const now = await t.stateOf(workflowId);
    expect(now.state.history.past.some((entry) => entry.state.blocks['start2'] !== undefined)).toBe(false);
  }

  it('puts back the second starter, the name clash and the nested trigger of the version named', async () => {
    const old = await legacy('wf-restore');
    await mendAndMoveOn('wf-restore');
    const snapshot = await t.env.db.selectFrom('snapshots').select('version').where('workflow_id', '=', 'wf-restore').executeTakeFirst();
    expect(Number(snapshot?.version)).toBeGreaterThan(old.version);

    // Without the version, the undo history no longer holds that state: refused as before.
    await expect(run('wf-restore', [{ type: 'replaceState', blocks: old.blocks, edges: [] }])).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining('found 2') });

    await run('wf-restore', [{ type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version }]);
    const after = await t.stateOf('wf-restore');
    expect(starters(after.state)).toEqual(starters({ blocks: old.blocks }));
    expect(after.state.blocks['a2']?.name).toBe('agent1');
    expect(after.state.blocks['sched']?.data.parentId).toBe('loop');
  });

  it('still refuses what the workflow did not hold at that version, and a version it never had, naming the field', async () => {
    const old = await legacy('wf-restore-2');
    await mendAndMoveOn('wf-restore-2');
    const head = (await t.stateOf('wf-restore-2')).version;
    const third = { ...old.blocks['start2'], id: 'start3', name: 'Start 3' } as BlockState;
    await expect(run('wf-restore-2', [{ type: 'replaceState', blocks: { ...old.blocks, start3: third }, edges: [], restoresVersion: old.version }])).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringMatching(/^Invalid command: blocks: .*found 3/),
    });
    // The version before the old state was stored held one starter, no clash, no nested trigger.
    await expect(run('wf-restore-2', [{ type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version - 1 }])).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('found 2'),
    });
    await expect(run('wf-restore-2', [{ type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: head + 5 }])).rejects.toMatchObject({
      code: 'validation',
      message: `restoresVersion: workflow wf-restore-2 has no version ${head + 5} (it is at ${head})`,
    });
    await expect(run('wf-restore-2', [{ type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: 0 }])).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('restoresVersion'),
    });
    expect((await t.stateOf('wf-restore-2')).version).toBe(head);
  });

  it('refuses a request restoring two versions, naming the field, before reading either; one version named twice is one', async () => {
    const old = await legacy('wf-restore-3');
    const head = (await t.stateOf('wf-restore-3')).version;
    const twice = [
      { type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version },
      { type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version - 1 },
    ];
    await expect(run('wf-restore-3', twice)).rejects.toMatchObject({
      code: 'validation',
      message: `commands[1].restoresVersion: a request restores one version at most (commands[0] restores ${old.version})`,
    });
    expect((await t.stateOf('wf-restore-3')).version).toBe(head);
    const same = [
      { type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version },
      { type: 'replaceState', blocks: old.blocks, edges: [], restoresVersion: old.version },
    ];
    await run('wf-restore-3', same);
    expect((await t.stateOf('wf-restore-3')).version).toBeGreaterThan(head);
  });
});
