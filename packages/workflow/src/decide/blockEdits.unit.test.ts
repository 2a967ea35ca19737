import { describe, expect, it } from 'vitest';
import { parseCommand, type CommandOf } from '../commands.js';
import { MAX_PAST_ENTRIES } from '../model/history.js';
import { graphOf } from '../model/state.js';
import { given, history } from '../testSupport.js';

const at = { x: 0, y: 0 };
const add = (id: string, blockType: string, extra: Partial<CommandOf<'addBlock'>> = {}): CommandOf<'addBlock'> => ({
  type: 'addBlock',
  id,
  blockType,
  position: at,
  ...extra,
});

describe('setParent (§4 Set or remove parent)', () => {
  const base = history(add('loop1', 'loop'), add('f', 'function'));

  it('§4: setting a parent stores parentId and extent defaults to parent; the loop lists the child', () => {
    const { state } = given(base).when({ type: 'setParent', id: 'f', parentId: 'loop1' });
    expect(state.blocks['f']?.data).toEqual({ parentId: 'loop1', extent: 'parent' });
    expect(state.loops['loop1']?.nodes).toEqual(['f']);
  });

  it('§4: an unchanged parent is skipped', () => {
    const inLoop = [...base, ...given(base).when({ type: 'setParent', id: 'f', parentId: 'loop1' }).events];
    expect(given(inLoop).when({ type: 'setParent', id: 'f', parentId: 'loop1' }).events).toEqual([]);
  });

  it('§4: removing the parent clears parentId and extent', () => {
    const inLoop = [...base, ...given(base).when({ type: 'setParent', id: 'f', parentId: 'loop1' }).events];
    const { state } = given(inLoop).when({ type: 'setParent', id: 'f', parentId: null });
    expect(state.blocks['f']?.data).toEqual({});
    expect(state.loops['loop1']?.nodes).toEqual([]);
  });

  it("§4: an unknown block gives 'Cannot set parent: Block not found'", () => {
    const { error, events } = given(base).when({ type: 'setParent', id: 'ghost', parentId: 'loop1' });
    expect(events).toEqual([]);
    expect(error?.code).toBe('not_found');
    expect(error?.message).toBe('Cannot set parent: Block not found');
  });
});

describe('removeBlock (§4 Remove block)', () => {
  it('§4: removes all descendants, their edges and their stored values', () => {
    const base = history(
      add('outer', 'loop'),
      add('inner', 'parallel', { parentId: 'outer' }),
      add('f', 'function', { parentId: 'inner' }),
      add('a', 'api'),
      { type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 1' },
      { type: 'addEdge', id: 'e1', source: 'start', target: 'outer' },
      { type: 'addEdge', id: 'e2', source: 'f', target: 'a' },
      { type: 'addEdge', id: 'e3', source: 'start', target: 'a' },
    );
    const { events, state } = given(base).when({ type: 'removeBlock', id: 'outer' });
    expect(events).toEqual([
      { type: 'blockRemoved', at: 1_000, id: 'outer', blockIds: ['outer', 'inner', 'f'], edgeIds: ['e1', 'e2'] },
    ]);
    expect(Object.keys(state.blocks).sort()).toEqual(['a', 'start']);
    expect(state.edges.map((e) => e.id)).toEqual(['e3']);
    expect(state.loops).toEqual({});
    expect(state.parallels).toEqual({});
    expect(state.history.present.subblockValues['f']).toBeUndefined();
  });
});

describe('duplicateBlock (§4 Duplicate block, §9)', () => {
  it('§4/§9: new id, position +250 x and +20 y, trailing number incremented, values copied deeply', () => {
    const table = [{ cells: { Key: 'a', Value: 'b' } }];
    const base = history(
      { ...add('a1', 'api'), name: 'API 1', position: { x: 10, y: 30 } },
      { type: 'setSubBlockValue', id: 'a1', subBlockId: 'headers', value: table },
    );
    const { state } = given(base).when({ type: 'duplicateBlock', id: 'a1', newId: 'a2' });
    const copy = state.blocks['a2'];
    expect(copy?.name).toBe('API 2');
    expect(copy?.position).toEqual({ x: 260, y: 50 });
    expect(copy?.subBlocks['headers']?.value).toEqual(table);
    expect(copy?.subBlocks['headers']?.value).not.toBe(state.blocks['a1']?.subBlocks['headers']?.value);
  });

  it("§4: a name without a trailing number gets ' 1'", () => {
    const { state } = given(history({ ...add('x', 'agent'), name: 'Writer' })).when({ type: 'duplicateBlock', id: 'x' });
    expect(state.blocks['id-1']?.name).toBe('Writer 1');
  });
});

describe('renameBlock (§4 Rename block)', () => {
  it('§4: <oldname. references in other blocks are rewritten, names compared lowercased without spaces', () => {
    const base = history(
      { ...add('ag', 'agent'), name: 'My Agent' },
      add('f', 'function'),
      { type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return <myagent.content> + <MyAgent.tokens>' },
      { type: 'setSubBlockValue', id: 'ag', subBlockId: 'userPrompt', value: 'self <myagent.content>' },
    );
    const { state } = given(base).when({ type: 'renameBlock', id: 'ag', name: 'Research Bot' });
    expect(state.blocks['ag']?.name).toBe('Research Bot');
    expect(state.blocks['f']?.subBlocks['code']?.value).toBe('return <researchbot.content> + <researchbot.tokens>');
    expect(state.blocks['ag']?.subBlocks['userPrompt']?.value).toBe('self <myagent.content>');
  });

  it('§4: references nested in table values are rewritten too', () => {
    const base = history(
      { ...add('s', 'api'), name: 'Source' },
      add('t', 'api'),
      { type: 'setSubBlockValue', id: 't', subBlockId: 'headers', value: [{ cells: { Key: 'x', Value: '<source.data>' } }] },
    );
    const { state } = given(base).when({ type: 'renameBlock', id: 's', name: 'Origin' });
    expect(state.blocks['t']?.subBlocks['headers']?.value).toEqual([{ cells: { Key: 'x', Value: '<origin.data>' } }]);
  });
});

describe('advanced mode (§4)', () => {
  const base = history(add('ag', 'agent'), { type: 'setSubBlockValue', id: 'ag', subBlockId: 'memories', value: 'm' });

  it('§4: turning advanced mode on from basic keeps the memories value', () => {
    const { state } = given(base).when({ type: 'setAdvancedMode', id: 'ag', advancedMode: true });
    expect(state.blocks['ag']?.advancedMode).toBe(true);
    expect(state.blocks['ag']?.subBlocks['memories']?.value).toBe('m');
  });

  it('§4: turning advanced mode off clears the memories value when it was in advanced mode', () => {
    const advanced = [...base, ...given(base).when({ type: 'setAdvancedMode', id: 'ag', advancedMode: true }).events];
    const { state } = given(advanced).when({ type: 'setAdvancedMode', id: 'ag', advancedMode: false });
    expect(state.blocks['ag']?.advancedMode).toBe(false);
    expect(state.blocks['ag']?.subBlocks['memories']?.value).toBeNull();
  });

  it('§4: setting it on again while in advanced mode also clears memories', () => {
    const advanced = history(
      add('ag', 'agent'),
      { type: 'setAdvancedMode', id: 'ag', advancedMode: true },
      { type: 'setSubBlockValue', id: 'ag', subBlockId: 'memories', value: 'm' },
    );
    const { state } = given(advanced).when({ type: 'setAdvancedMode', id: 'ag', advancedMode: true });
    expect(state.blocks['ag']?.subBlocks['memories']?.value).toBeNull();
  });
});

describe('toggles, move and resize (§4)', () => {
  const base = history(add('f', 'function'));

  it('§4: toggle enabled and handle orientation flip the flags', () => {
    const { state } = given(base).when([
      { type: 'toggleEnabled', id: 'f' },
      { type: 'toggleHandles', id: 'f' },
    ]);
    expect(state.blocks['f']).toMatchObject({ enabled: false, horizontalHandles: false });
  });

  it('§4: setWide toggles when isWide is absent and sets it when given', () => {
    expect(given(base).when({ type: 'setWide', id: 'f' }).state.blocks['f']?.isWide).toBe(true);
    expect(given(base).when({ type: 'setWide', id: 'f', isWide: false }).state.blocks['f']?.isWide).toBe(false);
  });

  it('§4: move sets the position and resize the width and height in data', () => {
    const { state } = given(base).when([
      { type: 'moveBlock', id: 'f', position: { x: 5, y: 6 } },
      { type: 'resizeBlock', id: 'f', width: 300, height: 200 },
    ]);
    expect(state.blocks['f']?.position).toEqual({ x: 5, y: 6 });
    expect(state.blocks['f']?.data).toEqual({ width: 300, height: 200 });
  });

  it('§4: editing a missing block is refused as not_found', () => {
    expect(given(base).when({ type: 'moveBlock', id: 'zz', position: at }).error?.code).toBe('not_found');
  });
});

describe('nesting cycles', () => {
  it('§4 Set parent: a block cannot become its own ancestor', () => {
    const base = history(add('outer', 'loop'), add('inner', 'parallel', { parentId: 'outer' }));
    expect(given(base).when({ type: 'setParent', id: 'outer', parentId: 'inner' }).error?.code).toBe('validation');
    expect(given(base).when({ type: 'setParent', id: 'outer', parentId: 'outer' }).error?.code).toBe('validation');
  });
});

describe('setSubBlockValue with dependents to clear (a selector of the changed choice)', () => {
  const base = history(
    add('j', 'function'),
    { type: 'setSubBlockValue', id: 'j', subBlockId: 'projectId', value: '10000' },
    { type: 'setSubBlockValue', id: 'j', subBlockId: 'issueKey', value: 'PROJ-2' },
  );

  it('sets the value and empties the dependents holding a choice in one event, undone in one step', () => {
    const { events, state } = given(base).when({ type: 'setSubBlockValue', id: 'j', subBlockId: 'projectId', value: '10001', clear: ['issueKey', 'manualIssueKey'] });
    expect(events).toEqual([
      { type: 'subBlockValueSetAndCleared', at: 1_000, id: 'j', subBlockId: 'projectId', subBlockType: 'unknown', value: '10001', cleared: ['issueKey'] },
    ]);
    expect(state.blocks['j']?.subBlocks['projectId']?.value).toBe('10001');
    expect(state.blocks['j']?.subBlocks['issueKey']?.value).toBe('');
    expect(state.history.present.action).toBe('Function 1 › Project Id');
    const undone = given([...base, ...events]).when({ type: 'undo' }).state;
    expect(undone.blocks['j']?.subBlocks['projectId']?.value).toBe('10000');
    expect(undone.blocks['j']?.subBlocks['issueKey']?.value).toBe('PROJ-2');
  });

  it('an unchanged value, or no dependent holding a choice, is a plain subBlockValueSet', () => {
    expect(given(base).when({ type: 'setSubBlockValue', id: 'j', subBlockId: 'projectId', value: '10000', clear: ['issueKey'] }).events.map((e) => e.type)).toEqual(['subBlockValueSet']);
    expect(given(base).when({ type: 'setSubBlockValue', id: 'j', subBlockId: 'projectId', value: '10001', clear: ['manualIssueKey'] }).events.map((e) => e.type)).toEqual(['subBlockValueSet']);
  });
});

describe('growBlock (click-to-add into a container, issue 14)', () => {
  const base = history(add('loop1', 'loop', { data: { width: 500, height: 300 } }), add('f', 'function'), add('p', 'parallel'));

  it('grows a loop to at least the sizes asked for, each side the larger of its size and the minimum', () => {
    const { events, state } = given(base).when({ type: 'growBlock', id: 'loop1', minWidth: 760, minHeight: 200 });
    expect(events).toEqual([{ type: 'blockResized', at: 1_000, id: 'loop1', width: 760, height: 300 }]);
    expect(state.blocks['loop1']?.data).toMatchObject({ width: 760, height: 300 });
    // A container with no size in its data counts as the 500 x 300 the canvas draws it at.
    expect(given(base).when({ type: 'growBlock', id: 'p', minHeight: 420 }).events).toEqual([
      { type: 'blockResized', at: 1_000, id: 'p', width: 500, height: 420 },
    ]);
  });

  it('is a no-op when the container is already big enough', () => {
    expect(given(base).when({ type: 'growBlock', id: 'loop1', minWidth: 500, minHeight: 120 }).events).toEqual([]);
    expect(given(base).when({ type: 'growBlock', id: 'loop1' }).events).toEqual([]);
    expect(given(base).when({ type: 'growBlock', id: 'p', minWidth: 499 }).events).toEqual([]);
  });

  it('refuses a block that is not a container, a missing one, and bad numbers, naming the field', () => {
    const plain = given(base).when({ type: 'growBlock', id: 'f', minWidth: 900 });
    expect(plain.error?.code).toBe('validation');
    expect(plain.error?.message).toBe('Invalid command: id: f is a function block; only a loop or parallel grows');
    expect(given(base).when({ type: 'growBlock', id: 'ghost', minWidth: 900 }).error?.code).toBe('not_found');
    expect(() => parseCommand({ type: 'growBlock', id: 'loop1', minWidth: -1 })).toThrow(/minWidth/);
    expect(() => parseCommand({ type: 'growBlock', id: 'loop1', minHeight: 'tall' })).toThrow(/minHeight/);
    expect(() => parseCommand({ type: 'growBlock', id: 'loop1', minWidth: Number.POSITIVE_INFINITY })).toThrow(/minWidth/);
  });

  it('two concurrent grows of one container compose, whichever lands second (as the session re-sends after a conflict)', () => {
    // A and B both start from the 500 x 300 loop: A needs it taller, B wider.
    const a = { type: 'growBlock', id: 'loop1', minWidth: 500, minHeight: 420 } as const;
    const b = { type: 'growBlock', id: 'loop1', minWidth: 760, minHeight: 300 } as const;
    for (const [first, second] of [[a, b], [b, a]] as const) {
      const once = given(base).when(first);
      const twice = given([...base, ...once.events]).when(second);
      expect(twice.state.blocks['loop1']?.data).toMatchObject({ width: 760, height: 420 });
    }
    // With resizeBlock's absolute sizes, B landing second shrank A's growth.
    const resized = given(base).when([
      { type: 'resizeBlock', id: 'loop1', width: 500, height: 420 },
      { type: 'resizeBlock', id: 'loop1', width: 760, height: 300 },
    ]);
    expect(resized.state.blocks['loop1']?.data).toMatchObject({ width: 760, height: 300 });
  });
});

/** start → a → b, a → c, b → c; loop `l` holding `f` (f → c); `d` stands alone. */
const several = history(
  add('a', 'api'),
  add('b', 'function'),
  add('c', 'agent'),
  add('d', 'function'),
  add('l', 'loop'),
  add('f', 'function', { parentId: 'l' }),
  { type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 1' },
  { type: 'addEdge', id: 'e-sa', source: 'start', target: 'a' },
  { type: 'addEdge', id: 'e-ab', source: 'a', target: 'b' },
  { type: 'addEdge', id: 'e-ac', source: 'a', target: 'c' },
  { type: 'addEdge', id: 'e-bc', source: 'b', target: 'c' },
  { type: 'addEdge', id: 'e-fc', source: 'f', target: 'c' },
);

describe('removeBlock with ids (issue 14: deleting several blocks is one undo step)', () => {
  it('several blocks are ONE blockRemoved event listing each block and each edge once, and one history entry', () => {
    const before = given(several).state;
    const { events, state } = given(several).when({ type: 'removeBlock', ids: ['a', 'b', 'l'] });
    expect(events).toEqual([
      { type: 'blockRemoved', at: 1_000, id: 'a', blockIds: ['a', 'b', 'l', 'f'], edgeIds: ['e-sa', 'e-ab', 'e-ac', 'e-bc', 'e-fc'] },
    ]);
    expect(Object.keys(state.blocks).sort()).toEqual(['c', 'd', 'start']);
    expect(state.edges).toEqual([]);
    expect(state.loops).toEqual({});
    expect(state.history.past).toHaveLength(before.history.past.length + 1);
    expect(state.history.present.action).toBe('Remove 3 blocks');
  });

  it('one undo restores every block, child, value and edge; one redo removes them all again', () => {
    const removed = [...several, ...given(several).when({ type: 'removeBlock', ids: ['a', 'b', 'l'] }).events];
    const undone = given(removed).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(several).state));
    expect(undone.state.blocks['f']?.subBlocks['code']?.value).toBe('return 1');
    const redone = given([...removed, ...undone.events]).when({ type: 'redo' });
    expect(graphOf(redone.state)).toEqual(graphOf(given(removed).state));
  });

  it('more blocks than history keeps entries come back with one undo', () => {
    const many = Array.from({ length: MAX_PAST_ENTRIES + 5 }, (_, i) => add(`m${i}`, 'function'));
    const full = history(...many);
    const ids = many.map((command) => command.id ?? '');
    const removed = [...full, ...given(full).when({ type: 'removeBlock', ids }).events];
    expect(Object.keys(given(removed).state.blocks)).toEqual(['start']);
    const undone = given(removed).when({ type: 'undo' });
    expect(Object.keys(undone.state.blocks).sort()).toEqual(['start', ...ids].sort());
  });

  it('a child named beside its container, or a block named twice, is removed once', () => {
    const { events } = given(several).when({ type: 'removeBlock', ids: ['f', 'l', 'd', 'd'] });
    expect(events).toEqual([{ type: 'blockRemoved', at: 1_000, id: 'f', blockIds: ['f', 'l', 'd'], edgeIds: ['e-fc'] }]);
  });

  it('the single-id form still removes one block with its children', () => {
    const { events } = given(several).when({ type: 'removeBlock', id: 'l' });
    expect(events).toEqual([{ type: 'blockRemoved', at: 1_000, id: 'l', blockIds: ['l', 'f'], edgeIds: ['e-fc'] }]);
  });

  it('ids already gone (another editor deleted them first) are skipped; the rest are removed', () => {
    const bGone = [...several, ...given(several).when({ type: 'removeBlock', id: 'b' }).events];
    const { events, error, state } = given(bGone).when({ type: 'removeBlock', ids: ['b', 'a', 'ghost', 'd'] });
    expect(error).toBeUndefined();
    expect(events).toEqual([{ type: 'blockRemoved', at: 1_000, id: 'a', blockIds: ['a', 'd'], edgeIds: ['e-sa', 'e-ac'] }]);
    expect(Object.keys(state.blocks).sort()).toEqual(['c', 'f', 'l', 'start']);
  });

  it('ids of which none remain are refused as not_found, naming the ids', () => {
    const { events, error } = given(several).when({ type: 'removeBlock', ids: ['ghost', 'gone', 'ghost'] });
    expect(events).toEqual([]);
    expect(error?.code).toBe('not_found');
    expect(error?.message).toBe('Invalid command: ids: none of the blocks exist (ghost, gone)');
  });

  it('the single id form still refuses a missing block as not_found', () => {
    const { events, error } = given(several).when({ type: 'removeBlock', id: 'ghost' });
    expect(events).toEqual([]);
    expect(error?.code).toBe('not_found');
    expect(error?.message).toBe('Block ghost not found');
  });

  it('the command names the field when ids is empty, holds an empty id, or neither or both of id and ids are given', () => {
    expect(() => parseCommand({ type: 'removeBlock', ids: [] })).toThrowError(/^Invalid command: ids: /);
    expect(() => parseCommand({ type: 'removeBlock', ids: ['a', ''] })).toThrowError(/^Invalid command: ids\[1\]: /);
    expect(() => parseCommand({ type: 'removeBlock' })).toThrowError('Invalid command: id: a block id is required (id, or ids for several blocks)');
    expect(() => parseCommand({ type: 'removeBlock', id: 'a', ids: ['b'] })).toThrowError('Invalid command: ids: give id or ids, not both');
    expect(parseCommand({ type: 'removeBlock', ids: ['a', 'b'] })).toEqual({ type: 'removeBlock', ids: ['a', 'b'] });
    expect(parseCommand({ type: 'removeBlock', id: 'a' })).toEqual({ type: 'removeBlock', id: 'a' });
  });
});
