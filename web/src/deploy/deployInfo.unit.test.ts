import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { WorkflowState } from '@weft/workflow';
import { curlExample, defaultWebhookPath, deployInfo, MASKED_TOKEN, streamingBlocks, webhookCurlExample, webhookUrl } from './deployInfo';

const block = (id: string, type: string, name: string, values: Record<string, unknown> = {}) => ({
  id,
  type,
  name,
  position: { x: 0, y: 0 },
  enabled: true,
  horizontalHandles: true,
  isWide: false,
  height: 0,
  advancedMode: false,
  outputs: {},
  data: {},
  subBlocks: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { id: k, type: 'short-input', value: v }])),
});
const state = (blocks: ReturnType<typeof block>[], edges: Array<{ id: string; source: string; target: string }> = []) =>
  ({ blocks: Object.fromEntries(blocks.map((b) => [b.id, b])), edges, variables: {} }) as unknown as WorkflowState;

describe('the deploy panel’s view of a draft', () => {
  it('names the block and field of each problem that blocks a deploy', () => {
    const info = deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'manual' }), block('f', 'function', 'Compute', { code: 'return <nowhere.x>' })], [{ id: 'e', source: 's', target: 'f' }]), 'http://h');
    expect(info.problems.length).toBeGreaterThan(0);
    expect(info.problems.every((p) => p.blockId === 'f' && p.blockName === 'Compute')).toBe(true);
    expect(info.problems.map((p) => p.message).join(' ')).toMatch(/nowhere/);
  });

  it('has no problem for a plain draft, and gives the webhook URL and secret of a webhook start', () => {
    expect(deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'manual' })]), 'http://h').problems).toEqual([]);
    const info = deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'webhook', webhookPath: 'orders/new', webhookSecret: 'shh' })]), 'http://h');
    expect(info.webhooks).toEqual([{ blockId: 's', blockName: 'Start', url: 'http://h/api/webhooks/trigger/orders/new', secret: 'shh', provider: 'generic', starter: true }]);
  });

  it('writes a webhook URL as the block form does: the stored path, each segment escaped on its own', () => {
    expect(webhookUrl('http://h', 'orders/new')).toBe('http://h/api/webhooks/trigger/orders/new');
    expect(webhookUrl('http://h', ' /orders/new/ ')).toBe('http://h/api/webhooks/trigger/orders/new');
    expect(webhookUrl('http://h', 'a b/c?d#e')).toBe('http://h/api/webhooks/trigger/a%20b/c%3Fd%23e');
  });

  it('lists every webhook of the draft, each with its own URL; a new webhook block takes a path no other webhook has', () => {
    const blocks = [
      block('s', 'starter', 'Start', { startWorkflow: 'manual' }),
      block('a', 'webhook', 'Orders', { webhookProvider: 'generic', webhookConfig: { path: 'wf1', secret: 'x' } }),
      block('b', 'webhook', 'Git', { webhookProvider: 'github', webhookConfig: { path: 'gh' } }),
    ];
    const info = deployInfo(state(blocks), 'http://h');
    // Only the starter's webhook follows the hasActiveWebhook switch (spec 000 §4); these blocks' do not.
    expect(info.webhooks.map((w) => [w.blockName, w.url, w.provider, w.starter])).toEqual([
      ['Orders', 'http://h/api/webhooks/trigger/wf1', 'generic', false],
      ['Git', 'http://h/api/webhooks/trigger/gh', 'github', false],
    ]);
    const drawn = state([...blocks, block('c', 'webhook', 'New', { webhookProvider: 'generic' })]).blocks;
    expect(defaultWebhookPath(drawn, 'wf1', 'c')).toBe('wf1-c');
    expect(defaultWebhookPath(drawn, 'wf1', 'a')).toBe('wf1');
    expect(defaultWebhookPath(drawn, 'wf2', 'c')).toBe('wf2');
  });

  it('gives the schedule’s cron and timezone, or why it has none', () => {
    const daily = deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'schedule', scheduleType: 'daily', dailyTime: '07:30', timezone: 'Europe/Oslo' })]), 'http://h');
    expect(daily.schedules).toHaveLength(1);
    expect(daily.schedules[0]).toMatchObject({ blockId: 's', blockName: 'Start', cron: '30 7 * * *', timezone: 'Europe/Oslo', plan: { scheduleType: 'daily', cronExpression: '30 7 * * *' } });
    // As the server makes it: 90 minutes is a schedule (local times from the starting time), not a problem.
    const ninety = deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'schedule', scheduleType: 'minutes', minutesInterval: '90', minutesStartingAt: '08:00' })]), 'http://h');
    expect(ninety.schedules[0]?.error).toBeUndefined();
    expect(ninety.schedules[0]?.plan?.localTimes).toBeDefined();
    const bad = deployInfo(state([block('s', 'starter', 'Start', { startWorkflow: 'schedule', scheduleType: 'minutes', minutesInterval: '5s' })]), 'http://h');
    expect(bad.schedules[0]?.error).toBe('Run Every (minutes) must be at least 10 seconds');
  });

  it('lists every schedule the draft deploys with, each with its own plan or problem', () => {
    const blocks = [
      block('s', 'starter', 'Start', { startWorkflow: 'schedule', scheduleType: 'hourly', hourlyMinute: '15' }),
      block('m', 'schedule', 'Mornings', { scheduleType: 'daily', dailyTime: '08:00', timezone: 'Europe/Paris' }),
      block('n', 'schedule', 'Broken', { scheduleType: 'custom', cronExpression: 'not a cron' }),
      { ...block('o', 'schedule', 'Off', { scheduleType: 'daily', dailyTime: '09:00' }), enabled: false },
    ];
    const info = deployInfo(state(blocks), 'http://h');
    expect(info.schedules.map((s) => [s.blockName, s.cron, s.timezone])).toEqual([
      ['Start', '15 * * * *', 'UTC'],
      ['Mornings', '0 8 * * *', 'Europe/Paris'],
      ['Broken', undefined, 'UTC'],
    ]);
    expect(info.schedules[2]?.error).toContain('Cron expression must have 5 fields');
    expect(deployInfo(state([block('s', 'starter', 'Start')]), 'http://h').schedules).toEqual([]);
  });

  it('places blocks in a loop or parallel by the draft’s loop and parallel lists, as the server’s deploy check does', () => {
    // Inner sits in the loop by the loops list only (no data.parentId: a draft imported or stored before it was kept).
    const blocks = [block('s', 'starter', 'Start', { startWorkflow: 'manual' }), block('l', 'loop', 'Loop 1'), block('in', 'function', 'Inner', { code: 'return <loop.index>' }), block('g', 'function', 'After', { code: 'return <inner.result>' })];
    const edges = [{ id: 'e1', source: 's', target: 'l' }, { id: 'e2', source: 'l', target: 'g' }];
    const drawn = (loops: Record<string, unknown>, parallels: Record<string, unknown> = {}) => ({ ...state(blocks, edges), loops, parallels }) as unknown as WorkflowState;
    expect(deployInfo(drawn({ l: { id: 'l', nodes: ['in'], iterations: 3, loopType: 'for' } }), 'http://h').problems).toEqual([]);
    // Without the list the loop is empty and <loop.index> outside it: the panel named problems the server would not.
    expect(deployInfo(drawn({}), 'http://h').problems).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'nodes', message: 'Loop Loop 1 is empty: put at least one block inside it' },
      { blockId: 'in', blockName: 'Inner', field: 'code', message: 'Reference <loop.index> is only available inside a loop' },
      { blockId: 'g', blockName: 'After', field: 'code', message: 'Reference <inner.result> points at a block that does not run before this one' },
    ]);
    // A container's settings are read from its list entry where its data has none.
    expect(deployInfo(drawn({ l: { id: 'l', nodes: ['in'], loopType: 'for', iterations: 60 } }), 'http://h').problems).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'count', message: 'Loop iterations must be a whole number between 1 and 50, got 60' },
    ]);
    // A parallel's list places its body the same way.
    const fan = [block('s', 'starter', 'Start', { startWorkflow: 'manual' }), block('p', 'parallel', 'Fan'), block('in', 'function', 'Inner', { code: 'return <parallel.index>' })];
    const parallel = { ...state(fan, [{ id: 'e', source: 's', target: 'p' }]), loops: {}, parallels: { p: { id: 'p', nodes: ['in'], parallelType: 'count', count: 2 } } } as unknown as WorkflowState;
    expect(deployInfo(parallel, 'http://h').problems).toEqual([]);
  });

  it('writes a curl call with the key and input', () => {
    expect(curlExample('http://h', 'w1', 'k', { a: 1 })).toBe(`curl -X POST 'http://h/api/workflows/w1/execute' \\\n  -H 'Content-Type: application/json' \\\n  -H 'X-API-Key: k' \\\n  -d '{"a":1}'`);
  });

  it('writes a curl call of a generic webhook, with its token when it has one, and none for a signing provider', () => {
    const url = 'http://h/api/webhooks/trigger/w1';
    expect(webhookCurlExample({ url, secret: '', provider: 'generic' })).toBe(`curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"event":"test"}'`);
    expect(webhookCurlExample({ url, secret: 's3', provider: 'generic' })).toBe(`curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer s3' \\\n  -d '{"event":"test"}'`);
    expect(webhookCurlExample({ url, secret: 's3', provider: 'github' })).toBeUndefined();
  });

  /** The words a POSIX shell passes to curl for `command` (a shell function stands in for curl: nothing is sent). */
  const curlWords = (command: string): string[] => execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], { encoding: 'utf8' }).split('\0').slice(0, -1);

  it('quotes every value of the curl calls for the shell: a token, key or input with $( ), backticks, quotes is sent as written and runs nothing', () => {
    const evil = `x$(echo ran)\`echo ran\`"'$HOME \\`;
    const url = "http://h/api/webhooks/trigger/it's";
    expect(curlWords(webhookCurlExample({ url, secret: evil, provider: 'generic' }) as string)).toEqual(['-X', 'POST', url, '-H', 'Content-Type: application/json', '-H', `Authorization: Bearer ${evil}`, '-d', '{"event":"test"}']);
    expect(curlWords(curlExample("http://h'", 'w1', evil, { note: evil }, ["Bob's Agent"]))).toEqual([
      '-X', 'POST', "http://h'/api/workflows/w1/execute", '-H', 'Content-Type: application/json', '-H', `X-API-Key: ${evil}`, '-N', '-d', JSON.stringify({ note: evil, stream: true, selectedOutputs: ["bob'sagent.content"] }),
    ]);
  });

  it('shows a webhook call with its token masked, as the secret field is', () => {
    const shown = webhookCurlExample({ url: 'http://h/w', secret: 'tok-s3cret', provider: 'generic' }, true) as string;
    expect(shown).not.toContain('tok-s3cret');
    expect(curlWords(shown)).toContain(`Authorization: Bearer ${MASKED_TOKEN}`);
  });

  it('offers the enabled agent, translate and vision blocks for streaming', () => {
    const off = { ...block('w', 'agent', 'Writer 2'), enabled: false };
    const blocks = [block('s', 'starter', 'Start'), block('a', 'agent', 'Research Agent'), block('f', 'function', 'Fn'), block('t', 'translate', 'Translate'), block('v', 'vision', 'Look'), off];
    expect(streamingBlocks(state(blocks))).toEqual([
      { id: 'a', name: 'Research Agent' },
      { id: 't', name: 'Translate' },
      { id: 'v', name: 'Look' },
    ]);
  });

  it('writes a streamed call choosing the blocks whose tokens stream, as references name them', () => {
    expect(curlExample('http://h', 'w1', 'k', {}, ['Research Agent', 'Translate'])).toBe(
      `curl -X POST 'http://h/api/workflows/w1/execute' \\\n  -H 'Content-Type: application/json' \\\n  -H 'X-API-Key: k' \\\n  -N \\\n  -d '{"stream":true,"selectedOutputs":["researchagent.content","translate.content"]}'`,
    );
  });
});
