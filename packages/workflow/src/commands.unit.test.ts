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
});
