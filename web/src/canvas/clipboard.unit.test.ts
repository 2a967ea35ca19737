import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { copyBlocks, pasteCommands, pasteOffset, withoutSecondStarter, withTriggersAtTopLevel } from './clipboard';
import { blockRect } from './place';

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

  it('pastes beside what was copied, keeping its layout, and a second paste beside the first, never on a block', () => {
    const at = (id: string, x: number, y: number, extra: Partial<BlockState> = {}) => block(id, 'agent', { position: { x, y }, ...extra });
    let current = { blocks: { a: at('a', 100, 100), b: at('b', 460, 100), c: at('c', 100, 400, { isWide: true }) }, edges: [], loops: {}, parallels: {}, variables: {} } as unknown as WorkflowState;
    const clip = copyBlocks(current, ['a', 'b']);
    if (!clip) throw new Error('nothing copied');
    const overlap = (p: { x: number; y: number; width: number; height: number }, q: typeof p) => p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
    let n = 0;
    for (let paste = 0; paste < 3; paste++) {
      const offset = pasteOffset(clip, current);
      const { commands } = pasteCommands(clip, () => `p${++n}`, offset);
      const added = commands.flatMap((c) => (c.type === 'addBlock' ? [at(c.id ?? 'unnamed', c.position.x, c.position.y)] : []));
      // The copies keep their places among themselves: b 360 right of a, on its row.
      expect(added.map((b) => [b.position.x - (added[0]?.position.x ?? 0), b.position.y - (added[0]?.position.y ?? 0)])).toEqual([[0, 0], [360, 0]]);
      // None covers a block already there (the originals, the wide block below them, earlier pastes).
      for (const copy of added) for (const there of Object.values(current.blocks)) expect(overlap(blockRect({ ...current, blocks: { [copy.id]: copy } }, copy), blockRect(current, there)), `${copy.id} on ${there.id}`).toBe(false);
      current = { ...current, blocks: { ...current.blocks, ...Object.fromEntries(added.map((b) => [b.id, b])) } };
    }
    // Into a workflow with nothing where they were copied from: pasted right there.
    const empty = { blocks: {}, edges: [], loops: {}, parallels: {}, variables: {} } as unknown as WorkflowState;
    expect(pasteOffset(clip, empty)).toEqual({ x: 0, y: 0 });
  });

  it('copies a block out of a container that is not copied at its place on the canvas', () => {
    const inLoop = { blocks: { loop: block('loop', 'loop', { position: { x: 500, y: 300 } }), inner: block('inner', 'agent', { position: { x: 40, y: 60 }, data: { parentId: 'loop', extent: 'parent' } }) }, edges: [] } as unknown as WorkflowState;
    const clip = copyBlocks(inLoop, ['inner']);
    expect(clip?.blocks[0]?.position).toEqual({ x: 540, y: 360 });
    const { commands } = pasteCommands(clip ?? { blocks: [], edges: [] }, () => 'n', { x: 0, y: 0 });
    expect(commands[0]).toMatchObject({ type: 'addBlock', position: { x: 540, y: 360 } });
    expect(commands[0]).not.toHaveProperty('parentId');
  });

  it('pastes a trigger nested in its copied loop or parallel (stored before the server refused that) at the top level, where it was on the canvas; the rest as it was', () => {
    const triggers = new Set(['starter', 'schedule', 'webhook']);
    const isTrigger = (type: string) => triggers.has(type);
    const stored = {
      blocks: {
        loop: block('loop', 'loop', { position: { x: 500, y: 300 } }),
        sch: block('sch', 'schedule', { position: { x: 20, y: 40 }, data: { parentId: 'loop', extent: 'parent' } }),
        inner: block('inner', 'agent', { position: { x: 200, y: 40 }, data: { parentId: 'loop', extent: 'parent' } }),
        par: block('par', 'parallel', { position: { x: 30, y: 100 }, data: { parentId: 'loop', extent: 'parent' } }),
        hook: block('hook', 'webhook', { position: { x: 5, y: 7 }, data: { parentId: 'par', extent: 'parent' } }),
      },
      edges: [{ id: 'e', source: 'sch', target: 'inner' }],
    } as unknown as WorkflowState;
    const clip = copyBlocks(stored, ['loop']);
    if (!clip) throw new Error('nothing copied');
    const { clip: flat, lifted } = withTriggersAtTopLevel(clip, isTrigger);
    expect(lifted.sort()).toEqual(['hook', 'sch']);
    let n = 0;
    const { commands, ids } = pasteCommands(flat, () => `n${++n}`, { x: 1000, y: 0 });
    // ids lists the new ids in the clip's order.
    const adds = commands.flatMap((c) => (c.type === 'addBlock' ? [c] : []));
    const added = (id: string) => adds.find((c) => c.id === ids[flat.blocks.findIndex((b) => b.id === id)]);
    // Where they were on the canvas (500+20, 300+40; 500+30+5, 300+100+7), moved with the paste, in no container.
    expect(added('sch')).toMatchObject({ position: { x: 1520, y: 340 } });
    expect(added('hook')).toMatchObject({ position: { x: 1535, y: 407 } });
    for (const id of ['sch', 'hook']) {
      expect(added(id), id).not.toHaveProperty('parentId');
      expect(added(id)?.data, id).not.toHaveProperty('extent');
    }
    // The other blocks stay in their containers, and the edge is kept.
    expect(added('inner')).toMatchObject({ parentId: added('loop')?.id, position: { x: 200, y: 40 } });
    expect(added('par')).toMatchObject({ parentId: added('loop')?.id });
    expect(commands.find((c) => c.type === 'addEdge')).toMatchObject({ source: added('sch')?.id, target: added('inner')?.id });
    // A clip with no nested trigger is pasted as it is; a trigger copied alone out of its container is at the top level already.
    const plain = copyBlocks(state, ['loop', 'r']);
    if (!plain) throw new Error('nothing copied');
    expect(withTriggersAtTopLevel(plain, isTrigger)).toEqual({ clip: plain, lifted: [] });
    const alone = copyBlocks(stored, ['sch']);
    expect(alone && withTriggersAtTopLevel(alone, isTrigger).lifted).toEqual([]);
  });
});
