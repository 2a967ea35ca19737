import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata } from '@grpc/grpc-js';
import { createLogger, type CallContext } from '@weft/platform';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { editorTestStore } from '../testSupport.js';
import type { EventTail } from '../live/eventTail.js';
import { createStreamLifecycle } from '../lifecycle/streamLifecycle.js';
import { editorHandlers } from './grpc.js';

const logger = createLogger('test', 'silent');
const ctx: CallContext = { requestId: 'test', metadata: new Metadata(), signal: new AbortController().signal };
/** These calls never read the live tail. */
const noTail: EventTail = { read: () => Promise.reject(new Error('not read here')), stop: () => Promise.resolve() };
const starters = (state: { blocks: Record<string, BlockState> }) => Object.values(state.blocks).filter((b) => b.type === 'starter').map((b) => b.id).sort();

/**
 * Issue 14 through the editor's gRPC surface on a real store: the registry's duplicate saves the
 * source's whole state into the copy and says whose (copyOfWorkflowId); a source stored with two
 * starters before the one-starter rule is copied as it is, while an ordinary save, or a copy adding
 * a starter its source does not have, is still refused naming `blocks`.
 */
describe('duplicating a workflow stored with two starters (real Postgres)', () => {
  let env: Awaited<ReturnType<typeof editorTestStore>>;
  let handlers: ReturnType<typeof editorHandlers>;

  beforeAll(async () => {
    env = await editorTestStore();
    handlers = editorHandlers(env.store, noTail, logger, createStreamLifecycle({ db: env.db, store: env.store, registry: { existing: () => Promise.resolve(new Set()) } }));
  });

  afterAll(async () => {
    await env?.database.drop();
  });

  async function stateOf(workflowId: string): Promise<{ version: number; state: WorkflowState }> {
    const found = await env.store.current(workflowId);
    if (!found) throw new Error(`no stream ${workflowId}`);
    return found;
  }

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

  const save = (workflowId: string, blocks: Record<string, BlockState>, copyOf?: string) =>
    handlers.executeCommands(
      {
        workflowId,
        commandsJson: JSON.stringify([
          { type: 'replaceState', blocks, edges: [{ id: 'e1', source: 'start2', target: 'fn' }] },
          { type: 'replaceVariables', variables: [] },
        ]),
        actorId: 'u1',
        ...(copyOf ? { copyOfWorkflowId: copyOf } : {}),
      },
      ctx,
    );

  it('copies the source as it is, both starters and the edge from the second', async () => {
    const blocks = await legacySource('wf-legacy');
    await env.start('wf-copy');
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
    await env.start('wf-copy-plus');
    const second = blocks['start2'];
    if (!second) throw new Error('the source has start2');
    const third = { ...second, id: 'start3', name: 'Start 2' };
    await expect(save('wf-copy-plus', { ...blocks, start3: third }, 'wf-legacy-2')).rejects.toMatchObject({ code: 'validation', message: expect.stringMatching(/^Invalid command: blocks: .*found 3/) });

    // A "copy" of a one-starter workflow cannot bring a second either.
    await env.start('wf-one');
    await env.start('wf-copy-of-one');
    await expect(save('wf-copy-of-one', blocks, 'wf-one')).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining(found2) });

    for (const id of ['wf-not-a-copy', 'wf-copy-plus', 'wf-copy-of-one']) {
      const after = await stateOf(id);
      expect(after.version, id).toBe(1);
      expect(starters(after.state), id).toHaveLength(1);
    }
  });

  it('answers 404 for a copy of a workflow it does not have', async () => {
    await env.start('wf-orphan-copy');
    await expect(save('wf-orphan-copy', {}, 'wf-nowhere')).rejects.toMatchObject({ code: 'not_found', message: 'Workflow wf-nowhere not found' });
  });
});
