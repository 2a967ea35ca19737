import { describe, expect, it } from 'vitest';
import { parseCommand, type Command } from '../commands.js';
import type { WorkflowEvent } from '../events.js';
import { replay } from '../evolve/evolve.js';
import { given, history } from '../testSupport.js';
import { fromYaml } from '../yaml/codec.js';

/** Names Object.prototype answers to: a plain `blocks[id]` finds something under each. */
const BUILT_IN_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;
const RESERVED = '"__proto__" cannot be an id: it does not survive as a key of a JSON object';

const fn = (id: string, name?: string): Command => ({ type: 'addBlock', id, blockType: 'function', position: { x: 0, y: 0 }, ...(name === undefined ? {} : { name }) });

describe.each(BUILT_IN_NAMES)('an id named like a built-in (%s) is an ordinary id', (name) => {
  it('when no block or variable has it, every command naming it is refused as not found, with no event', () => {
    const workflow = given([...history(), ...given(history()).when(fn('fn')).events]);
    const commands: Command[] = [
      { type: 'addEdge', source: name, target: 'fn' },
      { type: 'addEdge', source: 'fn', target: name },
      { type: 'renameBlock', id: name, name: 'Renamed' },
      { type: 'setSubBlockValue', id: name, subBlockId: 'code', value: 'x' },
      { type: 'removeBlock', id: name },
      { type: 'moveBlock', id: name, position: { x: 1, y: 1 } },
      { type: 'duplicateBlock', id: name },
      { type: 'setParent', id: 'fn', parentId: name },
      { type: 'addBlock', id: 'child', blockType: 'function', position: { x: 0, y: 0 }, parentId: name },
      { type: 'updateVariable', id: name, name: 'x' },
      { type: 'deleteVariable', id: name },
      { type: 'duplicateVariable', id: name },
    ];
    for (const command of commands) {
      const outcome = workflow.when(command);
      expect(outcome.error?.code, command.type).toBe('not_found');
      expect(outcome.events).toEqual([]);
    }
    expect(workflow.when({ type: 'removeBlock', ids: [name] }).error?.code).toBe('not_found');
  });

  it('a block with it is added, edited, connected, duplicated and removed like any other, and its events fold back to the same state', () => {
    const start = history();
    const { events, state } = given(start).when([
      fn(name, 'Built In'),
      fn('fn', 'Fn'),
      { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return <builtin.result>' },
      { type: 'addEdge', id: 'e1', source: name, target: 'fn' },
      { type: 'setSubBlockValue', id: name, subBlockId: 'code', value: 'return 1' },
      { type: 'renameBlock', id: name, name: 'Renamed' },
      { type: 'moveBlock', id: name, position: { x: 5, y: 6 } },
      { type: 'duplicateBlock', id: name, newId: 'copy' },
    ]);
    expect(Object.keys(state.blocks).sort()).toEqual(['copy', 'fn', name, 'start'].sort());
    expect(state.blocks[name]).toMatchObject({ id: name, name: 'Renamed', position: { x: 5, y: 6 } });
    expect(state.blocks[name]?.subBlocks['code']).toEqual({ id: 'code', type: 'code', value: 'return 1' });
    expect(state.blocks['fn']?.subBlocks['code']?.value).toBe('return <renamed.result>');
    expect(state.edges).toEqual([{ id: 'e1', source: name, target: 'fn' }]);
    expect(replay([...start, ...events])).toEqual(state);

    const removed = given([...start, ...events]).when({ type: 'removeBlock', id: name });
    expect(removed.error).toBeUndefined();
    expect(Object.keys(removed.state.blocks).sort()).toEqual(['copy', 'fn', 'start']);
    expect(removed.state.edges).toEqual([]);
    expect(removed.state.history.present.action).toBe('Remove Renamed');
  });

  it('a sub-block with it is a sub-block like any other', () => {
    const { state } = given([...history(), ...given(history()).when(fn('fn')).events]).when([
      { type: 'setSubBlockValue', id: 'fn', subBlockId: name, value: 'v' },
      { type: 'addBlock', id: 'pasted', blockType: 'function', position: { x: 0, y: 0 }, values: { [name]: 'w' } },
    ]);
    expect(state.blocks['fn']?.subBlocks[name]).toEqual({ id: name, type: 'unknown', value: 'v' });
    expect(state.blocks['pasted']?.subBlocks[name]).toEqual({ id: name, type: 'unknown', value: 'w' });
  });

  it('a variable with it is added, updated, listed and deleted like any other', () => {
    const added = given(history()).when([
      { type: 'addVariable', id: name, name: 'count', variableType: 'number', value: 1 },
      { type: 'updateVariable', id: name, name: 'total', value: 2 },
    ]);
    expect(added.error).toBeUndefined();
    expect(added.state.variables).toEqual({ [name]: { id: name, workflowId: 'wf-1', name: 'total', type: 'number', value: 2 } });
    expect(given([...history(), ...added.events]).when({ type: 'addVariable', id: name, name: 'again', variableType: 'plain', value: '' }).error?.code).toBe('conflict');
    expect(given([...history(), ...added.events]).when({ type: 'deleteVariable', id: name }).state.variables).toEqual({});
  });
});

describe('"__proto__" is refused as an id, naming the field', () => {
  it.each([
    [{ type: 'addBlock', id: '__proto__', blockType: 'function', position: { x: 0, y: 0 } }, 'id'],
    [{ type: 'renameBlock', id: '__proto__', name: 'x' }, 'id'],
    [{ type: 'removeBlock', ids: ['a', '__proto__'] }, 'ids[1]'],
    [{ type: 'addEdge', source: '__proto__', target: 'fn' }, 'source'],
    [{ type: 'setSubBlockValue', id: 'fn', subBlockId: '__proto__', value: 1 }, 'subBlockId'],
    [{ type: 'updateVariable', id: '__proto__', name: 'x' }, 'id'],
    [{ type: 'addVariable', id: '__proto__', name: 'x', variableType: 'plain', value: '' }, 'id'],
  ])('%j → %s', (command, field) => {
    expect(() => parseCommand(command)).toThrow(`Invalid command: ${field}: ${RESERVED}`);
  });

  it('as a key of a pasted block’s values or of a synced state’s blocks (JSON keeps it as a key; it is not dropped silently)', () => {
    const values = JSON.parse('{"type":"addBlock","blockType":"function","position":{"x":0,"y":0},"values":{"__proto__":1}}') as unknown;
    expect(() => parseCommand(values)).toThrow(`Invalid command: values.__proto__: ${RESERVED}`);
    const sync = JSON.parse('{"type":"replaceState","edges":[],"blocks":{"__proto__":{"id":"x","type":"function","name":"F","position":{"x":0,"y":0}}}}') as unknown;
    expect(() => parseCommand(sync)).toThrow(`Invalid command: blocks.__proto__: ${RESERVED}`);
  });

  it('as a YAML block id or input, with its line', () => {
    expect(() => fromYaml('blocks:\n  __proto__:\n    type: function\n    name: F\n')).toThrow(`${RESERVED} (blocks.__proto__)`);
    expect(() => fromYaml('blocks:\n  a:\n    type: function\n    name: F\n    parentId: constructor\n')).toThrow('unknown parent block constructor');
    expect(() => fromYaml('blocks:\n  a:\n    type: function\n    name: F\n    connections: [toString]\n')).toThrow('unknown target block toString');
  });
});

describe('folding never writes to a prototype', () => {
  it('a stored event keyed "__proto__" (read back with JSON.parse) folds to an own key, leaving prototypes alone', () => {
    const [workflowStarted] = history();
    const block = workflowStarted?.type === 'workflowStarted' ? workflowStarted.block : undefined;
    const stored = JSON.parse(
      JSON.stringify([
        { type: 'blockAdded', at: 1, block: { ...block, id: 'PROTO' } },
        { type: 'subBlockValueSet', at: 2, id: 'start', subBlockId: 'PROTO', subBlockType: 'unknown', value: 'x' },
        { type: 'variableAdded', at: 3, variable: { id: 'PROTO', workflowId: 'wf-1', name: 'v', type: 'plain', value: '' } },
        { type: 'blockMoved', at: 4, id: 'start', position: { x: 9, y: 9 } },
      ]).replaceAll('PROTO', '__proto__'),
    ) as WorkflowEvent[];
    const state = replay([...history(), ...stored]);
    expect(Object.getPrototypeOf(state.blocks)).toBe(Object.prototype);
    expect(Object.keys(state.blocks).sort()).toEqual(['__proto__', 'start']);
    expect(state.blocks['start']?.position).toEqual({ x: 9, y: 9 });
    const subBlocks = state.blocks['start']?.subBlocks ?? {};
    expect(Object.getPrototypeOf(subBlocks)).toBe(Object.prototype);
    expect(Object.hasOwn(subBlocks, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(state.variables)).toBe(Object.prototype);
    expect(Object.keys(state.variables)).toEqual(['__proto__']);
  });

  it('events stored before the fix (a rename of "toString", decided with no id) fold as they did: no block changes', () => {
    const before = replay(history());
    const stored = JSON.parse(JSON.stringify([{ type: 'blockRenamed', at: 2, id: undefined, name: 'x', rewrites: [] }])) as WorkflowEvent[];
    const after = replay(stored, before);
    expect(after.blocks).toEqual(before.blocks);
  });
});
