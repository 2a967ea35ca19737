import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockState } from '@weft/workflow';
import { editorHandlersTestEnv, testCallContext as ctx, TEST_SNAPSHOT_EVERY, type EditorHandlersTestEnv } from '../testSupport.js';
import type { RegistryPort } from '../lifecycle/streamLifecycle.js';

const starters = (state: { blocks: Record<string, BlockState> }) => Object.values(state.blocks).filter((b) => b.type === 'starter').map((b) => b.id).sort();
/** What the registry records: each copy's source (its copied_from), as CheckWorkflows answers it. */
const copies = new Map<string, string>();
const registry: RegistryPort = { existing: () => Promise.resolve(new Set()), copiedFrom: (id) => Promise.resolve(copies.get(id)) };

/**
 * Issue 14 through the editor's gRPC surface on a real store: the registry's duplicate saves the
 * source's whole state into the copy and says whose (copyOfWorkflowId); a source stored with two
 * starters before the one-starter rule is copied as it is, while an ordinary save, or a copy adding
 * a starter its source does not have, is still refused naming `blocks`. The claim is checked: the
 * registry must record the target as a copy of that source and the target must be untouched; the
 * copy is checked against the source at the version the registry read.
 */
describe('duplicating a workflow stored with two starters (real Postgres)', () => {
  let env: EditorHandlersTestEnv['env'];
  let handlers: EditorHandlersTestEnv['handlers'];
  let stateOf: EditorHandlersTestEnv['stateOf'];

  beforeAll(async () => {
    ({ env, handlers, stateOf } = await editorHandlersTestEnv(registry));
  });

  afterAll(async () => {
    await env?.database.drop();
  });

  /** A workflow as a pre-rule editor stored it: a whole-state save added a second starter, "Start 1". */
  async function legacySource(workflowId: string): Promise<Record<string, BlockState>> {
    await env.start(workflowId);
    await env.store.execute(workflowId, [{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 300, y: 0 } }]);
    const { version, state } = await stateOf(workflowId);
    const first = Object.values(state.blocks).find((b) => b.type === 'starter');
    if (!first) throw new Error('a new workflow has a starter');
    const blocks = { ...state.blocks, start2: { ...first, id: 'start2', name: 'Start 1', position: { x: 0, y: 400 } } };
    const data = { type: 'stateReplaced', at: 1_600_000_000_000, blocks, edges: [{ id: 'e1', source: 'start2', target: 'fn' }] };
    await env.db.insertInto('events').values({ workflow_id: workflowId, version: version + 1, type: data.type, data: JSON.stringify(data), occurred_at: new Date() }).execute();
    await env.db.updateTable('streams').set({ version: version + 1 }).where('workflow_id', '=', workflowId).execute();
    const stored = await stateOf(workflowId);
    expect(starters(stored.state)).toEqual([first.id, 'start2'].sort());
    return stored.state.blocks;
  }

  /** A new workflow the registry made by duplicating `source` (its copied_from), its stream started. */
  async function newCopy(workflowId: string, source: string): Promise<void> {
    copies.set(workflowId, source);
    await env.start(workflowId);
  }

  /** The registry's save into a copy: the source's blocks as read at `version` (its version now unless given). */
  async function save(workflowId: string, blocks: Record<string, BlockState>, copyOf?: string, version?: number) {
    const copyOfVersion = copyOf ? (version ?? (await env.store.current(copyOf))?.version ?? 1) : undefined;
    return handlers.executeCommands(
      {
        workflowId,
        commandsJson: JSON.stringify([
          { type: 'replaceState', blocks, edges: [{ id: 'e1', source: 'start2', target: 'fn' }] },
          { type: 'replaceVariables', variables: [] },
        ]),
        actorId: 'u1',
        ...(copyOf ? { copyOfWorkflowId: copyOf, copyOfVersion } : {}),
      },
      ctx,
    );
  }

  it('copies the source as it is, both starters and the edge from the second', async () => {
    const blocks = await legacySource('wf-legacy');
    await newCopy('wf-copy', 'wf-legacy');
    await save('wf-copy', blocks, 'wf-legacy');
    const copy = await stateOf('wf-copy');
    expect(starters(copy.state)).toEqual(starters({ blocks }));
    expect(Object.keys(copy.state.blocks).sort()).toEqual(Object.keys(blocks).sort());
    expect(copy.state.edges).toEqual([{ id: 'e1', source: 'start2', target: 'fn' }]);
  });

  it('still refuses, naming blocks, an ordinary save with two starters and a copy adding one its source does not have', async () => {
    const blocks = await legacySource('wf-legacy-2');
    const found2 = `Invalid command: blocks: a workflow can have only one starter block, found 2: `;
    await env.start('wf-not-a-copy');
    await expect(save('wf-not-a-copy', blocks)).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(found2) });

    // The source's own starters, plus a third: the copy may keep two, never gain one.
    await newCopy('wf-copy-plus', 'wf-legacy-2');
    const second = blocks['start2'];
    if (!second) throw new Error('the source has start2');
    const third = { ...second, id: 'start3', name: 'Start 2' };
    await expect(save('wf-copy-plus', { ...blocks, start3: third }, 'wf-legacy-2')).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^Invalid command: blocks: .*found 3/) });

    // A "copy" of a one-starter workflow cannot bring a second either.
    await env.start('wf-one');
    await newCopy('wf-copy-of-one', 'wf-one');
    await expect(save('wf-copy-of-one', blocks, 'wf-one')).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(found2) });

    for (const id of ['wf-not-a-copy', 'wf-copy-plus', 'wf-copy-of-one']) {
      const after = await stateOf(id);
      expect(after.version, id).toBe(1);
      expect(starters(after.state), id).toHaveLength(1);
    }
  });

  it('answers 404 for a copy of a workflow it does not have', async () => {
    await newCopy('wf-orphan-copy', 'wf-nowhere');
    await expect(save('wf-orphan-copy', {}, 'wf-nowhere', 1)).rejects.toMatchObject({ code: 'not_found', message: 'Workflow wf-nowhere not found' });
  });

  it('refuses, naming copyOfWorkflowId, a copy claim the registry does not record: another source, or no duplicate at all', async () => {
    const blocks = await legacySource('wf-legacy-3');
    await env.start('wf-other');
    await newCopy('wf-copy-of-other', 'wf-other');
    await expect(save('wf-copy-of-other', blocks, 'wf-legacy-3')).rejects.toMatchObject({
      code: 'validation',
      message: 'copyOfWorkflowId: workflow wf-copy-of-other is not a duplicate of wf-legacy-3',
    });
    // A workflow created, not duplicated (say a forwarded request naming a legacy workflow as its "source").
    await env.start('wf-plain');
    await expect(save('wf-plain', blocks, 'wf-legacy-3')).rejects.toMatchObject({ code: 'validation', message: 'copyOfWorkflowId: workflow wf-plain is not a duplicate of wf-legacy-3' });
    for (const id of ['wf-copy-of-other', 'wf-plain']) {
      const after = await stateOf(id);
      expect(after.version, id).toBe(1);
      expect(starters(after.state), id).toHaveLength(1);
    }
  });

  it('refuses, naming copyOfWorkflowId, a copy onto a stream edited since the duplication, and a second save of a filled copy', async () => {
    const blocks = await legacySource('wf-legacy-4');
    await newCopy('wf-edited-copy', 'wf-legacy-4');
    await handlers.executeCommands({ workflowId: 'wf-edited-copy', commandsJson: JSON.stringify([{ type: 'addBlock', id: 'x', blockType: 'function', position: { x: 500, y: 0 } }]), actorId: 'u1' }, ctx);
    const edited = 'copyOfWorkflowId: workflow wf-edited-copy has been edited since it was duplicated';
    await expect(save('wf-edited-copy', blocks, 'wf-legacy-4')).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(edited) });
    const after = await stateOf('wf-edited-copy');
    expect(after.version).toBe(2);
    expect(starters(after.state)).toHaveLength(1);

    // The registry's own save fills a copy once; the same claim again is refused like any later edit.
    await newCopy('wf-filled-copy', 'wf-legacy-4');
    await save('wf-filled-copy', blocks, 'wf-legacy-4');
    await expect(save('wf-filled-copy', blocks, 'wf-legacy-4')).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('copyOfWorkflowId: workflow wf-filled-copy has been edited since it was duplicated'),
    });
  });

  it('checks the copy against the source at the version the registry read, so a starter removed since does not refuse it', async () => {
    const blocks = await legacySource('wf-legacy-5');
    const read = await stateOf('wf-legacy-5');
    // After the registry's read: the source loses its second starter, and enough moves follow for
    // a snapshot past the version read (TEST_SNAPSHOT_EVERY), so that version is replayed from the start.
    const moves = Array.from({ length: TEST_SNAPSHOT_EVERY + 10 }, (_, i) => ({ type: 'moveBlock', id: 'fn', position: { x: 300 + i, y: 0 } }));
    await handlers.executeCommands({ workflowId: 'wf-legacy-5', commandsJson: JSON.stringify([{ type: 'removeBlock', id: 'start2' }, ...moves]), actorId: 'u1' }, ctx);
    await env.store.flushSnapshots();
    env.store.clearCache();
    const now = await stateOf('wf-legacy-5');
    expect(starters(now.state)).toHaveLength(1);
    const snapshot = await env.db.selectFrom('snapshots').select('version').where('workflow_id', '=', 'wf-legacy-5').executeTakeFirst();
    expect(Number(snapshot?.version)).toBeGreaterThan(read.version);

    await newCopy('wf-raced-copy', 'wf-legacy-5');
    await save('wf-raced-copy', blocks, 'wf-legacy-5', read.version);
    expect(starters(await stateOf('wf-raced-copy').then((c) => c.state))).toEqual(starters({ blocks }));

    // Checked against the source's state now (one starter), the same blocks would bring a second.
    await newCopy('wf-raced-copy-2', 'wf-legacy-5');
    await expect(save('wf-raced-copy-2', blocks, 'wf-legacy-5', now.version)).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining('found 2') });
  });

  it('refuses a copy without copyOfVersion, or at a version the source never had, naming the field', async () => {
    const blocks = await legacySource('wf-legacy-6');
    const head = (await stateOf('wf-legacy-6')).version;
    await newCopy('wf-copy-6', 'wf-legacy-6');
    const bare = { workflowId: 'wf-copy-6', commandsJson: JSON.stringify([{ type: 'replaceState', blocks, edges: [] }]), actorId: 'u1', copyOfWorkflowId: 'wf-legacy-6' };
    await expect(handlers.executeCommands(bare, ctx)).rejects.toMatchObject({ code: 'validation', message: 'copyOfVersion is required with copyOfWorkflowId' });
    await expect(save('wf-copy-6', blocks, 'wf-legacy-6', head + 1)).rejects.toMatchObject({ code: 'validation', message: `copyOfVersion: workflow wf-legacy-6 has no version ${head + 1} (it is at ${head})` });
    await expect(save('wf-copy-6', blocks, 'wf-legacy-6', 0)).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^copyOfVersion: /) });
    expect((await stateOf('wf-copy-6')).version).toBe(1);
  });
});
