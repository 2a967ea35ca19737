import { describe, expect, it } from 'vitest';
import { REFERENCE_TOKEN_SOURCE } from '@weft/catalog';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { ENV_TYPED_SOURCE, insertAt, matchingChoices, openTrigger, REFERENCE_TYPED_SOURCE, referenceOptions, tokenize, upstreamBlocks } from './references';

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

  it('offer a block fed only by a webhook block the webhook\'s outputs, not the starter\'s; one the starter and the webhook both feed, neither', () => {
    const hook = { ...block('w', 'webhook', 'Webhook 1', { input: 'any' }), subBlocks: { webhookConfig: { id: 'webhookConfig', type: 'webhook-config', value: { path: 'orders' } } } };
    const fed = (edges: Array<[string, string]>) =>
      ({ ...state, blocks: { s: state.blocks.s, w: hook, f: block('f', 'function', 'Function 1', { result: 'any' }) }, edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })) }) as unknown as WorkflowState;
    const only = referenceOptions(fed([['w', 'f']]), 'f').map((o) => o.insert);
    expect(only).toContain('<webhook1.input>');
    expect(only.some((i) => i.startsWith('<start.'))).toBe(false);
    // A run started at the webhook runs no starter, one started at the starter no webhook block.
    const both = referenceOptions(fed([['s', 'f'], ['w', 'f']]), 'f').map((o) => o.insert);
    expect(both).toEqual(['<variable.mycount>']);
    // The starter leading to the webhook block: one entry, both read.
    const led = referenceOptions(fed([['s', 'w'], ['w', 'f']]), 'f').map((o) => o.insert);
    expect(led).toEqual(expect.arrayContaining(['<webhook1.input>', '<start.input>']));
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
    expect(starterOptions.map((o) => o.insert)).toEqual(['<start.input>', '<start.question>', '<start.user_id2>', '<start.user-id>']);
    // What is offered is a reference as highlighting (and the run) reads it.
    for (const { insert } of starterOptions) expect(tokenize(insert)).toEqual([{ text: insert, kind: 'ref' }]);
  });

  it('offer <start.conversationId> after <start.input> only when the starter is in chat mode (a chat message gives {input, conversationId?})', () => {
    const withMode = (mode: string | undefined) => {
      const starter = { ...block('s', 'starter', 'Start', { input: 'any' }), subBlocks: mode === undefined ? {} : { startWorkflow: { id: 'startWorkflow', type: 'dropdown', value: mode } } };
      const next = { ...state, blocks: { ...state.blocks, s: starter } } as unknown as WorkflowState;
      return referenceOptions(next, 'a').filter((o) => o.group === 'Start').map((o) => o.insert);
    };
    expect(withMode('chat')).toEqual(['<start.input>', '<start.conversationId>']);
    for (const mode of [undefined, 'manual', 'webhook', 'schedule']) expect(withMode(mode)).toEqual(['<start.input>']);
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
    expect(openTrigger('Hello <agent-', 13)).toEqual({ kind: 'ref', start: 6, query: 'agent-' });
    expect(openTrigger('CV: <résumé.c', 13)).toEqual({ kind: 'ref', start: 4, query: 'résumé.c' });
    expect(openTrigger('a <.', 4)).toBeNull();
    expect(openTrigger('a <b..', 6)).toBeNull();
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
    // Whatever the runner reads as a reference with a path: names with '-', accents, an index; `<b>` alone is markup.
    expect(tokenize('<agent-2.content> <résumé.text> <agent1.items[0]> <b>x</b> <<start.input>')).toEqual([
      { text: '<agent-2.content>', kind: 'ref' },
      { text: ' ', kind: 'plain' },
      { text: '<résumé.text>', kind: 'ref' },
      { text: ' ', kind: 'plain' },
      { text: '<agent1.items[0]>', kind: 'ref' },
      { text: ' <b>x</b> <', kind: 'plain' },
      { text: '<start.input>', kind: 'ref' },
    ]);
  });

  it('offer and highlight the references of blocks whose names have more than letters and digits', () => {
    const named = {
      blocks: { s: block('s', 'starter', 'Start', { input: 'any' }), a: block('a', 'agent', 'Agent-2', { content: 'string' }), r: block('r', 'agent', 'Résumé Writer', { content: 'string' }), t: block('t', 'function', 'Target', { result: 'any' }) },
      edges: [
        { id: '1', source: 's', target: 'a' },
        { id: '2', source: 'a', target: 'r' },
        { id: '3', source: 'r', target: 't' },
      ],
      variables: {},
    } as unknown as WorkflowState;
    const options = referenceOptions(named, 't');
    for (const [typed, insert] of [['Use <agent-', '<agent-2.content>'], ['Use <résumé', '<résuméwriter.content>']] as const) {
      const trigger = openTrigger(typed, typed.length);
      expect(trigger?.kind).toBe('ref');
      expect(matchingChoices(options, trigger?.query ?? '').map((o) => o.insert)).toEqual([insert]);
      expect(tokenize(insertAt(typed, trigger?.start ?? 0, typed.length, insert).text)).toEqual([
        { text: 'Use ', kind: 'plain' },
        { text: insert, kind: 'ref' },
      ]);
    }
  });
});

/**
 * The menus' patterns against the runner's (`REFERENCE_TOKEN_SOURCE`, which the runner resolves and
 * the highlighting reads), over every short text of characters that matter: what is being typed
 * opens the menu exactly when it can still become a reference the runner reads.
 */
describe("the menus' patterns and the runner's", () => {
  const runnerReads = new RegExp(`^(?:${REFERENCE_TOKEN_SOURCE})$`);
  const typing = new RegExp(`^${REFERENCE_TYPED_SOURCE}$`);
  const typingEnv = new RegExp(`^${ENV_TYPED_SOURCE}$`);
  const texts = (alphabet: string[], longest: number): string[] => {
    let level = [''];
    const all = [''];
    for (let n = 0; n < longest; n += 1) {
      level = level.flatMap((t) => alphabet.map((c) => t + c));
      all.push(...level);
    }
    return all;
  };
  const prefixes = (t: string) => Array.from({ length: t.length + 1 }, (_, i) => t.slice(0, i));

  it('`<` opens the menu for every start of a reference the runner reads, and for nothing else', () => {
    const wrong: string[] = [];
    for (const t of texts(['a', '2', '-', 'é', '_', '.', ' ', '<', '>', '=', '/', '['], 4)) {
      // A reference the runner reads is offered all along its typing…
      if (runnerReads.test(`<${t}>`)) wrong.push(...prefixes(t).filter((p) => !typing.test(`<${p}`)).map((p) => `<${p} not offered while typing <${t}>`));
      // …and what opens the menu is the start of one: finished by a name or segment where it is due.
      if (typing.test(`<${t}`) && !runnerReads.test(`<${t === '' || t.endsWith('.') ? `${t}x` : t}>`)) wrong.push(`<${t} offered`);
    }
    expect(wrong).toEqual([]);
  });

  it('`{{` opens the menu for every start of a variable the runner reads, and for nothing else', () => {
    const wrong: string[] = [];
    for (const t of texts(['A', 'z', '0', '_', '-', '.', ' ', '}', '{', 'é'], 3)) {
      if (runnerReads.test(`{{${t}}}`)) wrong.push(...prefixes(t).filter((p) => !typingEnv.test(`{{${p}`)).map((p) => `{{${p} not offered while typing {{${t}}}`));
      if (typingEnv.test(`{{${t}`) && !runnerReads.test(`{{${t || 'X'}}}`)) wrong.push(`{{${t} offered`);
    }
    expect(wrong).toEqual([]);
  });
});
