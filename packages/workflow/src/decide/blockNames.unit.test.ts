import { describe, expect, it } from 'vitest';
import type { CommandOf } from '../commands.js';
import type { WorkflowEvent } from '../events.js';
import { replay } from '../evolve/evolve.js';
import { graphOf } from '../model/state.js';
import { given, history } from '../testSupport.js';
import { toYaml } from '../yaml/codec.js';

const at = { x: 0, y: 0 };
const add = (id: string, blockType: string, name?: string): CommandOf<'addBlock'> => ({
  type: 'addBlock',
  id,
  blockType,
  position: at,
  ...(name === undefined ? {} : { name }),
});

describe('block names stay unique, as references read them (§4 Rename block)', () => {
  const base = history(
    add('ag', 'agent', 'Agent 1'),
    add('fn', 'function', 'Function 1'),
    add('cond', 'condition', 'Condition 1'),
    { type: 'setSubBlockValue', id: 'cond', subBlockId: 'conditions', value: '<function1.result.len> > 5' },
  );

  it.each(['Agent 1', 'agent 1', 'Agent1', ' AGENT  1 '])('renaming Function 1 to %j is refused: two blocks would answer to <agent1.…>', (name) => {
    const outcome = given(base).when({ type: 'renameBlock', id: 'fn', name });
    expect(outcome.error?.code).toBe('validation');
    expect(outcome.error?.message).toMatch(/^Invalid command: name: a block named "Agent 1" already exists/);
    expect(outcome.state.blocks['cond']?.subBlocks['conditions']?.value).toBe('<function1.result.len> > 5');
  });

  it('the message says how names are compared when they differ only in case or spaces', () => {
    expect(given(base).when({ type: 'renameBlock', id: 'fn', name: 'Agent 1' }).error?.message).toBe('Invalid command: name: a block named "Agent 1" already exists');
    expect(given(base).when({ type: 'renameBlock', id: 'fn', name: 'agent1' }).error?.message).toBe(
      'Invalid command: name: a block named "Agent 1" already exists (names are compared lowercased, without spaces)',
    );
  });

  it('a block may take its own name in another case or spacing', () => {
    const { state, error } = given(base).when({ type: 'renameBlock', id: 'ag', name: 'AGENT 1' });
    expect(error).toBeUndefined();
    expect(state.blocks['ag']?.name).toBe('AGENT 1');
  });

  it('addBlock with a name another block reads as is refused; without a name it takes a free one', () => {
    expect(given(base).when(add('x', 'agent', 'agent 1')).error?.message).toMatch(/^Invalid command: name: a block named "Agent 1" already exists/);
    // Agent 1 deleted, Agent 2 kept: one agent, so the toolbar's name would be "Agent 2" again.
    const gap = history(add('a1', 'agent'), add('a2', 'agent'), { type: 'removeBlock', id: 'a1' });
    expect(given(gap).state.blocks['a2']?.name).toBe('Agent 2');
    expect(given(gap).when(add('a3', 'agent')).state.blocks['a3']?.name).toBe('Agent 3');
  });

  it('a pasted batch of blocks gets a free name for each', () => {
    const { state } = given(base).when([add('p1', 'agent'), add('p2', 'agent')]);
    expect([state.blocks['p1']?.name, state.blocks['p2']?.name]).toEqual(['Agent 2', 'Agent 3']);
  });

  it('duplicateBlock numbers the copy past every name taken (Agent 1 → Agent 3 when Agent 2 exists)', () => {
    const two = history(add('a1', 'agent'), add('a2', 'agent'));
    expect(given(two).when({ type: 'duplicateBlock', id: 'a1', newId: 'c' }).state.blocks['c']?.name).toBe('Agent 3');
    const plain = history(add('w', 'agent', 'Writer'), add('w1', 'agent', 'writer1'));
    expect(given(plain).when({ type: 'duplicateBlock', id: 'w', newId: 'c' }).state.blocks['c']?.name).toBe('Writer 2');
  });

  it('old stored events that gave two blocks one name fold as before', () => {
    const stored: WorkflowEvent[] = [...base, { type: 'blockRenamed', at: 950, id: 'fn', name: 'agent 1', rewrites: [] }];
    const state = replay(stored);
    expect([state.blocks['ag']?.name, state.blocks['fn']?.name]).toEqual(['Agent 1', 'agent 1']);
    // Such a workflow still edits: the clashing block may be renamed away.
    expect(given(stored).when({ type: 'renameBlock', id: 'fn', name: 'Function 1' }).error).toBeUndefined();
  });
});

describe('block names references can read', () => {
  const base = history(
    add('fn', 'function', 'Function 1'),
    add('cond', 'condition', 'Condition 1'),
    { type: 'setSubBlockValue', id: 'cond', subBlockId: 'conditions', value: '<function1.result.len> > 5' },
  );

  it.each(['', '  ', '!!!', '-', '…'])('renaming to %j is refused and the references are kept', (name) => {
    const outcome = given(base).when({ type: 'renameBlock', id: 'fn', name });
    expect(outcome.error?.code).toBe('validation');
    expect(outcome.error?.message).toBe(`Invalid command: name: a block name needs a letter or digit (${JSON.stringify(name)} cannot be referenced)`);
    expect(outcome.state.blocks['cond']?.subBlocks['conditions']?.value).toBe('<function1.result.len> > 5');
  });

  it.each(['Step 1.2', 'a<b', 'x>y'])('a name whose reference would stop early (%j) is refused', (name) => {
    expect(given(base).when({ type: 'renameBlock', id: 'fn', name }).error?.message).toBe(
      'Invalid command: name: a block name cannot contain ".", "<" or ">" (references read <blockname.field>)',
    );
  });

  it('"Variable" is refused: <variable.…> reads workflow variables', () => {
    expect(given(base).when({ type: 'renameBlock', id: 'fn', name: 'Vari able' }).error?.message).toBe(
      'Invalid command: name: a block cannot be named "Vari able": <variable.…> reads workflow variables',
    );
  });

  it.each(['Résumé', '日本語', 'Agent-2', 'step_1', '42'])('a name with letters or digits (%j) is taken', (name) => {
    expect(given(base).when({ type: 'renameBlock', id: 'fn', name }).state.blocks['fn']?.name).toBe(name);
  });

  it('addBlock with a blank name is refused', () => {
    expect(given(base).when(add('x', 'agent', ' ')).error?.message).toMatch(/^Invalid command: name: a block name needs a letter or digit/);
  });
});

describe('whole graphs: sync (replaceState) and YAML import', () => {
  const base = history(add('ag', 'agent', 'Agent 1'));
  const blocks = (names: Record<string, string>) =>
    Object.fromEntries(Object.entries(names).map(([id, name]) => [id, { id, type: 'agent', name, position: at, subBlocks: {}, outputs: {}, enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode: false, data: {} }]));

  it('a sync that gives a new block another block\'s name is refused, naming the block and field', () => {
    const outcome = given(base).when({ type: 'replaceState', blocks: blocks({ start: 'Start', ag: 'Agent 1', b: 'agent1' }), edges: [] });
    expect(outcome.error?.message).toBe('Invalid command: blocks.b.name: a block named "Agent 1" already exists (names are compared lowercased, without spaces) (ag)');
  });

  it('a sync with a blank name is refused', () => {
    expect(given(base).when({ type: 'replaceState', blocks: blocks({ start: 'Start', ag: '  ' }), edges: [] }).error?.message).toMatch(/^Invalid command: blocks\.ag\.name: a block name needs a letter or digit/);
  });

  it('a workflow stored with two blocks of one name (before the rule) still syncs as it is, and its copy too', () => {
    const stored: WorkflowEvent[] = [...history(add('ag', 'agent', 'Agent 1'), add('b', 'agent', 'Agent 2')), { type: 'blockRenamed', at: 950, id: 'b', name: 'Agent 1', rewrites: [] }];
    const graph = graphOf(replay(stored));
    expect(given(stored).when({ type: 'replaceState', blocks: graph.blocks, edges: [] }).error).toBeUndefined();
    expect(given(history()).when({ type: 'replaceState', blocks: graph.blocks, edges: [] }, { copiedState: graph }).error).toBeUndefined();
    // It never gains another.
    expect(given(stored).when({ type: 'replaceState', blocks: { ...graph.blocks, ...blocks({ c: 'AGENT 1' }) }, edges: [] }).error?.message).toMatch(/^Invalid command: blocks\.c\.name: /);
  });

  it('a YAML document with two blocks of one name imports with the later one given the next free number; references keep reading the first', () => {
    const yamlContent = ['blocks:', '  a:', '    type: agent', '    name: Writer', '  b:', '    type: agent', '    name: writer', '  c:', '    type: agent', '    name: Writer 1', '  d:', '    type: function', '    name: Agent 1', ''].join('\n');
    const { error, state } = given(base).when({ type: 'importYaml', yamlContent });
    expect(error).toBeUndefined();
    expect(Object.fromEntries(Object.entries(state.blocks).map(([id, b]) => [id, b.name]))).toEqual({ a: 'Writer', b: 'writer 2', c: 'Writer 1', d: 'Agent 1' });
  });

  it('a save putting back an earlier state of the workflow (the copilot\'s revert of a checkpoint) keeps its old clash', () => {
    const stored: WorkflowEvent[] = [...history(add('ag', 'agent', 'Agent 1'), add('b', 'agent', 'Agent 2')), { type: 'blockRenamed', at: 950, id: 'b', name: 'Agent 1', rewrites: [] }];
    const checkpoint = graphOf(replay(stored));
    const edited = [...stored, ...given(stored).when({ type: 'renameBlock', id: 'b', name: 'Critic' }).events];
    const reverted = given(edited).when({ type: 'replaceState', blocks: checkpoint.blocks, edges: checkpoint.edges });
    expect(reverted.error).toBeUndefined();
    expect(reverted.state.blocks['b']?.name).toBe('Agent 1');
    // A state the workflow never held is still refused.
    const other = given(history(add('ag', 'agent', 'Agent 1'), add('b', 'agent', 'Agent 2'))).when({ type: 'replaceState', blocks: checkpoint.blocks, edges: [] });
    expect(other.error?.message).toMatch(/^Invalid command: blocks\.b\.name: a block named "Agent 1" already exists/);
  });

  it('the export of a workflow stored with two blocks of one name imports into a new workflow (renamed) and into itself (kept)', () => {
    const stored: WorkflowEvent[] = [...history(add('ag', 'agent', 'Agent 1'), add('b', 'agent', 'Agent 2')), { type: 'blockRenamed', at: 950, id: 'b', name: 'Agent 1', rewrites: [] }];
    const exported = toYaml(replay(stored));
    const fresh = given(history()).when({ type: 'importYaml', yamlContent: exported });
    expect(fresh.error).toBeUndefined();
    expect([fresh.state.blocks['ag']?.name, fresh.state.blocks['b']?.name]).toEqual(['Agent 1', 'Agent 2']);
    const again = given(stored).when({ type: 'importYaml', yamlContent: exported });
    expect([again.state.blocks['ag']?.name, again.state.blocks['b']?.name]).toEqual(['Agent 1', 'Agent 1']);
  });

  it('a YAML block whose name no reference can read imports under a readable one: "." "<" ">" dropped, else its type\'s name', () => {
    const yamlContent = ['blocks:', '  a:', '    type: agent', "    name: '!!!'", '  b:', '    type: agent', '    name: GPT-4.1 <Writer>', '  c:', '    type: function', '    name: Variable', '  d:', '    type: api', '    name: Api 1', ''].join('\n');
    const { error, state } = given(base).when({ type: 'importYaml', yamlContent });
    expect(error).toBeUndefined();
    expect(Object.fromEntries(Object.entries(state.blocks).map(([id, b]) => [id, b.name]))).toEqual({ a: 'Agent 1', b: 'GPT-4 1 Writer', c: 'Function 1', d: 'Api 1' });
  });

  it('the export of a workflow with a name stored before the rule ("GPT-4.1 Writer") imports into a new workflow (made readable) and into itself (kept)', () => {
    const stored: WorkflowEvent[] = [...history(add('ag', 'agent', 'Agent 1')), { type: 'blockRenamed', at: 950, id: 'ag', name: 'GPT-4.1 Writer', rewrites: [] }];
    const exported = toYaml(replay(stored));
    const fresh = given(history()).when({ type: 'importYaml', yamlContent: exported });
    expect(fresh.error).toBeUndefined();
    expect(fresh.state.blocks['ag']?.name).toBe('GPT-4 1 Writer');
    expect(given(stored).when({ type: 'importYaml', yamlContent: exported }).state.blocks['ag']?.name).toBe('GPT-4.1 Writer');
  });
});
