import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, ran, type EngineHarness } from '../testing/engineHarness.js';

const S = { type: 'starter', name: 'Start' };

describe('loops and parallels (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('for loop: the body runs once per iteration with <loop.index>; results in order; what follows the loop reads them', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop 1', data: { loopType: 'for', count: 3 } },
        body: { name: 'Body', parent: 'l', code: 'return <loop.index> * 10' },
        twice: { name: 'Twice', parent: 'l', code: 'return <body.result> * 2' },
        after: { name: 'After', code: 'return <loop1.results>' },
      },
      [['s', 'l'], ['l', 'body', 'loop-start-source'], ['body', 'twice'], ['l', 'after', 'loop-end-source']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    const loopLog = result.logs.find((l) => l.blockId === 'l');
    expect(loopLog?.output).toEqual({ results: [{ result: 0, stdout: '' }, { result: 20, stdout: '' }, { result: 40, stdout: '' }] });
    expect(result.output).toEqual({ result: [{ result: 0, stdout: '' }, { result: 20, stdout: '' }, { result: 40, stdout: '' }], stdout: '' });
    expect(result.logs.filter((l) => l.blockId === 'body').map((l) => l.loopIteration)).toEqual([[0], [1], [2]]);
    await h.keepHistory(handle, 'loop-for');
  });

  it('forEach over an object iterates its entries; over a reference to an array its items; <loop.currentItem> and <loop.items>', async () => {
    const objLoop = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '{"a": 1, "b": 2}' } },
        body: { name: 'Body', parent: 'l', code: 'return <loop.currentItem>[0] + "=" + <loop.currentItem>[1] + "/" + Object.keys(<loop.items>).length' },
      },
      [['s', 'l'], ['l', 'body', 'loop-start-source']],
    );
    const r1 = await h.run(objLoop);
    expect(r1.output).toEqual({ results: [{ result: 'a=1/2', stdout: '' }, { result: 'b=2/2', stdout: '' }] });

    const refLoop = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '<start.input.names>' } },
        body: { name: 'Body', parent: 'l', code: 'return "hi " + <loop.currentItem>' },
      },
      [['s', 'l'], ['l', 'body', 'loop-start-source']],
    );
    const r2 = await h.run(refLoop, { input: { names: ['Ada', 'Linus'] } });
    expect(r2.output).toEqual({ results: [{ result: 'hi Ada', stdout: '' }, { result: 'hi Linus', stdout: '' }] });
  });

  it('parallel by count: branches run at once, <parallel.index>, results in branch order', async () => {
    const state = graphOf(
      {
        s: S,
        p: { type: 'parallel', name: 'Parallel', data: { parallelType: 'count', count: 3 } },
        body: { name: 'Body', parent: 'p', code: '// barrier:par:3\nreturn <parallel.index>' },
      },
      [['s', 'p'], ['p', 'body', 'parallel-start-source']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ results: [0, 1, 2].map((i) => ({ result: i, stdout: '' })) });
    expect(result.logs.filter((l) => l.blockId === 'body').map((l) => l.parallelBranch?.[0]).sort()).toEqual([0, 1, 2]);
    await h.keepHistory(handle, 'parallel-count');
  });

  it('parallel over a collection: <parallel.currentItem>; a failed branch leaves {error} in its slot, every branch finishes, the parallel takes its error path', async () => {
    const state = graphOf(
      {
        s: S,
        p: { type: 'parallel', name: 'Parallel', data: { parallelType: 'collection', collection: '[1, 0, 3]' } },
        body: { name: 'Body', parent: 'p', code: 'if (<parallel.currentItem> === 0) throw new Error("zero"); return 6 / <parallel.currentItem>' },
        ok: { name: 'Ok', code: 'return "ok"' },
        handler: { name: 'Handler', code: 'return <parallel.results>' },
      },
      [['s', 'p'], ['p', 'body', 'parallel-start-source'], ['p', 'ok', 'parallel-end-source'], ['p', 'handler', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(ran(result)).not.toContain('ok');
    const parLog = result.logs.find((l) => l.blockId === 'p');
    expect(parLog?.success).toBe(false);
    expect(parLog?.error).toBe('Body: Line 1:1 - zero');
    expect(result.output).toEqual({ result: [{ result: 6, stdout: '' }, { error: 'Body: Line 1:1 - zero' }, { result: 2, stdout: '' }], stdout: '' });
    await h.keepHistory(handle, 'parallel-error');

    const noErrorPath = { ...state, edges: state.edges.filter((e) => e.target === 'p' || e.target === 'body') };
    const failed = await h.run(noErrorPath);
    expect(failed).toMatchObject({ success: false, error: 'Body: Line 1:1 - zero' });
  });

  it('nests a parallel in a loop, each level with its own context', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Outer', data: { loopType: 'for', count: 2 } },
        p: { type: 'parallel', name: 'Inner', parent: 'l', data: { parallelType: 'collection', collection: '["a","b"]' } },
        body: { name: 'Body', parent: 'p', code: 'return <loop.index> + <parallel.currentItem>' },
      },
      [['s', 'l'], ['l', 'p', 'loop-start-source'], ['p', 'body', 'parallel-start-source']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({
      results: [
        { results: [{ result: '0a', stdout: '' }, { result: '0b', stdout: '' }] },
        { results: [{ result: '1a', stdout: '' }, { result: '1b', stdout: '' }] },
      ],
    });
    const bodyLogs = result.logs.filter((l) => l.blockId === 'body').map((l) => [l.loopIteration, l.parallelBranch]);
    expect(bodyLogs).toContainEqual([[1], [0]]);
    await h.keepHistory(handle, 'nested');
  });

  it('loop and parallel counts are clamped to 1..50', async () => {
    const counted = (type: 'loop' | 'parallel', count: number) =>
      graphOf(
        {
          s: S,
          c: { type, name: 'Box', data: type === 'loop' ? { loopType: 'for', count } : { parallelType: 'count', count } },
          body: { type: 'thinking', name: 'Think', parent: 'c', values: { thought: `i<${type}.index>` } },
        },
        [['s', 'c'], ['c', 'body', `${type}-start-source`]],
      );
    const many = await h.run(counted('loop', 80));
    expect(many.error).toBeUndefined();
    const results = (many.output as { results: unknown[] }).results;
    expect(results).toHaveLength(50);
    expect(results[49]).toEqual({ acknowledgedThought: 'i49' });
    const none = await h.run(counted('loop', 0));
    expect(none.output).toEqual({ results: [{ acknowledgedThought: 'i0' }] });
    const wide = await h.run(counted('parallel', 99));
    expect((wide.output as { results: unknown[] }).results).toHaveLength(50);
  });

  it('nests a loop in a loop: <loop.index> is the innermost loop\'s, the log has both iteration indexes', async () => {
    const state = graphOf(
      {
        s: S,
        outer: { type: 'loop', name: 'Outer', data: { loopType: 'for', count: 2 } },
        inner: { type: 'loop', name: 'Inner', parent: 'outer', data: { loopType: 'forEach', collection: '["a","b","c"]' } },
        body: { type: 'thinking', name: 'Body', parent: 'inner', values: { thought: '<loop.currentItem><loop.index>' } },
      },
      [['s', 'outer'], ['outer', 'inner', 'loop-start-source'], ['inner', 'body', 'loop-start-source']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    const row = { results: ['a0', 'b1', 'c2'].map((t) => ({ acknowledgedThought: t })) };
    expect(result.output).toEqual({ results: [row, row] });
    expect(result.logs.filter((l) => l.blockId === 'body').map((l) => l.loopIteration)).toEqual([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
    await h.keepHistory(handle, 'loop-in-loop');
  });

  it('nests a loop in a parallel: each branch runs its own loop with its own item; a body block after the loop reads its results', async () => {
    const state = graphOf(
      {
        s: S,
        p: { type: 'parallel', name: 'Par', data: { parallelType: 'collection', collection: '<start.input.names>' } },
        l: { type: 'loop', name: 'Twice', parent: 'p', data: { loopType: 'for', count: 2 } },
        body: { name: 'Body', parent: 'l', code: '// barrier:branches:2\nreturn <parallel.currentItem> + <loop.index>' },
        sum: { name: 'Sum', parent: 'p', code: 'return <twice.results>.map((r) => r.result).join(",")' },
      },
      [['s', 'p'], ['p', 'l', 'parallel-start-source'], ['l', 'body', 'loop-start-source'], ['l', 'sum', 'loop-end-source']],
    );
    const result = await h.run(state, { input: { names: ['x', 'y'] } });
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ results: [{ result: 'x0,x1', stdout: '' }, { result: 'y0,y1', stdout: '' }] });
  });

  it('a block inside a loop body may take an error edge and the iteration goes on', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '[2, 0, 4]' } },
        div: { name: 'Div', parent: 'l', code: 'if (<loop.currentItem> === 0) throw new Error("zero"); return 8 / <loop.currentItem>' },
        fix: { name: 'Fix', parent: 'l', code: 'return "fixed: " + <div.error>' },
      },
      [['s', 'l'], ['l', 'div', 'loop-start-source'], ['div', 'fix', 'error']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ results: [{ result: 4, stdout: '' }, { result: 'fixed: Line 1:1 - zero', stdout: '' }, { result: 2, stdout: '' }] });
  });

  it('a failure inside a loop body without an error edge fails the run with the body block\'s message', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'for', count: 3 } },
        body: { name: 'Body', parent: 'l', code: 'if (<loop.index> === 1) throw new Error("second"); return 1' },
        after: { name: 'After', code: 'return 1' },
      },
      [['s', 'l'], ['l', 'body', 'loop-start-source'], ['l', 'after', 'loop-end-source']],
    );
    const result = await h.run(state);
    expect(result).toMatchObject({ success: false, error: 'Body: Line 1:1 - second' });
    expect(result.logs.filter((l) => l.blockId === 'body')).toHaveLength(2);
    expect(ran(result)).not.toContain('after');
  });

  it('a loop whose body fails takes the loop\'s error path: no later iteration, the end path skipped, the handler reads the error and the results so far', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Batch', data: { loopType: 'forEach', collection: '[2, 0, 4]' } },
        body: { name: 'Body', parent: 'l', code: 'if (<loop.currentItem> === 0) throw new Error("zero"); return 8 / <loop.currentItem>' },
        after: { name: 'After', code: 'return "after"' },
        handler: { name: 'Handler', code: 'return { error: <batch.error>, done: <batch.results> }' },
      },
      [['s', 'l'], ['l', 'body', 'loop-start-source'], ['l', 'after', 'loop-end-source'], ['l', 'handler', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(ran(result)).toEqual(['s', 'body', 'body', 'l', 'handler']);
    expect(result.logs.filter((l) => l.blockId === 'body').map((l) => [l.loopIteration, l.success])).toEqual([[[0], true], [[1], false]]);
    const loopLog = result.logs.find((l) => l.blockId === 'l');
    expect(loopLog).toMatchObject({ success: false, error: 'Body: Line 1:1 - zero' });
    expect(loopLog?.output).toEqual({ error: 'Body: Line 1:1 - zero', results: [{ result: 4, stdout: '' }] });
    expect(result.output).toEqual({ result: { error: 'Body: Line 1:1 - zero', done: [{ result: 4, stdout: '' }] }, stdout: '' });
    await h.keepHistory(handle, 'loop-error');
  });

  it('<parallel.items> is the whole collection in every branch, beside its own <parallel.currentItem> and <parallel.index>', async () => {
    const state = graphOf(
      {
        s: S,
        p: { type: 'parallel', name: 'Fan', data: { parallelType: 'collection', collection: '<start.input.names>' } },
        body: { name: 'Body', parent: 'p', code: 'return <parallel.index> + ":" + <parallel.currentItem> + " of " + <parallel.items>.join(",")' },
        after: { name: 'After', code: 'return <fan.results>.map((r) => r.result)' },
      },
      [['s', 'p'], ['p', 'body', 'parallel-start-source'], ['p', 'after', 'parallel-end-source']],
    );
    const result = await h.run(state, { input: { names: ['Ada', 'Linus', 'Grace'] } });
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: ['0:Ada of Ada,Linus,Grace', '1:Linus of Ada,Linus,Grace', '2:Grace of Ada,Linus,Grace'], stdout: '' });
    // The parallel's log shows the items it ran over.
    expect(result.logs.find((l) => l.blockId === 'p')?.input).toMatchObject({ count: 3, items: ['Ada', 'Linus', 'Grace'] });
  });

  it('a Response block inside a loop ends the whole run at the first iteration that reaches it', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '[1, 5, 9]' } },
        check: { type: 'condition', name: 'Check', parent: 'l', values: { conditions: [{ id: 'big', title: 'if', value: '<loop.currentItem> > 3' }] } },
        r: { type: 'response', name: 'Response', parent: 'l', values: { dataMode: 'json', data: '{"first": <loop.currentItem>, "at": <loop.index>}', status: 200 } },
        after: { name: 'After', code: 'return "after"' },
      },
      [['s', 'l'], ['l', 'check', 'loop-start-source'], ['check', 'r', 'condition-big'], ['l', 'after', 'loop-end-source']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(true);
    expect(result.response).toEqual({ status: 200, headers: {}, data: { first: 5, at: 1 } });
    expect(result.output).toEqual({ first: 5, at: 1 });
    expect(result.logs.filter((l) => l.blockId === 'check')).toHaveLength(2);
    expect(ran(result)).not.toContain('after');
  });

  it('a Response block inside a parallel answers with the first branch to reach it; the later ones are logged but change nothing', async () => {
    const state = graphOf(
      {
        s: S,
        p: { type: 'parallel', name: 'Parallel', data: { parallelType: 'collection', collection: '["first", "second", "third"]' } },
        r: { type: 'response', name: 'Response', parent: 'p', values: { dataMode: 'json', data: '{"branch": <parallel.index>, "item": <parallel.currentItem>}', status: 201 } },
        after: { name: 'After', code: 'return "after"' },
      },
      [['s', 'p'], ['p', 'r', 'parallel-start-source'], ['p', 'after', 'parallel-end-source']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(true);
    // Branches start in order and a Response waits for nothing: branch 0's completes first.
    expect(result.response).toEqual({ status: 201, headers: {}, data: { branch: 0, item: 'first' } });
    expect(result.output).toEqual({ branch: 0, item: 'first' });
    const responses = result.logs.filter((l) => l.blockId === 'r');
    expect(responses.map((l) => [l.parallelBranch, l.success, l.output])).toEqual([
      [[0], true, { status: 201, headers: {}, data: { branch: 0, item: 'first' } }],
      [[1], true, { status: 201, headers: {}, data: { branch: 1, item: 'second' } }],
      [[2], true, { status: 201, headers: {}, data: { branch: 2, item: 'third' } }],
    ]);
    expect(ran(result)).not.toContain('after');
  });

  it('two Response blocks reached at once on two paths: the first to complete answers; the other is logged', async () => {
    const state = graphOf(
      {
        s: S,
        one: { type: 'response', name: 'One', values: { dataMode: 'json', data: '{"by": "one"}' } },
        two: { type: 'response', name: 'Two', values: { dataMode: 'json', data: '{"by": "two"}', status: 202 } },
      },
      [['s', 'one'], ['s', 'two']],
    );
    const result = await h.run(state);
    expect(result.response).toEqual({ status: 200, headers: {}, data: { by: 'one' } });
    expect(result.logs.filter((l) => l.blockType === 'response').map((l) => [l.blockId, l.success])).toEqual([
      ['one', true],
      ['two', true],
    ]);
  });

  it('refuses a forEach collection that is not a list or object', async () => {
    const state = graphOf(
      { s: S, l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: 'not a list' } }, body: { parent: 'l', code: 'return 1' } },
      [['s', 'l'], ['l', 'body', 'loop-start-source']],
    );
    const result = await h.run(state);
    expect(result).toMatchObject({ success: false, error: 'Loop: The forEach items must be a JSON array or object, or a reference to one' });
  });

  it('refuses a forEach or parallel collection over 50 items, naming the field; 50 items run', async () => {
    const box = (type: 'loop' | 'parallel') =>
      graphOf(
        {
          s: S,
          c: { type, name: 'Box', data: type === 'loop' ? { loopType: 'forEach', collection: '<start.input.items>' } : { parallelType: 'collection', collection: '<start.input.items>' } },
          body: { type: 'thinking', name: 'Think', parent: 'c', values: { thought: `i<${type}.currentItem>` } },
        },
        [['s', 'c'], ['c', 'body', `${type}-start-source`]],
      );
    const items = (n: number) => ({ input: { items: Array.from({ length: n }, (_, i) => i) } });
    expect(await h.run(box('loop'), items(51))).toMatchObject({
      success: false,
      error: 'Box: The forEach items (collection) hold 51 entries; a loop runs at most 50 iterations',
    });
    expect(await h.run(box('parallel'), items(51))).toMatchObject({
      success: false,
      error: "Box: The parallel's collection holds 51 entries; a parallel runs at most 50 branches",
    });
    expect(h.rec.events.some((e) => e.type === 'blockStarted' && e.blockId === 'body')).toBe(false);
    const fifty = await h.run(box('loop'), items(50));
    expect(fifty.error).toBeUndefined();
    expect((fifty.output as { results: unknown[] }).results).toHaveLength(50);
  });
});
