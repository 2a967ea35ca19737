import { fileURLToPath } from 'node:url';
import { keepHistory } from '@weft/testkit/histories';
import { afterAll, describe, expect, it } from 'vitest';
import { graphOf, historiesDir, ran, workflowBundle } from '../testing/engineHarness.js';
import { patchHarnesses } from '../testing/patchHarness.js';
import { patchStubs, replayOutcome } from '../testing/patchStub.js';
import { patchesOf } from '../testing/patches.js';
import { OWN_IDS_PATCH } from './engine/ownIdsPatch.js';
import { OWN_PATHS_PATCH } from './engine/ownPathsPatch.js';

/**
 * Blocks and variables are looked up by own ids and names (patch own-block-ids): `constructor`,
 * `toString` or `hasOwnProperty` is an id like any other, never Object.prototype's member. States
 * with such dangling edges could be stored before the editor took those ids as ordinary ones. Value
 * paths read own members the same way (patch own-value-paths, the second describe).
 */
const S = { type: 'starter', name: 'Start' };
const stubs = patchStubs(fileURLToPath(new URL('./engine/ownIdsPatch.ts', import.meta.url)), OWN_IDS_PATCH, 'OWN_IDS_PATCH', 'ownIdsPatched');
const pathStubs = patchStubs(fileURLToPath(new URL('./engine/ownPathsPatch.ts', import.meta.url)), OWN_PATHS_PATCH, 'OWN_PATHS_PATCH', 'ownPathsPatched');

/** A forEach over `<start.input.constructor>` (the run's input is `{x: 1}`), then After reading `<start.input.toString>`. */
const inheritedState = graphOf(
  {
    s: S,
    each: { type: 'loop', name: 'Each', data: { loopType: 'forEach', collection: '<start.input.constructor>' } },
    body: { name: 'Body', parent: 'each', code: 'return <loop.currentItem>' },
    after: { name: 'After', code: 'return [<start.input.toString>, <start.input.nosuch>, <start.input.x>]' },
  },
  [['s', 'each'], ['each', 'body', 'loop-start-source'], ['each', 'after', 'loop-end-source']],
);

/** Fn, fed by the starter and by dangling edges from `constructor` and `toString`; Vars reads `<variable.constructor>` (no such variable) and has an error path to Handler. */
const danglingState = graphOf(
  {
    s: S,
    fn: { name: 'Fn', code: 'return "ran"' },
    vars: { name: 'Vars', code: 'return <variable.constructor>' },
    handler: { name: 'Handler', code: 'return "handled"' },
  },
  [['s', 'fn'], ['constructor', 'fn'], ['toString', 'fn'], ['s', 'vars'], ['vars', 'handler', 'error']],
);

const { h, historyBefore } = patchHarnesses();
afterAll(() => {
  stubs.close();
  pathStubs.close();
});

describe('blocks and variables by own ids (real Temporal server, fake activities)', () => {
  it('a dangling edge from constructor, toString or hasOwnProperty (no such block) does not hold its target: it runs (patch own-block-ids)', async () => {
    const state = graphOf({ s: S, fn: { name: 'Fn', code: 'return "ran"' } }, [['s', 'fn'], ['constructor', 'fn'], ['toString', 'fn'], ['hasOwnProperty', 'fn'], ['fn', 'valueOf']]);
    const handle = await h().start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result)).toEqual(['s', 'fn']);
    expect(result.output).toEqual({ result: 'ran', stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).toContain(OWN_IDS_PATCH);
  });

  it('blocks whose ids and names are constructor, toString and hasOwnProperty, in and around a loop of id valueOf, and a variable named constructor run and read like any other; no patch asked', async () => {
    const state = graphOf(
      {
        s: S,
        constructor: { name: 'constructor', code: 'return 5' },
        valueOf: { type: 'loop', name: 'valueOf', data: { loopType: 'for', count: 2 } },
        toString: { name: 'toString', parent: 'valueOf', code: 'return <constructor.result> + <loop.index>' },
        hasOwnProperty: { name: 'hasOwnProperty', code: 'return [<tostring.result>, <variable.constructor>, <valueof.results>.length]' },
      },
      [['s', 'constructor'], ['constructor', 'valueOf'], ['valueOf', 'toString', 'loop-start-source'], ['valueOf', 'hasOwnProperty', 'loop-end-source']],
      { variables: { v1: { id: 'v1', name: 'constructor', type: 'number', value: '3' } } },
    );
    const handle = await h().start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result).sort()).toEqual(['constructor', 'hasOwnProperty', 's', 'toString', 'toString', 'valueOf']);
    expect(result.output).toEqual({ result: [6, 3, 2], stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).not.toContain(OWN_IDS_PATCH);
  });

  it('<variable.constructor> with no variable so named fails the block naming it, before any sandbox call', async () => {
    const state = graphOf({ s: S, vars: { name: 'Vars', code: 'return <variable.constructor>' } }, [['s', 'vars']]);
    const handle = await h().start(state);
    const result = await handle.result();
    expect(result).toMatchObject({ success: false, error: 'Vars: Reference <variable.constructor> cannot be resolved: no variable named "constructor"' });
    expect(h().rec.functionCalls).toEqual([]);
    expect(patchesOf(await handle.fetchHistory())).toContain(OWN_IDS_PATCH);
  });

  it("a run of the code before patch own-block-ids (Fn held by its dangling edges, <variable.constructor> read as empty) replays with today's code, and would not with the patch unguarded", async () => {
    const history = await historyBefore(await stubs.bundleWith(false), async (before) => {
      const handle = await before.start(danglingState);
      const result = await handle.result();
      // The old code: Fn never ran, and the run succeeded all the same; Vars ran with ''.
      expect(result.success).toBe(true);
      expect(ran(result).sort()).toEqual(['s', 'vars']);
      expect(result.logs.find((l) => l.blockId === 'vars')?.output).toEqual({ result: '', stdout: '' });
      await keepHistory(handle, historiesDir, 'own-block-ids');
      return handle.fetchHistory();
    });
    expect(patchesOf(history)).not.toContain(OWN_IDS_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'own-block-ids')).toBeUndefined();
    // Unguarded, today's code runs Fn and fails Vars before its call: other activities than the old run scheduled.
    expect((await replayOutcome(await stubs.bundleWith(true), history, 'own-block-ids'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);

    const handle = await h().start(danglingState);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(ran(result).sort()).toEqual(['fn', 'handler', 's', 'vars']);
    expect(result.logs.find((l) => l.blockId === 'vars')).toMatchObject({ success: false, error: 'Reference <variable.constructor> cannot be resolved: no variable named "constructor"' });
    // Fn and Handler called the sandbox; Vars did not.
    expect(h().rec.functionCalls.map((c) => c.code)).toEqual(expect.arrayContaining(['return "ran"', 'return "handled"']));
    expect(h().rec.functionCalls).toHaveLength(2);
    expect(patchesOf(await handle.fetchHistory())).toContain(OWN_IDS_PATCH);
    await h().keepHistory(handle, 'own-block-ids.own');
  }, 240_000);
});

/**
 * Value paths read own members only (patch own-value-paths): `<start.input.constructor>` is a missing
 * field, as `<start.input.nosuch>`, unless the input has its own `constructor`; it read Object's
 * constructor function.
 */
describe('value paths by own members (real Temporal server, fake activities)', () => {
  it('<start.input.constructor> and <start.input.toString> read as <start.input.nosuch> does: a forEach over it runs no iteration, code gets null (patch own-value-paths)', async () => {
    const handle = await h().start(inheritedState);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result)).toEqual(['s', 'each', 'after']);
    expect(result.output).toEqual({ result: [null, null, 1], stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).toContain(OWN_PATHS_PATCH);
  });

  it('an input with its own constructor and toString is read like any other field; no patch asked', async () => {
    const handle = await h().start(inheritedState, { input: { x: 1, constructor: ['a', 'b'], toString: 't' } });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result).sort()).toEqual(['after', 'body', 'body', 'each', 's']);
    expect(result.output).toEqual({ result: ['t', null, 1], stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).not.toContain(OWN_PATHS_PATCH);
  });

  it("a run of the code before patch own-value-paths (the forEach over Object's constructor failed) replays with today's code, and would not with the patch unguarded", async () => {
    const history = await historyBefore(await pathStubs.bundleWith(false), async (before) => {
      const handle = await before.start(inheritedState);
      const result = await handle.result();
      // The old code: the collection was a function, no array or object; After never ran.
      expect(result.success).toBe(false);
      expect(result.error).toContain('The forEach items must be a JSON array or object, or a reference to one');
      expect(ran(result)).not.toContain('after');
      await keepHistory(handle, historiesDir, 'own-value-paths');
      return handle.fetchHistory();
    });
    expect(patchesOf(history)).not.toContain(OWN_PATHS_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'own-value-paths')).toBeUndefined();
    // Unguarded, today's code runs the loop empty and After (an activity): other commands than the old run made.
    expect((await replayOutcome(await pathStubs.bundleWith(true), history, 'own-value-paths'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);

    const handle = await h().start(inheritedState);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(ran(result)).toEqual(['s', 'each', 'after']);
    expect(patchesOf(await handle.fetchHistory())).toContain(OWN_PATHS_PATCH);
    await h().keepHistory(handle, 'own-value-paths.own');
  }, 240_000);
});
