import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { copyBlocks, pasteCommands, withoutSecondStarter } from './clipboard';

const block = (id: string, type: string, extra: Partial<BlockState> = {}): BlockState =>
  ({ id, type, name: id, position: { x: 10, y: 20 }, subBlocks: {}, outputs: {}, enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode: false, data: {}, ...extra }) as BlockState;

describe('copy and paste', () => {
  const state = {
    blocks: {
      loop: block('loop', 'loop', { data: { width: 600, height: 300, loopType: 'for', count: 3 } }),
      inner: block('inner', 'agent', { data: { parentId: 'loop', extent: 'parent' }, subBlocks: { model: { id: 'model', type: 'combobox', value: 'gpt-4o' } }, enabled: false }),
      r: block('r', 'router'),
      t: block('t', 'agent'),
      other: block('other', 'agent'),
    },
    edges: [
      { id: 'e1', source: 'r', target: 't', sourceHandle: 'router-t' },
      { id: 'e2', source: 't', target: 'other' },
    ],
  } as unknown as WorkflowState;

  it('copies descendants with their container and only the edges among the copied blocks', () => {
    const clip = copyBlocks(state, ['loop', 'r', 't']);
    expect(clip?.blocks.map((b) => b.id).sort()).toEqual(['inner', 'loop', 'r', 't']);
    expect(clip?.edges.map((e) => e.id)).toEqual(['e1']);
  });

  it('pastes with new ids, parents first, values, settings and remapped router handles', () => {
    const clip = copyBlocks(state, ['loop', 'r', 't']);
    if (!clip) throw new Error('nothing copied');
    let n = 0;
    const { commands, ids } = pasteCommands(clip, () => `n${++n}`, { x: 50, y: 50 });
    expect(ids).toHaveLength(4);
    const adds = commands.filter((c) => c.type === 'addBlock');
    const loopAdd = adds.find((c) => c.blockType === 'loop');
    const innerAdd = adds.find((c) => c.type === 'addBlock' && c.parentId !== undefined);
    expect(loopAdd && adds.indexOf(loopAdd)).toBeLessThan(innerAdd ? adds.indexOf(innerAdd) : -1);
    expect(loopAdd).toMatchObject({ position: { x: 60, y: 70 }, data: { width: 600, height: 300, loopType: 'for', count: 3 } });
    expect(innerAdd).toMatchObject({ parentId: loopAdd?.id, position: { x: 10, y: 20 } });
    // Each block is one command with its values and settings: one undo takes it back.
    expect(innerAdd).toMatchObject({ values: { model: 'gpt-4o' }, enabled: false, isWide: false, horizontalHandles: true, advancedMode: false });
    expect(commands.map((c) => c.type).sort()).toEqual(['addBlock', 'addBlock', 'addBlock', 'addBlock', 'addEdge']);
    const edge = commands.find((c) => c.type === 'addEdge');
    const newT = adds.find((c) => c.type === 'addBlock' && c.blockType === 'agent' && c.parentId === undefined)?.id;
    expect(edge).toMatchObject({ target: newT, sourceHandle: `router-${newT}` });
  });

  it('leaves the starter and its edges out of a paste into a workflow that has one, and keeps it for one that has none', () => {
    const source = { blocks: { s: block('s', 'starter'), a: block('a', 'agent') }, edges: [{ id: 'e', source: 's', target: 'a' }] } as unknown as WorkflowState;
    const clip = copyBlocks(source, ['s', 'a']);
    if (!clip) throw new Error('nothing copied');
    const kept = withoutSecondStarter(clip, source);
    expect([kept.clip.blocks.map((b) => b.id), kept.clip.edges, kept.skipped]).toEqual([['a'], [], 1]);
    const empty = { blocks: {}, edges: [] } as unknown as WorkflowState;
    expect(withoutSecondStarter(clip, empty)).toEqual({ clip, skipped: 0 });
  });
});
