import { describe, expect, it } from 'vitest';
import type { CommandOf } from '../commands.js';
import { given, history } from '../testSupport.js';

const add = (id: string, blockType: string, name: string): CommandOf<'addBlock'> => ({ type: 'addBlock', id, blockType, position: { x: 0, y: 0 }, name });
const base = history(add('ag', 'agent', 'Agent 1'), add('fn', 'function', 'Function 1'), add('in', 'function', 'Inner'));

/** The label of the history entry the command makes. */
const labelOf = (command: Parameters<ReturnType<typeof given>['when']>[0]): string | undefined => given(base).when(command).state.history.present.action;

describe('history labels say which block (§3 History entry: action label)', () => {
  it('a value edit names the block and the field: "Agent 1 › System Prompt"', () => {
    expect(labelOf({ type: 'setSubBlockValue', id: 'ag', subBlockId: 'systemPrompt', value: 'Be brief' })).toBe('Agent 1 › System Prompt');
    expect(labelOf({ type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' })).toBe('Function 1 › Code');
    expect(labelOf({ type: 'setSubBlockValue', id: 'ag', subBlockId: 'response_format', value: '{}' })).toBe('Agent 1 › Response Format');
  });

  it('a value edit that empties dependents is labelled by the field set', () => {
    expect(labelOf({ type: 'setSubBlockValue', id: 'ag', subBlockId: 'model', value: 'gpt-4.1', clear: ['tools'] })).toBe('Agent 1 › Model');
  });

  it('rename, remove and enable name the block', () => {
    expect(labelOf({ type: 'renameBlock', id: 'ag', name: 'Writer' })).toBe('Rename Agent 1 to Writer');
    expect(labelOf({ type: 'removeBlock', id: 'fn' })).toBe('Remove Function 1');
    expect(labelOf({ type: 'removeBlock', ids: ['fn', 'in'] })).toBe('Remove 2 blocks');
    expect(labelOf({ type: 'toggleEnabled', id: 'ag' })).toBe('Disable Agent 1');
  });
});
