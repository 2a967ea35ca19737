import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { insertAt, openTrigger, referenceOptions, tokenize, upstreamBlocks } from './references';

const block = (id: string, type: string, name: string, outputs: Record<string, unknown> = {}, parentId?: string): BlockState =>
  ({ id, type, name, position: { x: 0, y: 0 }, subBlocks: {}, outputs, enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode: false, data: parentId ? { parentId } : {} }) as BlockState;

describe('references in fields', () => {
  const state = {
    blocks: {
      s: block('s', 'starter', 'Start', { response: { input: 'any' } }),
      a: block('a', 'agent', 'Agent 1', { content: 'string', tokens: { prompt: 'number', completion: 'number' } }),
      l: block('l', 'loop', 'Loop 1'),
      b: block('b', 'function', 'Fn', { result: 'any' }, 'l'),
      x: block('x', 'agent', 'Unrelated', { content: 'string' }),
    },
    edges: [
      { id: '1', source: 's', target: 'a' },
      { id: '2', source: 'a', target: 'l' },
    ],
    variables: { v: { id: 'v', workflowId: 'w', name: 'My Count', type: 'number', value: 1 } },
  } as unknown as WorkflowState;

  it('offer upstream outputs, containers and variables, not unrelated blocks', () => {
    expect(upstreamBlocks(state, 'b').map((x) => x.id)).toEqual(['l', 'a', 's']);
    const inserts = referenceOptions(state, 'b').map((o) => o.insert);
    expect(inserts).toContain('<agent1.content>');
    expect(inserts).toContain('<agent1.tokens.prompt>');
    expect(inserts).toContain('<loop.index>');
    expect(inserts).toContain('<start.input>');
    expect(inserts).toContain('<variable.mycount>');
    expect(inserts.some((i) => i.startsWith('<unrelated'))).toBe(false);
  });

  it('offer the fields of the starter\'s input format as <start.field>', () => {
    const starter = { ...state.blocks.s, subBlocks: { inputFormat: { id: 'inputFormat', type: 'input-format', value: [{ id: 'f1', name: 'question', type: 'string' }, { id: 'f2', name: '', type: 'string' }] } } };
    const withFormat = { ...state, blocks: { ...state.blocks, s: starter } } as unknown as WorkflowState;
    const inserts = referenceOptions(withFormat, 'a').map((o) => o.insert);
    expect(inserts).toEqual(expect.arrayContaining(['<start.input>', '<start.question>']));
    expect(inserts).not.toContain('<start.>');
  });

  it('offer a container\'s item and index only inside it, and its results after it', () => {
    const after = { ...state, blocks: { ...state.blocks, z: block('z', 'function', 'After', { result: 'any' }) }, edges: [...state.edges, { id: '3', source: 'l', target: 'z', sourceHandle: 'loop-end-source' }] } as unknown as WorkflowState;
    const inserts = referenceOptions(after, 'z').map((o) => o.insert);
    expect(inserts).toContain('<loop1.results>');
    expect(inserts.some((i) => i.startsWith('<loop.'))).toBe(false);
    expect(referenceOptions(after, 'b').map((o) => o.insert)).not.toContain('<loop1.results>');
  });

  it('offer a renamed starter\'s input fields as <start.field>, which the run reads, and skip names a reference cannot carry', () => {
    const fields = [{ id: 'f1', name: 'question', type: 'string' }, { id: 'f2', name: 'user question', type: 'string' }, { id: 'f3', name: 'a.b', type: 'string' }, { id: 'f4', name: 'x[0]', type: 'string' }, { id: 'f5', name: 'user_id2', type: 'string' }, { id: 'f6', name: 'user-id', type: 'string' }];
    const begin = { ...block('s', 'starter', 'Begin', { input: 'any' }), subBlocks: { inputFormat: { id: 'inputFormat', type: 'input-format', value: fields } } };
    const renamed = { ...state, blocks: { ...state.blocks, s: begin } } as unknown as WorkflowState;
    const starterOptions = referenceOptions(renamed, 'a').filter((o) => o.group === 'Begin');
    expect(starterOptions.map((o) => o.insert)).toEqual(['<start.input>', '<start.question>', '<start.user_id2>']);
    // What is offered is a reference as highlighting (and the run) reads it.
    for (const { insert } of starterOptions) expect(tokenize(insert)).toEqual([{ text: insert, kind: 'ref' }]);
  });

  it('offer no <name.results> for a container whose name reads as something else, and each kind\'s iteration fields once, from the innermost', () => {
    const named = (loopName: string, parallelName: string) =>
      ({
        ...state,
        blocks: {
          s: state.blocks.s,
          l: block('l', 'loop', loopName),
          p: block('p', 'parallel', parallelName),
          o: block('o', 'loop', 'Outer'),
          i: block('i', 'loop', 'Inner', {}, 'o'),
          in: block('in', 'function', 'Deep', { result: 'any' }, 'i'),
          z: block('z', 'function', 'After', { result: 'any' }),
        },
        edges: [
          { id: '1', source: 's', target: 'l' },
          { id: '2', source: 'l', target: 'p' },
          { id: '3', source: 'p', target: 'z' },
        ],
      }) as unknown as WorkflowState;
    for (const [loopName, parallelName] of [['Loop', 'Parallel'], ['Start', 'variable']] as const) {
      const inserts = referenceOptions(named(loopName, parallelName), 'z').map((o) => o.insert);
      expect(inserts.filter((i) => i.endsWith('.results>'))).toEqual([]);
    }
    expect(referenceOptions(named('Loop A', 'Fan'), 'z').map((o) => o.insert)).toEqual(expect.arrayContaining(['<loopa.results>', '<fan.results>']));
    const deep = referenceOptions(named('Loop', 'Parallel'), 'in');
    expect(deep.filter((o) => o.insert.startsWith('<loop.'))).toEqual(['index', 'currentItem', 'items'].map((f) => ({ insert: `<loop.${f}>`, group: 'Inner' })));
  });

  it('notice `<` and `{{` being typed and insert the choice', () => {
    expect(openTrigger('Hello <ag', 9)).toEqual({ kind: 'ref', start: 6, query: 'ag' });
    expect(openTrigger('key {{OPEN', 10)).toEqual({ kind: 'env', start: 4, query: 'OPEN' });
    expect(openTrigger('a < b', 5)).toBeNull();
    expect(insertAt('Hello <ag!', 6, 9, '<agent1.content>')).toEqual({ text: 'Hello <agent1.content>!', caret: 22 });
  });

  it('cut text into references for highlighting', () => {
    expect(tokenize('Hi <agent1.content> and {{API_KEY}} a<b')).toEqual([
      { text: 'Hi ', kind: 'plain' },
      { text: '<agent1.content>', kind: 'ref' },
      { text: ' and ', kind: 'plain' },
      { text: '{{API_KEY}}', kind: 'env' },
      { text: ' a<b', kind: 'plain' },
    ]);
  });
});
