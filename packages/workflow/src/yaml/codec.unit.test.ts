import { describe, expect, it } from 'vitest';
import type { LayoutFunction } from '../context.js';
import { elkLayout } from '../layout/elk.layout.js';
import { graphOf } from '../model/state.js';
import { CONTAINER_SIZE } from '../model/subflows.js';
import { MAX_NESTING_DEPTH } from '../model/nesting.js';
import { given, history } from '../testSupport.js';
import { fromYaml, toYaml } from './codec.js';
import { yamlStructureGuide } from './guide.js';

const rich = history(
  { type: 'addBlock', id: 'ag', blockType: 'agent', name: 'Writer', position: { x: 400, y: 100 } },
  { type: 'addBlock', id: 'lp', blockType: 'loop', position: { x: 700, y: 100 } },
  { type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 40, y: 50 }, parentId: 'lp' },
  { type: 'setSubBlockValue', id: 'ag', subBlockId: 'userPrompt', value: 'Write about <start.input>' },
  { type: 'setSubBlockValue', id: 'ag', subBlockId: 'tools', value: [{ type: 'api', params: { url: 'x' } }] },
  { type: 'setSubBlockValue', id: 'fn', subBlockId: 'extra', value: 7 },
  { type: 'updateLoop', id: 'lp', iterations: 3, loopType: 'forEach', forEachItems: '[1,2]' },
  { type: 'toggleEnabled', id: 'ag' },
  { type: 'setAdvancedMode', id: 'ag', advancedMode: true },
  { type: 'resizeBlock', id: 'lp', width: 600, height: 320 },
  { type: 'addEdge', id: 'e1', source: 'start', target: 'ag' },
  { type: 'addEdge', id: 'e2', source: 'ag', target: 'lp', sourceHandle: 'source', targetHandle: 'target' },
);

const withoutEdgeIds = (edges: Array<{ id: string }>) => edges.map(({ id: _id, ...rest }) => rest);

describe('YAML codec (issue 3 YAML)', () => {
  it('round-trips: importing the export gives the same blocks, loops and connections', () => {
    const before = given(rich).state;
    const { state, events } = given(rich).when({ type: 'importYaml', yamlContent: toYaml(before) });
    expect(events.map((e) => e.type)).toEqual(['yamlImported']);
    expect(state.blocks).toEqual(before.blocks);
    expect(state.loops).toEqual(before.loops);
    expect(withoutEdgeIds(state.edges)).toEqual(withoutEdgeIds(before.edges));
    expect(toYaml(state)).toBe(toYaml(before));
  });

  it('import is one undoable event; undo restores the previous graph', () => {
    const yaml = 'blocks:\n  s:\n    type: starter\n    name: Start\n';
    const imported = given(rich).when({ type: 'importYaml', yamlContent: yaml, description: 'Copilot edit' });
    expect(imported.state.history.present.action).toBe('Copilot edit');
    expect(Object.keys(imported.state.blocks)).toEqual(['s']);
    const undone = given([...rich, ...imported.events]).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(rich).state));
  });

  it('a checkpoint of the previous graph is kept when asked', () => {
    const { events } = given(rich).when({ type: 'importYaml', yamlContent: 'blocks: {}\n', createCheckpoint: true });
    const [event] = events;
    expect(event?.type === 'yamlImported' && Object.keys(event.checkpoint?.blocks ?? {}).sort()).toEqual(['ag', 'fn', 'lp', 'start']);
  });

  it('invalid YAML syntax is refused with a message naming the line, and nothing changes', () => {
    const { error, events } = given(rich).when({ type: 'importYaml', yamlContent: 'blocks:\n  a:\n    type: agent\n   name: [oops\n' });
    expect(events).toEqual([]);
    expect(error?.code).toBe('validation');
    expect(error?.message).toMatch(/^Invalid YAML at line \d+/);
  });

  it('a structural error names the line of the offending block', () => {
    const text = 'version: "1.0"\nblocks:\n  a:\n    type: agent\n    name: A\n  b:\n    type: 12\n    name: B\n';
    expect(() => fromYaml(text)).toThrowError(/^Invalid YAML at line 7: .*blocks\.b\.type/);
  });

  it('an unknown block type and an unknown connection target name their lines', () => {
    const unknownType = 'blocks:\n  a:\n    name: A\n    type: teleporter\n';
    expect(given(rich).when({ type: 'importYaml', yamlContent: unknownType }).error?.message).toMatch(/^Invalid YAML at line 4: Unknown block type/);
    const badTarget = 'blocks:\n  a:\n    type: starter\n    name: A\n    connections:\n      - ghost\n';
    expect(() => fromYaml(badTarget)).toThrowError(/^Invalid YAML at line 6: unknown target block ghost/);
  });

  // Listed end first: the row blocks without a position fall back to would put b left of s.
  const chain = 'blocks:\n  b:\n    type: api\n    name: B\n  a:\n    type: agent\n    name: A\n    connections: [b]\n  s:\n    type: starter\n    name: Start\n    connections: [a]\n';

  it('auto layout places blocks left to right with the real layout library', () => {
    const { state, error } = given(rich).when({ type: 'importYaml', yamlContent: chain, applyAutoLayout: true }, { layout: elkLayout });
    expect(error).toBeUndefined();
    const x = (id: string) => state.blocks[id]?.position.x ?? Number.NaN;
    expect(x('s')).toBeLessThan(x('a'));
    expect(x('a')).toBeLessThan(x('b'));
  });

  it('auto layout takes positions and container sizes from the layout in the context, ignoring unknown ids', () => {
    const text = 'blocks:\n  s:\n    type: starter\n    name: Start\n  lp:\n    type: loop\n    name: Loop\n';
    const layout: LayoutFunction = () => ({
      s: { position: { x: 7, y: 8 } },
      lp: { position: { x: 500, y: 9 }, width: 640, height: 360 },
      ghost: { position: { x: 0, y: 0 } },
    });
    const { state } = given(rich).when({ type: 'importYaml', yamlContent: text, applyAutoLayout: true }, { layout });
    expect(Object.keys(state.blocks).sort()).toEqual(['lp', 's']);
    expect(state.blocks['s']?.position).toEqual({ x: 7, y: 8 });
    expect(state.blocks['lp']?.position).toEqual({ x: 500, y: 9 });
    expect(state.blocks['lp']?.data).toMatchObject({ width: 640, height: 360 });
  });

  it('issue 14: a size the layout leaves out stays unset, so the container keeps its default size (not 0)', () => {
    const text = 'blocks:\n  s:\n    type: starter\n    name: Start\n  lp:\n    type: loop\n    name: Loop\n';
    const layout: LayoutFunction = () => ({ s: { position: { x: 7, y: 8 } }, lp: { position: { x: 500, y: 9 }, width: 640 } });
    const imported = given(rich).when({ type: 'importYaml', yamlContent: text, applyAutoLayout: true }, { layout });
    expect(imported.state.blocks['lp']?.data).toMatchObject({ width: 640 });
    expect(imported.state.blocks['lp']?.data.height).toBeUndefined();
    // growBlock grows from the default height, so a minimum below it changes nothing.
    const after = [...rich, ...imported.events];
    expect(given(after).when({ type: 'growBlock', id: 'lp', minHeight: CONTAINER_SIZE.height - 100 }).events).toEqual([]);
    // The real layout gives an empty loop no size either.
    const real = given(rich).when({ type: 'importYaml', yamlContent: text, applyAutoLayout: true }, { layout: elkLayout });
    expect(real.state.blocks['lp']?.data.width).toBeUndefined();
    expect(real.state.blocks['lp']?.data.height).toBeUndefined();
  });

  it('auto layout is refused where the context has no layout (the browser), and nothing changes', () => {
    const { error, events, state } = given(rich).when({ type: 'importYaml', yamlContent: chain, applyAutoLayout: true });
    expect(error?.code).toBe('validation');
    expect(error?.message).toBe('Automatic layout is not available here: import without applyAutoLayout');
    expect(events).toEqual([]);
    expect(graphOf(state)).toEqual(graphOf(given(rich).state));
  });

  it('without auto layout no layout is needed: blocks keep their own positions or fall in a row', () => {
    const { state, error } = given(rich).when({ type: 'importYaml', yamlContent: chain });
    expect(error).toBeUndefined();
    expect(['b', 'a', 's'].map((id) => state.blocks[id]?.position.x)).toEqual([100, 400, 700]);
  });

  it('the structure guide comes from the codec: its schema and an example that imports', () => {
    const guide = yamlStructureGuide();
    expect(guide.schema).toMatchObject({ type: 'object', required: ['blocks'] });
    expect(Object.keys(fromYaml(guide.example).blocks)).toEqual(['start', 'writer', 'repeat', 'shout']);
  });

  it('a workflow written by the guide’s handle rules imports with those handles (condition, error path, loop body and after)', () => {
    const guide = yamlStructureGuide().rules.join('\n');
    for (const handle of ['condition-<id>', 'router-<targetBlockId>', 'error', 'loop-start-source', 'loop-end-source', 'parallel-start-source']) expect(guide).toContain(handle);
    const yaml = [
      'version: "1.0"',
      'blocks:',
      '  start: {type: starter, name: Start, connections: [check]}',
      '  check:',
      '    type: condition',
      '    name: Check',
      '    inputs: {conditions: \'[{"id":"big","title":"if","value":"<start.input.n> > 3"},{"id":"rest","title":"else","value":""}]\'}',
      '    connections: [{target: each, sourceHandle: condition-big}, {target: fail, sourceHandle: condition-rest}]',
      '  each: {type: loop, name: Each, connections: [{target: body, sourceHandle: loop-start-source}, {target: done, sourceHandle: loop-end-source}]}',
      '  body: {type: function, name: Body, parentId: each, inputs: {code: "return 1"}, connections: [{target: fail, sourceHandle: error}]}',
      '  done: {type: function, name: Done}',
      '  fail: {type: function, name: Fail}',
    ].join('\n');
    const { state, error } = given(history()).when({ type: 'importYaml', yamlContent: yaml });
    expect(error).toBeUndefined();
    const edges = Object.values(state.edges).map((e) => `${e.source}:${e.sourceHandle ?? 'source'}->${e.target}`).sort();
    expect(edges).toEqual(['body:error->fail', 'check:condition-big->each', 'check:condition-rest->fail', 'each:loop-end-source->done', 'each:loop-start-source->body', 'start:source->check']);
    expect(state.blocks.body?.data.parentId).toBe('each');
  });
});

describe('YAML nesting', () => {
  it('a parent cycle is refused naming the line', () => {
    const text = 'blocks:\n  a:\n    type: loop\n    name: A\n    parentId: b\n  b:\n    type: loop\n    name: B\n    parentId: a\n';
    expect(() => fromYaml(text)).toThrowError(/^Invalid YAML at line 5: block a is nested inside itself/);
  });
});

describe('YAML values nested past MAX_NESTING_DEPTH (the bound on a request body)', () => {
  const header = 'version: "1.0"\nblocks:\n  a:\n    type: function\n    name: A\n    position: {x: 0, y: 0}\n    inputs:\n';
  const limit = `(at most ${MAX_NESTING_DEPTH} levels of objects and arrays)`;
  // The document is level 1, blocks 2, a 3, inputs 4: a value there holds MAX_NESTING_DEPTH - 4 levels at most.
  const flow = (levels: number) => `${header}      code: ${'['.repeat(levels)}${']'.repeat(levels)}\n`;

  it('imports a value as deep as the bound and refuses one level more, naming line and field', () => {
    expect(() => fromYaml(flow(MAX_NESTING_DEPTH - 4))).not.toThrow();
    expect(() => fromYaml(flow(MAX_NESTING_DEPTH - 3))).toThrowError(`Invalid YAML at line 8: nested too deeply at blocks.a.inputs.code.0.0.… ${limit}`);
  });

  it('refuses a flow collection millions of levels deep as it is read, naming line and field, and nothing changes', () => {
    expect(() => fromYaml(flow(2_000_000))).toThrowError(`Invalid YAML at line 8: nested too deeply at blocks.a.inputs.code.0.0.… ${limit}`);
    const inMap = `${header}      list: [1, 2, {k: v, deep: [0, ${'{a: '.repeat(300)}`;
    expect(() => fromYaml(inMap)).toThrowError(`Invalid YAML at line 8: nested too deeply at blocks.a.inputs.list.2.deep.… ${limit}`);
    const { error, events } = given(rich).when({ type: 'importYaml', yamlContent: flow(1_000_000) });
    expect(events).toEqual([]);
    expect(error?.message).toContain('nested too deeply at blocks.a.inputs.code');
  });

  it('counts only flow collections: brackets in quoted, plain and block scalars are text', () => {
    const text = `${header}      code: |\n        ${'['.repeat(500)}\n      quoted: "${'{'.repeat(500)}"\n      plain: a${'['.repeat(500)}\n`;
    expect(fromYaml(text).blocks.a?.inputs).toMatchObject({ code: `${'['.repeat(500)}\n`, quoted: '{'.repeat(500) });
  });

  it('refuses depth made by indentation and by aliases too, once the value is built', () => {
    let indented = `${header}      code:\n`;
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) indented += `${' '.repeat(8 + i)}k:\n`;
    // Named at the line of the first map past the bound.
    expect(() => fromYaml(indented)).toThrowError(`Invalid YAML at line 205: nested too deeply at blocks.a.inputs.code.k.k.… ${limit}`);
    // Each alias wraps the one before in 60 more levels: 4 of them pass the bound.
    const wrap = (inner: string) => `${'['.repeat(60)}${inner}${']'.repeat(60)}`;
    const aliased = `${header}      l1: &l1 ${wrap('0')}\n      l2: &l2 ${wrap('*l1')}\n      l3: &l3 ${wrap('*l2')}\n      l4: ${wrap('*l3')}\n`;
    expect(() => fromYaml(aliased)).toThrowError(/^Invalid YAML at line 11: nested too deeply at blocks\.a\.inputs\.l4\.0\.0\.… /);
  });
});
