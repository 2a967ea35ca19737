import { describe, expect, it } from 'vitest';
import { checkDeployable, type DeployableState } from './checkDeployable.js';
import { deploymentTriggers, scheduleTriggers, webhookTriggers } from './deploymentTriggers.js';

type Values = Record<string, unknown>;
function block(id: string, type: string, name: string, values: Values = {}, extra: Partial<DeployableState['blocks'][string]> = {}) {
  return { id, type, name, enabled: true, subBlocks: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value }])), ...extra };
}
function state(blocks: ReturnType<typeof block>[], edges: Array<[string, string]>, variables: string[] = []): DeployableState {
  return {
    blocks: Object.fromEntries(blocks.map((b) => [b.id, b])),
    edges: edges.map(([source, target]) => ({ source, target })),
    variables: Object.fromEntries(variables.map((name, i) => [`v${i}`, { name }])),
  };
}
const starter = (values: Values = {}) => block('s', 'starter', 'Start', values);

describe('checkDeployable', () => {
  it('accepts a workflow whose references all resolve', () => {
    const s = state(
      [
        starter(),
        block('f', 'function', 'Prepare Data', { code: 'return <start.input.name> + <variable.greeting>' }),
        block('a', 'agent', 'Writer', { model: 'gpt-4o', userPrompt: 'Use <preparedata.result> and <start.input>' }),
      ],
      [['s', 'f'], ['f', 'a']],
      ['Greeting'],
    );
    expect(checkDeployable(s)).toEqual([]);
  });

  it('names the block and field of every broken reference', () => {
    const s = state(
      [
        starter(),
        block('f', 'function', 'Fn', { code: 'return <writer.content> + <nosuch.x> + <variable.missing> + <start.body> + <loop.index> + <fn.result>' }),
        block('a', 'agent', 'Writer', { model: 'gpt-4o', userPrompt: 'hi' }),
      ],
      [['s', 'f'], ['f', 'a']],
    );
    const problems = checkDeployable(s);
    expect(problems.every((p) => p.blockId === 'f' && p.blockName === 'Fn' && p.field === 'code')).toBe(true);
    expect(problems.map((p) => p.message)).toEqual([
      'Reference <writer.content> points at a block that does not run before this one',
      'Reference <nosuch.x> names no block',
      'Reference <variable.missing> names no workflow variable',
      'Reference <start.body> does not exist: the start block offers <start.input>',
      'Reference <loop.index> is only available inside a loop',
      'Reference <fn.result> points at the block itself',
    ]);
  });

  it('requires the visible required fields and runs the block validators', () => {
    const s = state([starter(), block('a', 'agent', 'Agent 1', { model: '' })], [['s', 'a']]);
    const problems = checkDeployable(s);
    expect(problems).toContainEqual({ blockId: 'a', blockName: 'Agent 1', field: 'userPrompt', message: expect.stringMatching(/required/) });
    expect(problems).toContainEqual({ blockId: 'a', blockName: 'Agent 1', field: 'model', message: expect.stringMatching(/required/) });
  });

  it('leaves a validated field that holds a reference or {{KEY}} to the run, and still checks the other fields', () => {
    const excel = (values: Values) => state([starter(), block('f', 'function', 'Fn', { code: 'return 1' }), block('x', 'microsoft_excel', 'Excel', { operation: 'write', credential: 'c1', ...values })], [['s', 'f'], ['f', 'x']]);
    // Values and range only known when the block runs: nothing to refuse now.
    expect(checkDeployable(excel({ manualSpreadsheetId: 'book-1', values: '<fn.result>', range: '<fn.result>' }))).toEqual([]);
    expect(checkDeployable(excel({ manualSpreadsheetId: '{{BOOK_ID}}', values: '[["a"]]', range: 'Sheet1!A1' }))).toEqual([]);
    // The reference is set aside, and the next rule still speaks: no spreadsheet given.
    expect(checkDeployable(excel({ values: '<fn.result>' }))).toContainEqual(expect.objectContaining({ blockId: 'x', message: 'Spreadsheet ID is required. Please select a spreadsheet or enter an ID manually.' }));
    // Text as written is still checked.
    expect(checkDeployable(excel({ manualSpreadsheetId: 'book-1', values: '[not json' }))).toContainEqual({ blockId: 'x', blockName: 'Excel', field: 'values', message: 'Invalid JSON format for values' });
    expect(checkDeployable(excel({ manualSpreadsheetId: 'book-1', values: '[["a"]]', range: 'A1' }))).toContainEqual({ blockId: 'x', blockName: 'Excel', field: 'range', message: 'Invalid range format' });
  });

  it('refuses empty containers and accepts loop references inside a loop, and the loop from after it', () => {
    const empty = state([starter(), block('p', 'parallel', 'Parallel 1')], [['s', 'p']]);
    expect(checkDeployable(empty)).toEqual([{ blockId: 'p', blockName: 'Parallel 1', field: 'nodes', message: 'Parallel Parallel 1 is empty: put at least one block inside it' }]);
    const looped = state(
      [
        starter(),
        block('l', 'loop', 'Loop 1'),
        block('f', 'function', 'Inner', { code: 'return <loop.currentItem> + <start.input>' }, { data: { parentId: 'l' } }),
        block('g', 'function', 'After', { code: 'return <inner.result> + <loop1.results>' }),
        block('h', 'function', 'Bad', { code: 'return <loop.items>' }),
      ],
      [['s', 'l'], ['l', 'g'], ['s', 'h']],
    );
    expect(checkDeployable(looped)).toEqual([{ blockId: 'h', blockName: 'Bad', field: 'code', message: 'Reference <loop.items> is only available inside a loop' }]);
  });

  it("checks a loop's and a parallel's count and collection, naming the container and the field", () => {
    const container = (type: 'loop' | 'parallel', data: Record<string, unknown>, extra: ReturnType<typeof block>[] = [], edges: Array<[string, string]> = []) =>
      checkDeployable(
        state(
          [starter(), block('f', 'function', 'Fn', { code: 'return [1, 2]' }), block('c', type, type === 'loop' ? 'Loop 1' : 'Parallel 1', {}, { data }), block('in', 'function', 'Inner', { code: 'return 1' }, { data: { parentId: 'c' } }), ...extra],
          [['s', 'f'], ['f', 'c'], ...edges],
        ),
      );
    const problem = (field: string, message: string, name = 'Loop 1') => [{ blockId: 'c', blockName: name, field, message }];
    // Counts: a whole number in 1..50 (absent: the default 5).
    expect(container('loop', {})).toEqual([]);
    expect(container('loop', { loopType: 'for', count: 50 })).toEqual([]);
    expect(container('loop', { loopType: 'for', count: 51 })).toEqual(problem('count', 'Loop iterations must be a whole number between 1 and 50, got 51'));
    expect(container('loop', { count: 0 })).toEqual(problem('count', 'Loop iterations must be a whole number between 1 and 50, got 0'));
    expect(container('loop', { count: 'many' })).toEqual(problem('count', 'Loop iterations must be a whole number between 1 and 50, got "many"'));
    expect(container('parallel', { parallelType: 'count', count: 2.5 })).toEqual(problem('count', 'Parallel count must be a whole number between 1 and 50, got 2.5', 'Parallel 1'));
    expect(container('parallel', { parallelType: 'count', count: 3, collection: 'not json' })).toEqual([]);
    // Collections: a JSON array or object of at most 50 entries, or a reference to one (checked as any reference).
    const fiftyOne = JSON.stringify(Array.from({ length: 51 }, (_, i) => i));
    expect(container('loop', { loopType: 'forEach', collection: '["a", "b"]' })).toEqual([]);
    expect(container('loop', { loopType: 'forEach', collection: { a: 1 } })).toEqual([]);
    expect(container('loop', { loopType: 'forEach', collection: '<fn.result>' })).toEqual([]);
    expect(container('loop', { loopType: 'forEach', collection: '{{ITEMS}}' })).toEqual([]);
    expect(container('loop', { loopType: 'forEach', collection: '[1, 2' })).toEqual(problem('collection', 'The forEach items must be a JSON array or object, or a reference to one'));
    expect(container('loop', { loopType: 'forEach', collection: fiftyOne })).toEqual(problem('collection', 'The forEach items (collection) hold 51 entries; a loop runs at most 50 iterations'));
    expect(container('parallel', { collection: 'a, b' })).toEqual(problem('collection', 'The collection must be a JSON array or object, or a reference to one', 'Parallel 1'));
    expect(container('parallel', { parallelType: 'collection', collection: JSON.parse(fiftyOne) as unknown })).toEqual(problem('collection', "The parallel's collection holds 51 entries; a parallel runs at most 50 branches", 'Parallel 1'));
    expect(container('parallel', { collection: '<nosuch.items>' })).toEqual(problem('collection', 'Reference <nosuch.items> names no block', 'Parallel 1'));
    // The collection is read before the container runs: not from a block inside it or after it.
    expect(container('loop', { loopType: 'forEach', collection: '<inner.result>' })).toEqual(problem('collection', 'Reference <inner.result> points at a block that does not run before this one'));
    expect(container('loop', { loopType: 'forEach', collection: '<loop.items>' })).toEqual(problem('collection', 'Reference <loop.items> is only available inside a loop'));
    // A disabled container is not checked.
    expect(checkDeployable(state([starter(), block('c', 'loop', 'Off Loop', {}, { enabled: false, data: { count: 99 } })], [['s', 'c']]))).toEqual([]);
  });

  it('refuses a reference to a block the run skips: a disabled one, one inside a disabled container, one only disabled blocks lead to', () => {
    const s = state(
      [
        starter(),
        block('off', 'function', 'Off', { code: 'return 1' }, { enabled: false }),
        block('after', 'function', 'After Off', { code: 'return 2' }),
        block('l', 'loop', 'Loop Off', {}, { enabled: false }),
        block('in', 'function', 'In Off Loop', { code: 'return <nosuch.x>' }, { data: { parentId: 'l' } }),
        block('a', 'function', 'A', { code: 'return 3' }),
        block('j', 'function', 'Join', { code: 'return [<a.result>, <off.result>, <afteroff.result>, <inoffloop.result>]' }),
        block('dead', 'function', 'Dead', { code: 'return <a.result> + <nosuch.y>' }),
      ],
      [['s', 'off'], ['off', 'after'], ['s', 'l'], ['s', 'a'], ['a', 'j'], ['after', 'j'], ['off', 'dead']],
    );
    // Join runs (A fires its edge); what it reads of Off, After Off and In Off Loop never ran. Dead and
    // In Off Loop never run, so their own problems do not count.
    expect(checkDeployable(s)).toEqual([
      { blockId: 'j', blockName: 'Join', field: 'code', message: 'Reference <off.result> points at Off, which is disabled and does not run' },
      { blockId: 'j', blockName: 'Join', field: 'code', message: 'Reference <afteroff.result> points at After Off, which does not run: only disabled blocks lead to it' },
      { blockId: 'j', blockName: 'Join', field: 'code', message: 'Reference <inoffloop.result> points at In Off Loop, which is disabled and does not run' },
    ]);
    // A block reached past a disabled one and by another path runs after what that path ran.
    const around = state(
      [starter(), block('a', 'function', 'A', { code: 'return 1' }), block('off', 'function', 'Off', { code: 'return 2' }, { enabled: false }), block('b', 'function', 'B', { code: 'return <a.result>' })],
      [['s', 'a'], ['a', 'off'], ['off', 'b'], ['s', 'b']],
    );
    expect(checkDeployable(around)).toEqual([{ blockId: 'b', blockName: 'B', field: 'code', message: 'Reference <a.result> points at a block that does not run before this one' }]);
  });

  it('reads function and condition code as the runner does: a name that is no block is refused only outside strings', () => {
    const asText = [
      "return '<system.web>'",
      'return "List<java.lang.String>"',
      'return `Dear <customer.name>`',
      "return tpl.replace('<user.name>', <start.input>)",
      '// reads <nosuch.old> no more\n/* nor <nosuch.older> */ return 1',
    ];
    for (const code of asText) {
      expect(checkDeployable(state([starter(), block('f', 'function', 'Fn', { code })], [['s', 'f']]))).toEqual([]);
    }
    const conditions = JSON.stringify([
      { id: 'c1', title: 'if', value: "<start.input> === '<system.web>' || `Dear <customer.name>`.length > 3" },
      { id: 'c2', title: 'else', value: '' },
    ]);
    expect(checkDeployable(state([starter(), block('c', 'condition', 'Check', { conditions })], [['s', 'c']]))).toEqual([]);

    // Outside strings (a template literal's ${…} included) only a reference can stand: the run fails such a block.
    const outside = (code: string) => checkDeployable(state([starter(), block('f', 'function', 'Fn', { code })], [['s', 'f']]));
    expect(outside("return <nosuch.result> + '<system.web>'")).toEqual([{ blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <nosuch.result> names no block' }]);
    expect(outside('return `Dear ${<customer.name>}`')).toEqual([{ blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <customer.name> names no block' }]);
    const tested = JSON.stringify([{ id: 'c1', title: 'if', value: "<nosuch.ok> === '<system.web>'" }, { id: 'c2', title: 'else', value: '' }]);
    expect(checkDeployable(state([starter(), block('c', 'condition', 'Check', { conditions: tested })], [['s', 'c']]))).toEqual([
      { blockId: 'c', blockName: 'Check', field: 'conditions', message: 'Reference <nosuch.ok> names no block' },
    ]);
    // Inside a string a reference to a block that exists is still read (the runner puts its value there): checked as any.
    const later = state([starter(), block('f', 'function', 'Fn', { code: "return 'from <later.result>'" }), block('l', 'function', 'Later', { code: 'return 1' })], [['s', 'f'], ['f', 'l']]);
    expect(checkDeployable(later)).toEqual([{ blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <later.result> points at a block that does not run before this one' }]);
    // Text that is not code keeps today's check.
    expect(checkDeployable(state([starter(), block('a', 'agent', 'Writer', { model: 'gpt-4o', userPrompt: "Say '<system.web>'" })], [['s', 'a']]))).toEqual([
      { blockId: 'a', blockName: 'Writer', field: 'userPrompt', message: 'Reference <system.web> names no block' },
    ]);
  });

  it('reads block names as the runner does: a missing <agent-2.x> or <résumé.x> is refused naming block and field, an existing one passes', () => {
    const writer = (prompt: string) => block('w', 'agent', 'Writer', { model: 'gpt-4o', userPrompt: prompt });
    const missing = state([starter(), writer('Use <agent-2.content> and <résumé.text.summary>')], [['s', 'w']]);
    expect(checkDeployable(missing)).toEqual([
      { blockId: 'w', blockName: 'Writer', field: 'userPrompt', message: 'Reference <agent-2.content> names no block' },
      { blockId: 'w', blockName: 'Writer', field: 'userPrompt', message: 'Reference <résumé.text.summary> names no block' },
    ]);
    const named = [block('a', 'agent', 'Agent-2', { model: 'gpt-4o', userPrompt: 'hi' }), block('r', 'function', 'Résumé', { code: 'return 1' })];
    const existing = state([starter(), ...named, writer('Use <agent-2.content> and <Résumé.result> and <AGENT-2.tokens.total>')], [['s', 'a'], ['a', 'r'], ['r', 'w']]);
    expect(checkDeployable(existing)).toEqual([]);
    // Such a name gets every check a plain one does: here Agent-2 runs after the block reading it, in text and in code.
    const after = state([starter(), block('f', 'function', 'Fn', { code: 'return <agent-2.content>' }), writer('<agent-2.content>'), named[0] as ReturnType<typeof block>], [['s', 'f'], ['f', 'w'], ['w', 'a']]);
    expect(checkDeployable(after).map((p) => [p.blockId, p.field, p.message])).toEqual([
      ['f', 'code', 'Reference <agent-2.content> points at a block that does not run before this one'],
      ['w', 'userPrompt', 'Reference <agent-2.content> points at a block that does not run before this one'],
    ]);
    // An address in angle brackets names no block and is no reference: mail and chat text deploy.
    expect(checkDeployable(state([starter(), writer('Mail <jane@corp.example>, see <https://docs.example.invalid/a|the docs> or <mailto:x@y.example>')], [['s', 'w']]))).toEqual([]);
  });

  it('refuses a name of no block written with - or letters of any script in code outside strings (the run fails it as a syntax error), naming block and field', () => {
    const fn = (code: string) => checkDeployable(state([starter(), block('f', 'function', 'Fn', { code })], [['s', 'f']]));
    expect(fn('return <agent-2.content>')).toEqual([{ blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <agent-2.content> names no block' }]);
    expect(fn('const t = <résumé.text.summary>; return `${<my-agent.tokens>}`')).toEqual([
      { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <résumé.text.summary> names no block' },
      { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <my-agent.tokens> names no block' },
    ]);
    const tested = JSON.stringify([{ id: 'c1', title: 'if', value: '<agent-2.content> === "yes"' }, { id: 'c2', title: 'else', value: '' }]);
    expect(checkDeployable(state([starter(), block('c', 'condition', 'Check', { conditions: tested })], [['s', 'c']]))).toEqual([
      { blockId: 'c', blockName: 'Check', field: 'conditions', message: 'Reference <agent-2.content> names no block' },
    ]);
    // Still text inside strings, code where the path is a number, and nothing in comments.
    expect(fn("return '<agent-2.content>' + \"<my-agent.x>\" + `<résumé.text>`")).toEqual([]);
    expect(fn('const y = 3, x = 1, z = 0; return x <y-1.5> z')).toEqual([]);
    expect(fn('// <agent-2.content>\n/* <my-agent.x> */ return 1')).toEqual([]);
    // The same name of a block that exists and runs before is a reference as before.
    const named = state([starter(), block('a', 'agent', 'Agent-2', { model: 'gpt-4o', userPrompt: 'hi' }), block('f', 'function', 'Fn', { code: 'return <agent-2.content>' })], [['s', 'a'], ['a', 'f']]);
    expect(checkDeployable(named)).toEqual([]);
  });

  it("places blocks in a loop or parallel as the runner does: data.parentId, else the state's loop and parallel lists", () => {
    // Inner is in the loop by the loops list only (a state stored before parentId was kept, an import).
    const blocks = [starter(), block('l', 'loop', 'Loop 1'), block('in', 'function', 'Inner', { code: 'return <loop.index> + <start.input>' }), block('g', 'function', 'After', { code: 'return <inner.result>' })];
    const listed: DeployableState = { ...state(blocks, [['s', 'l'], ['l', 'g']]), loops: { l: { id: 'l', nodes: ['in'] } } };
    expect(checkDeployable(listed)).toEqual([]);
    // Read from data.parentId alone, the loop was empty and <loop.index> outside it.
    expect(checkDeployable({ ...listed, loops: {} })).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'nodes', message: 'Loop Loop 1 is empty: put at least one block inside it' },
      { blockId: 'in', blockName: 'Inner', field: 'code', message: 'Reference <loop.index> is only available inside a loop' },
      { blockId: 'g', blockName: 'After', field: 'code', message: 'Reference <inner.result> points at a block that does not run before this one' },
    ]);
    // A data.parentId naming a block that is no container keeps the block at the top level (no fallback to the list), as the runner reads it.
    const misparented = state([starter(), block('l', 'loop', 'Loop 1'), block('x', 'function', 'X', { code: 'return 1' }), block('in', 'function', 'Inner', { code: 'return <loop.index>' }, { data: { parentId: 'x' } })], [['s', 'l'], ['s', 'x']]);
    expect(checkDeployable({ ...misparented, loops: { l: { id: 'l', nodes: ['in'] } } })).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'nodes', message: 'Loop Loop 1 is empty: put at least one block inside it' },
      { blockId: 'in', blockName: 'Inner', field: 'code', message: 'Reference <loop.index> is only available inside a loop' },
    ]);
    // A parallel's list, and a disabled container's listed body is not checked.
    const parallel: DeployableState = {
      ...state([starter(), block('p', 'parallel', 'Fan', {}, { data: { parallelType: 'count', count: 2 } }), block('in', 'function', 'Inner', { code: 'return <parallel.index>' })], [['s', 'p']]),
      parallels: { p: { id: 'p', nodes: ['in'] } },
    };
    expect(checkDeployable(parallel)).toEqual([]);
    const off: DeployableState = { ...state([starter(), block('l', 'loop', 'Off', {}, { enabled: false }), block('in', 'function', 'Inner', { code: 'return <nosuch.x>' })], [['s', 'l']]), loops: { l: { id: 'l', nodes: ['in'] } } };
    expect(checkDeployable(off)).toEqual([]);
  });

  it("reads a container's settings from the state's lists where its data has none, as the runner does", () => {
    const fiftyOne = JSON.stringify(Array.from({ length: 51 }, (_, i) => i));
    const looped = (loops: Record<string, unknown>): DeployableState => ({
      ...state([starter(), block('l', 'loop', 'Loop 1'), block('in', 'function', 'Inner', { code: 'return 1' }, { data: { parentId: 'l' } })], [['s', 'l']]),
      loops,
    });
    expect(checkDeployable(looped({ l: { id: 'l', nodes: ['in'], loopType: 'forEach', forEachItems: fiftyOne } }))).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'collection', message: 'The forEach items (collection) hold 51 entries; a loop runs at most 50 iterations' },
    ]);
    expect(checkDeployable(looped({ l: { id: 'l', nodes: ['in'], loopType: 'for', iterations: 60 } }))).toEqual([
      { blockId: 'l', blockName: 'Loop 1', field: 'count', message: 'Loop iterations must be a whole number between 1 and 50, got 60' },
    ]);
    expect(checkDeployable(looped({ l: { id: 'l', nodes: ['in'], loopType: 'forEach', forEachItems: '[1, 2]' } }))).toEqual([]);
  });

  it('checks the trigger: webhook path and schedule fields; disabled blocks are left out', () => {
    const webhook = state([starter({ startWorkflow: 'webhook', webhookPath: '' })], []);
    expect(checkDeployable(webhook)).toEqual([{ blockId: 's', blockName: 'Start', field: 'webhookPath', message: 'Webhook Path is required' }]);
    const schedule = state([starter({ startWorkflow: 'schedule', scheduleType: 'custom', cronExpression: 'every day' })], []);
    expect(checkDeployable(schedule)[0]).toMatchObject({ blockId: 's', field: 'cronExpression' });
    const disabled = state([starter(), block('a', 'agent', 'Off', {}, { enabled: false })], [['s', 'a']]);
    expect(checkDeployable(disabled)).toEqual([]);
  });

  it('lets <start.x> read what the run gets: a webhook call\'s method, headers, query and body, an input format\'s fields', () => {
    const code = { code: 'return [<start.body.n>, <start.method>, <start.headers>, <start.query.q>, <start.input>, <start.customer>]' };
    const webhook = state([starter({ startWorkflow: 'webhook', webhookPath: 'p' }), block('f', 'function', 'Fn', code)], [['s', 'f']]);
    expect(checkDeployable(webhook)).toEqual([
      { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <start.customer> does not exist: the start block offers <start.input>, <start.method>, <start.headers>, <start.query>, <start.body>' },
    ]);
    const formatted = state([starter({ inputFormat: [{ id: 'r1', name: 'customer', type: 'string' }] }), block('f', 'function', 'Fn', { code: 'return <start.customer> + <start.body>' })], [['s', 'f']]);
    expect(checkDeployable(formatted)).toEqual([
      { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <start.body> does not exist: the start block offers <start.input>, <start.customer>' },
    ]);
  });

  it('refuses an input field read under a renamed starter\'s name, which the run leaves undefined, and takes its <name.input>', () => {
    const begin = block('s', 'starter', 'Begin', { inputFormat: [{ id: 'r1', name: 'question', type: 'string' }] });
    const code = { code: 'return [<begin.question>, <begin.input.question>, <begin.input>, <start.question>]' };
    expect(checkDeployable(state([begin, block('f', 'function', 'Fn', code)], [['s', 'f']]))).toEqual([
      { blockId: 'f', blockName: 'Fn', field: 'code', message: 'Reference <begin.question> reads nothing: the start block Begin gives only <begin.input>; its input field question reads as <start.question>' },
    ]);
  });
});

describe('deploymentTriggers', () => {
  it('reads the starter first, then webhook and schedule blocks', () => {
    const s = state([starter({ startWorkflow: 'webhook', webhookPath: '/hooks/a/', webhookSecret: 'tok' })], []);
    expect(deploymentTriggers(s.blocks).webhook).toEqual({ blockId: 's', path: 'hooks/a', provider: 'generic', secret: 'tok', verifyToken: 'tok', responseMode: 'immediate' });
    const answering = state([starter({ startWorkflow: 'webhook', webhookPath: 'a', webhookResponseMode: 'response' })], []);
    expect(deploymentTriggers(answering.blocks).webhook?.responseMode).toBe('response');
    const b = state([starter(), block('w', 'webhook', 'Webhook', { webhookProvider: 'github', webhookConfig: { path: 'gh', secret: 'x', responseMode: 'response' } }), block('c', 'schedule', 'Sched', { scheduleType: 'hourly' })], []);
    const t = deploymentTriggers(b.blocks);
    expect(t.webhook).toMatchObject({ blockId: 'w', provider: 'github', path: 'gh', secret: 'x', responseMode: 'response' });
    expect(t.schedule).toMatchObject({ blockId: 'c', fields: { scheduleType: 'hourly' } });
    expect(deploymentTriggers(state([starter()], []).blocks)).toEqual({});
  });
});

describe('webhookTriggers', () => {
  it('lists the starter in webhook mode and every enabled webhook block, each with its own path and block', () => {
    const s = state(
      [
        starter({ startWorkflow: 'webhook', webhookPath: 'start-path', webhookSecret: 'a' }),
        block('g', 'webhook', 'Git', { webhookProvider: 'github', webhookConfig: { path: '/gh/', secret: 'b' } }),
        block('t', 'webhook', 'Tele', { webhookProvider: 'telegram', webhookConfig: { path: 'tg', token: 'c' } }),
        block('off', 'webhook', 'Off', { webhookConfig: { path: 'off' } }, { enabled: false }),
      ],
      [],
    );
    expect(webhookTriggers(s.blocks).map((w) => [w.blockId, w.provider, w.path, w.secret])).toEqual([
      ['s', 'generic', 'start-path', 'a'],
      ['g', 'github', 'gh', 'b'],
      ['t', 'telegram', 'tg', 'c'],
    ]);
    expect(deploymentTriggers(s.blocks).webhook?.blockId).toBe('s');
  });

  it('refuses a "." or ".." path segment, which clients drop from the URL, naming the field; dots inside a segment are kept', () => {
    const dots = (message: string) => `Webhook Path ${message}: browsers and HTTP clients remove "." and ".." from a URL, so calls would not reach it`;
    expect(checkDeployable(state([starter({ startWorkflow: 'webhook', webhookPath: '/hooks/../orders' })], []))).toEqual([
      { blockId: 's', blockName: 'Start', field: 'webhookPath', message: dots('"hooks/../orders" cannot have a ".." segment') },
    ]);
    for (const path of ['./orders', 'orders/.', '..']) {
      expect(checkDeployable(state([starter({ startWorkflow: 'webhook', webhookPath: path })], []))[0]).toMatchObject({ field: 'webhookPath', message: expect.stringContaining('segment: browsers') as unknown });
    }
    const inBlock = state([starter(), block('g', 'webhook', 'Git', { webhookConfig: { path: 'gh/./push' } })], []);
    expect(checkDeployable(inBlock)).toEqual([{ blockId: 'g', blockName: 'Git', field: 'webhookConfig', message: dots('"gh/./push" cannot have a "." segment') }]);
    for (const path of ['v1.2/orders', 'a/.well-known', 'a/...', 'a/b..c']) expect(checkDeployable(state([starter({ startWorkflow: 'webhook', webhookPath: path })], []))).toEqual([]);
  });

  it('refuses a deploy whose webhooks share a path, naming the later block and its field', () => {
    const s = state(
      [
        starter({ startWorkflow: 'webhook', webhookPath: 'same' }),
        block('g', 'webhook', 'Git', { webhookProvider: 'github', webhookConfig: { path: 'same/' } }),
        block('h', 'webhook', 'Other', { webhookConfig: { path: '' } }),
      ],
      [],
    );
    expect(checkDeployable(s)).toEqual([
      { blockId: 'g', blockName: 'Git', field: 'webhookConfig', message: 'Webhook path "same" is already used by Start in this workflow' },
      { blockId: 'h', blockName: 'Other', field: 'webhookConfig', message: 'Webhook Path is required' },
    ]);
  });
});

describe('several schedules per workflow', () => {
  it('deploys every schedule trigger (starter in schedule mode and schedule blocks), each checked on its own fields', () => {
    const daily = { scheduleType: 'daily', dailyTime: '09:00' };
    const both = state([starter({ startWorkflow: 'schedule', ...daily }), block('a', 'schedule', 'Nightly', daily), block('b', 'schedule', 'Off', daily, { enabled: false })], []);
    expect(checkDeployable(both)).toEqual([]);
    expect(scheduleTriggers(both.blocks)).toEqual([
      { blockId: 's', fields: expect.objectContaining(daily) as unknown },
      { blockId: 'a', fields: expect.objectContaining(daily) as unknown },
    ]);
    const two = state([starter(), block('a', 'schedule', 'Nightly', daily), block('b', 'schedule', 'Hourly', { scheduleType: 'hourly', hourlyMinute: '75' })], []);
    expect(checkDeployable(two)).toEqual([{ blockId: 'b', blockName: 'Hourly', field: 'hourlyMinute', message: 'Minute of the Hour must be 0 to 59, got "75"' }]);
    expect(scheduleTriggers(two.blocks).map((t) => t.blockId)).toEqual(['a', 'b']);
  });
});
