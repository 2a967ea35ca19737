import { describe, expect, it } from 'vitest';
import type { Command } from '../commands.js';
import { validateVariable } from '../model/variables.js';
import { given, history } from '../testSupport.js';

const addVar = (name: string, value: unknown = '', variableType: 'plain' | 'string' | 'number' = 'plain', id?: string): Command => ({
  type: 'addVariable',
  ...(id === undefined ? {} : { id }),
  name,
  variableType,
  value,
});

/** The names a saved list (`replaceVariables`) of [id, name] pairs ends with, in its order. */
function savedNames(...list: Array<[string, string]>): Array<string | undefined> {
  const { state } = given(history()).when({ type: 'replaceVariables', variables: list.map(([id, name]) => ({ id, name, type: 'plain', value: '' })) });
  return list.map(([id]) => state.variables[id]?.name);
}

describe('variable validation (§5)', () => {
  it.each([
    ['number', 'abc', 'Not a valid number'],
    ['number', '42', undefined],
    ['boolean', 'yes', 'Expected "true" or "false"'],
    ['boolean', 'TRUE', undefined],
    ['boolean', ' False ', undefined],
    ['object', '[1]', 'Not a valid object format'],
    ['object', '{a: }', 'Invalid object syntax'],
    ['object', '{"a": 1}', undefined],
    ['object', ['x'], 'Not a valid object'],
    ['array', '{"a": 1}', 'Not a valid JSON array'],
    ['array', '[1,', 'Invalid JSON array syntax'],
    ['array', '[1, 2]', undefined],
    ['plain', 'anything', undefined],
  ] as const)('§5: %s %j → %s', (type, value, message) => {
    expect(validateVariable(type, value)).toBe(message);
  });

  it('§5: the message is kept as the variable validationError', () => {
    const { state } = given(history()).when(addVar('count', 'abc', 'number', 'v1'));
    expect(state.variables['v1']).toEqual({ id: 'v1', workflowId: 'wf-1', name: 'count', type: 'number', value: 'abc', validationError: 'Not a valid number' });
  });
});

describe('variable names (§3, §5)', () => {
  it('§3: a legacy string type becomes plain', () => {
    expect(given(history()).when(addVar('s', 'x', 'string', 'v')).state.variables['v']?.type).toBe('plain');
  });

  it('§5: an empty name or a variableN name becomes the next free variableN', () => {
    const { state } = given(history()).when([addVar('', '', 'plain', 'a'), addVar('variable7', '', 'plain', 'b'), addVar('', '', 'plain', 'c')]);
    expect(['a', 'b', 'c'].map((id) => state.variables[id]?.name)).toEqual(['variable1', 'variable2', 'variable3']);
  });

  it("§5: duplicate names get ' (1)', ' (2)'", () => {
    const { state } = given(history()).when([addVar('x', '', 'plain', 'a'), addVar('x', '', 'plain', 'b'), addVar('x', '', 'plain', 'c')]);
    expect(['a', 'b', 'c'].map((id) => state.variables[id]?.name)).toEqual(['x', 'x (1)', 'x (2)']);
  });

  it("§5: a duplicate copy is named '{name} (copy)'", () => {
    const { state } = given(history(addVar('city', 'Paris', 'plain', 'a'))).when({ type: 'duplicateVariable', id: 'a', newId: 'b' });
    expect(state.variables['b']).toMatchObject({ name: 'city (copy)', value: 'Paris' });
  });

  it('§5: renaming rewrites <variable.name> references (lowercased, spaces removed) in all block values', () => {
    const base = history(
      addVar('My City', 'Paris', 'plain', 'a'),
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
      { type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return <variable.mycity>' },
    );
    const { state } = given(base).when({ type: 'updateVariable', id: 'a', name: 'Home Town' });
    expect(state.variables['a']?.name).toBe('Home Town');
    expect(state.blocks['f']?.subBlocks['code']?.value).toBe('return <variable.hometown>');
    expect(state.history.present.state.blocks['f']?.subBlocks['code']?.value).toBe('return <variable.hometown>');
  });

  it('§5: an update revalidates with the new type; delete removes the variable', () => {
    const base = history(addVar('n', '12', 'plain', 'a'));
    const updated = given(base).when({ type: 'updateVariable', id: 'a', variableType: 'boolean' });
    expect(updated.state.variables['a']?.validationError).toBe('Expected "true" or "false"');
    expect(given(base).when({ type: 'deleteVariable', id: 'a' }).state.variables).toEqual({});
  });

  it('§3 a saved list keeps its names: a stored variable3 stays variable3 (the variableN rule is for adding)', () => {
    expect(savedNames(['a', 'variable3'], ['b', 'variable1'])).toEqual(['variable3', 'variable1']);
  });

  it('§5 a saved list: an empty name becomes the next variableN free in the whole list; a repeated name is deduped', () => {
    expect(savedNames(['a', ''], ['b', 'variable2'], ['c', 'variable2'])).toEqual(['variable3', 'variable2', 'variable2 (1)']);
  });

  it('§5 a rename keeps the name typed, variableN included, and dedupes only', () => {
    const base = history(addVar('city', '', 'plain', 'a'), addVar('town', '', 'plain', 'b'));
    expect(given(base).when({ type: 'updateVariable', id: 'a', name: 'variable9' }).state.variables['a']?.name).toBe('variable9');
    expect(given(base).when({ type: 'updateVariable', id: 'a', name: 'town' }).state.variables['a']?.name).toBe('town (1)');
  });

  it('issue 3 Rules: replacing the variables is one event', () => {
    const { events, state } = given(history(addVar('old', '', 'plain', 'a'))).when({
      type: 'replaceVariables',
      variables: [
        { id: 'x', name: 'n', type: 'number', value: '1' },
        { id: 'y', name: 'n', type: 'array', value: '[' },
      ],
    });
    expect(events.map((e) => e.type)).toEqual(['variablesReplaced']);
    expect(Object.values(state.variables).map((v) => [v.name, v.validationError])).toEqual([
      ['n', undefined],
      ['n (1)', 'Invalid JSON array syntax'],
    ]);
  });
});
