import { describe, expect, it } from 'vitest';
import { given, history, started } from '../testSupport.js';

describe('addBlock', () => {
  it('§3 Block, §4 Add block: a new block takes its definition sub-blocks with defaults and the flag defaults', () => {
    const { events, state } = given(started()).when({ type: 'addBlock', id: 'f1', blockType: 'function', name: 'Function 1', position: { x: 1, y: 2 } });
    expect(events.map((e) => e.type)).toEqual(['blockAdded']);
    expect(state.blocks['f1']).toEqual({
      id: 'f1',
      type: 'function',
      name: 'Function 1',
      position: { x: 1, y: 2 },
      subBlocks: { code: { id: 'code', type: 'code', value: '' } },
      outputs: { result: 'any', stdout: 'string' },
      enabled: true,
      horizontalHandles: true,
      isWide: false,
      height: 0,
      advancedMode: false,
      data: {},
    });
  });

  it('a pasted block: values and settings come with the one blockAdded, so one undo takes the whole block back', () => {
    const pasted = { type: 'addBlock', id: 'f2', blockType: 'function', position: { x: 1, y: 2 }, values: { code: 'return 1', legacy: 'kept' }, enabled: false, isWide: true, horizontalHandles: false, advancedMode: true } as const;
    const { events, state } = given(started()).when(pasted);
    expect(events.map((e) => e.type)).toEqual(['blockAdded']);
    expect(state.blocks['f2']).toMatchObject({
      subBlocks: { code: { id: 'code', type: 'code', value: 'return 1' }, legacy: { id: 'legacy', type: 'unknown', value: 'kept' } },
      enabled: false,
      isWide: true,
      horizontalHandles: false,
      advancedMode: true,
    });
    const undone = given(history(pasted)).when({ type: 'undo' });
    expect(undone.state.blocks['f2']).toBeUndefined();
  });

  it('§4 Add block: an unknown type is refused and nothing is emitted', () => {
    const { events, error } = given(started()).when({ type: 'addBlock', blockType: 'nope', position: { x: 0, y: 0 } });
    expect(events).toEqual([]);
    expect(error?.code).toBe('validation');
  });

  it('§4 Add block: loop and parallel need no definition', () => {
    const { state } = given(started()).when([
      { type: 'addBlock', id: 'l', blockType: 'loop', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 'p', blockType: 'parallel', position: { x: 0, y: 0 } },
    ]);
    expect(state.loops['l']).toEqual({ id: 'l', nodes: [], iterations: 5, loopType: 'for', forEachItems: '' });
    expect(state.parallels['p']).toEqual({ id: 'p', nodes: [], distribution: '', count: 5, parallelType: 'collection' });
  });

  it('issue 3 commands: a block id already in use is refused', () => {
    const { error } = given(started()).when({ type: 'addBlock', id: 'start', blockType: 'api', position: { x: 0, y: 0 } });
    expect(error?.code).toBe('conflict');
  });
});

describe('startWorkflow', () => {
  it('§9: a new workflow has a starter block named Start at 100,100', () => {
    const state = given(started()).state;
    expect(state.blocks['start']).toMatchObject({ type: 'starter', name: 'Start', position: { x: 100, y: 100 } });
    expect(state.blocks['start']?.subBlocks['startWorkflow']?.value).toBe('manual');
    expect(state.history.past).toEqual([]);
  });
});

describe('setSubBlockValue and addEdge', () => {
  it('§4: a value is stored on the sub-block', () => {
    const { state } = given(history({ type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } })).when({
      type: 'setSubBlockValue',
      id: 'f',
      subBlockId: 'code',
      value: 'return 1',
    });
    expect(state.blocks['f']?.subBlocks['code']?.value).toBe('return 1');
  });

  it('§4 Add or remove edge: a duplicate edge is ignored', () => {
    const base = history(
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
      { type: 'addEdge', id: 'e1', source: 'start', target: 'f' },
    );
    const { events, state } = given(base).when({ type: 'addEdge', source: 'start', target: 'f' });
    expect(events).toEqual([]);
    expect(state.edges).toHaveLength(1);
  });

  it('§4 Add or remove edge: removing a missing edge only warns (no events, no refusal)', () => {
    const { events, error } = given(started()).when({ type: 'removeEdge', id: 'missing' });
    expect(events).toEqual([]);
    expect(error).toBeUndefined();
  });
});

describe('decideBatch', () => {
  it('issue 3 API: a batch is atomic; one refusal refuses all', () => {
    const { events, error } = given(started()).when([
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
    ]);
    expect(error?.code).toBe('conflict');
    expect(events).toEqual([]);
  });
});
