import { describe, expect, it } from 'vitest';
import { parseCommand, parseCommands } from './commands.js';
import { WorkflowError } from './errors.js';

describe('commandSchema', () => {
  it('issue 3 API: accepts a well-formed addBlock', () => {
    const command = parseCommand({ type: 'addBlock', blockType: 'agent', position: { x: 1, y: 2 } });
    expect(command).toEqual({ type: 'addBlock', blockType: 'agent', position: { x: 1, y: 2 } });
  });

  it('issue 3 API: an invalid command is refused with an error naming the field', () => {
    expect(() => parseCommand({ type: 'moveBlock', id: 'a', position: { x: 'left', y: 0 } })).toThrowError(
      /position\.x/,
    );
    try {
      parseCommands([{ type: 'undo' }, { type: 'renameBlock', id: 'a' }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WorkflowError);
      expect(error instanceof WorkflowError && error.code).toBe('validation');
      expect(String(error)).toMatch(/\[1\]\.name/);
    }
  });

  it('issue 3 API: an unknown command type is refused', () => {
    expect(() => parseCommand({ type: 'explode' })).toThrowError(/type/);
  });

  it('issue 14: addBlock.values refuses an empty sub-block id, naming the field (setSubBlockValue refuses it too)', () => {
    const paste = { type: 'addBlock', blockType: 'function', position: { x: 0, y: 0 } };
    expect(() => parseCommand({ ...paste, values: { '': 1, code: 'return 1' } })).toThrowError(
      /^Invalid command: values: key "": Too small/,
    );
    expect(() => parseCommand({ type: 'setSubBlockValue', id: 'f', subBlockId: '', value: 1 })).toThrowError(/^Invalid command: subBlockId: /);
    expect(parseCommand({ ...paste, values: { code: 'return 1' } })).toEqual({ ...paste, values: { code: 'return 1' } });
  });

  it('§3 Parallel: a block data parallelType other than count is accepted and read as collection', () => {
    const add = parseCommand({ type: 'addBlock', blockType: 'parallel', position: { x: 0, y: 0 }, data: { parallelType: 'round-robin' } });
    expect(add).toMatchObject({ data: { parallelType: 'collection' } });
    const block = { id: 'p', type: 'parallel', name: 'Parallel 1', position: { x: 0, y: 0 } };
    const save = parseCommand({ type: 'replaceState', blocks: { p: { ...block, data: { parallelType: 'Count' } } }, edges: [] });
    expect(save).toMatchObject({ blocks: { p: { data: { parallelType: 'collection' } } } });
    expect(parseCommand({ type: 'replaceState', blocks: { p: { ...block, data: { parallelType: 'count' } } }, edges: [] })).toMatchObject({ blocks: { p: { data: { parallelType: 'count' } } } });
  });
});
