import { describe, expect, it } from 'vitest';
import { checkDeployable, type DeployableState } from './checkDeployable.js';
import { entryRuns, flowGraph, readableUpstream, runEntries } from './upstream.js';

type Values = Record<string, unknown>;
function block(id: string, type: string, name: string, values: Values = {}, extra: Record<string, unknown> = {}) {
  return { id, type, name, enabled: true, subBlocks: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])), ...extra };
}
function state(blocks: ReturnType<typeof block>[], edges: Array<[string, string]>): DeployableState {
  return { blocks: Object.fromEntries(blocks.map((b) => [b.id, b])), edges: edges.map(([source, target]) => ({ source, target })) };
}
const starter = block('s', 'starter', 'Start');
const hook = (id = 'w', name = 'Webhook 1', path = 'orders') => block(id, 'webhook', name, { webhookProvider: 'generic', webhookConfig: { path } });
const fn = (id: string, name: string, code: string) => block(id, 'function', name, { code });

describe('run entries', () => {
  it('starts runs at the starter and at each enabled top-level trigger block the starter does not lead to', () => {
    const s = state(
      [starter, hook('w'), hook('led', 'Led', 'led'), block('n', 'schedule', 'Nightly', { scheduleType: 'daily', dailyTime: '09:00' }), block('off', 'webhook', 'Off', { webhookConfig: { path: 'off' } }, { enabled: false }), fn('f', 'Fn', 'return 1')],
      [['s', 'led'], ['w', 'f'], ['n', 'f']],
    );
    const graph = flowGraph(s);
    expect(runEntries(graph)).toEqual(['s', 'w', 'n']);
    expect([...entryRuns(graph, 'w')].sort()).toEqual(['f', 'w']);
    expect([...entryRuns(graph, 's')].sort()).toEqual(['led', 's']);
  });
});

describe('checkDeployable per run entry', () => {
  it('refuses <start.input> in a block the starter and a webhook block both feed: a run at the webhook runs no starter', () => {
    const s = state([starter, hook(), fn('f', 'Function 1', 'return <start.input>')], [['s', 'f'], ['w', 'f']]);
    expect(checkDeployable(s)).toEqual([
      { blockId: 'f', blockName: 'Function 1', field: 'code', message: 'Reference <start.input> points at a block that does not run before this one in runs started at Webhook 1' },
    ]);
  });

  it('refuses the webhook block\'s output there too: a run at the starter runs no webhook block', () => {
    const s = state([starter, hook(), fn('f', 'Function 1', 'return <webhook1.input>')], [['s', 'f'], ['w', 'f']]);
    expect(checkDeployable(s)).toEqual([
      { blockId: 'f', blockName: 'Function 1', field: 'code', message: 'Reference <webhook1.input> points at a block that does not run before this one in runs started at Start' },
    ]);
  });

  it('refuses, downstream of a webhook entry, a block only the starter\'s runs reach', () => {
    const s = state(
      [starter, hook(), fn('a', 'Prepare', 'return 1'), fn('f', 'Function 1', 'return <prepare.result>')],
      [['s', 'a'], ['a', 'f'], ['w', 'f']],
    );
    expect(checkDeployable(s)).toEqual([
      { blockId: 'f', blockName: 'Function 1', field: 'code', message: 'Reference <prepare.result> points at a block that does not run before this one in runs started at Webhook 1' },
    ]);
  });

  it('accepts what every entry reaching the block runs: the webhook\'s output, and <start.…> (the runner reads it as the block the run started at when the starter is not upstream)', () => {
    const only = state([starter, hook(), fn('f', 'Function 1', 'return <webhook1.input> + <start.input> + <start.body>')], [['w', 'f']]);
    expect(checkDeployable(only)).toEqual([]);
    // Two webhooks feeding one block: <start.…> is whichever started the run; each hook's own output is not.
    const two = state([starter, hook(), hook('v', 'Webhook 2', 'other'), fn('f', 'Function 1', 'return <start.input> + <webhook2.input>')], [['w', 'f'], ['v', 'f']]);
    expect(checkDeployable(two)).toEqual([
      { blockId: 'f', blockName: 'Function 1', field: 'code', message: 'Reference <webhook2.input> points at a block that does not run before this one in runs started at Webhook 1' },
    ]);
    // A webhook block the starter leads to starts no runs of its own: its output and the starter's are read.
    const led = state([starter, hook(), fn('f', 'Function 1', 'return <start.input> + <webhook1.input>')], [['s', 'w'], ['w', 'f']]);
    expect(checkDeployable(led)).toEqual([]);
  });

  it('refuses a renamed starter read by its name from a webhook-only block (not upstream), as before', () => {
    const s = state([block('s', 'starter', 'Begin'), hook(), fn('f', 'Function 1', 'return <begin.input>')], [['w', 'f']]);
    expect(checkDeployable(s)).toEqual([
      { blockId: 'f', blockName: 'Function 1', field: 'code', message: 'Reference <begin.input> points at a block that does not run before this one' },
    ]);
  });
});

describe('readableUpstream (the `<` menu)', () => {
  it('offers the webhook, not the starter, to a block only a webhook entry reaches; neither to one both reach', () => {
    const s = state([starter, hook(), fn('a', 'Prepare', 'return 1'), fn('f', 'Function 1', 'return 1'), fn('g', 'After', 'return 1')], [['w', 'f'], ['s', 'a'], ['a', 'g'], ['f', 'g']]);
    expect(readableUpstream(s, 'f')).toEqual(['w']);
    expect(readableUpstream(s, 'a')).toEqual(['s']);
    // After: fed by Prepare (starter runs) and Function 1 (webhook runs): nothing runs in both.
    expect(readableUpstream(s, 'g')).toEqual([]);
  });
});
