import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command, CommandType } from './commands.js';
import { decide, decideBatch } from './decide/decide.js';
import { WorkflowError } from './errors.js';
import { evolve, replay } from './evolve/evolve.js';
import { isGraphEvent, type WorkflowEvent } from './events.js';
import { graphOf } from './model/state.js';
import type { WorkflowState } from './model/state.js';
import { commandArbitrary, seededArbitrary, started, testContext } from './testSupport.js';

/** Commands that record a history entry when they change anything. */
const NOT_RECORDED: ReadonlySet<CommandType> = new Set(['undo', 'redo', 'revertToHistory', 'addVariable']);

function step(state: WorkflowState, next: Command, now: number): WorkflowEvent[] {
  let n = 0;
  try {
    return decide(state, next, testContext({ now, newId: () => `id-${now}-${++n}` }));
  } catch (error) {
    if (error instanceof WorkflowError) return [];
    throw error;
  }
}

describe('undo property (issue 3 Tests)', () => {
  it('§4 Undo: after any recorded command, undo restores the prior blocks, edges, loops, parallels and values exactly', () => {
    let undoChecks = 0;
    fc.assert(
      fc.property(seededArbitrary, fc.array(commandArbitrary, { minLength: 5, maxLength: 40 }), (seeds, random) => {
        const commands = [...seeds, ...random];
        const log = [...started()];
        let state = replay(log);
        commands.forEach((next, i) => {
          const events = step(state, next, 1_000 + i);
          const after = events.reduce(evolve, state);
          if (events.length > 0 && !NOT_RECORDED.has(next.type)) {
            undoChecks++;
            const undone = step(after, { type: 'undo' }, 5_000);
            expect(undone.map((e) => e.type)).toEqual(['undone']);
            expect(graphOf(undone.reduce(evolve, after))).toEqual(graphOf(state));
          }
          expect(after.history.present.state).toEqual(graphOf(after));
          log.push(...events);
          state = after;
        });
        expect(replay(JSON.parse(JSON.stringify(log)))).toEqual(state);
      }),
      { numRuns: 300 },
    );
    // Guard against a vacuous property: most random commands must have been accepted and checked.
    expect(undoChecks).toBeGreaterThan(2_000);
  });

  it('one request is one undo step: after any batch that edits the graph, one undo restores the graph before it and one redo the graph after it', () => {
    /** Batches without history commands: a user action (a paste, a drop, a delete) never carries one. */
    const edit = commandArbitrary.filter((c) => !['undo', 'redo', 'revertToHistory'].includes(c.type));
    let batchChecks = 0;
    fc.assert(
      fc.property(seededArbitrary, fc.array(fc.array(edit, { minLength: 1, maxLength: 6 }), { minLength: 3, maxLength: 15 }), (seeds, batches) => {
        const log = [...started()];
        let state = replay(log);
        [seeds, ...batches].forEach((batch, i) => {
          let n = 0;
          let events: WorkflowEvent[];
          try {
            events = decideBatch(state, batch, testContext({ now: 1_000 + i, newId: () => `id-${i}-${++n}` }));
          } catch (error) {
            if (error instanceof WorkflowError) return;
            throw error;
          }
          const after = events.reduce(evolve, state);
          const edits = events.filter(isGraphEvent);
          // The first edit of the batch pushes the step; every later one joins it.
          expect(edits.map((e) => e.joinsStep === true)).toEqual(edits.map((_, k) => k > 0));
          if (edits.length > 0) {
            batchChecks++;
            expect(after.history.past.length).toBe(Math.min(state.history.past.length + 1, 20));
            const undone = evolve(after, { type: 'undone', at: 5_000 });
            expect(graphOf(undone)).toEqual(graphOf(state));
            expect(graphOf(evolve(undone, { type: 'redone', at: 5_001 }))).toEqual(graphOf(after));
          }
          expect(after.history.present.state).toEqual(graphOf(after));
          log.push(...events);
          state = after;
        });
        expect(replay(JSON.parse(JSON.stringify(log)))).toEqual(state);
      }),
      { numRuns: 300 },
    );
    // Many random batches are refused whole (one bad command refuses all): enough must still be checked.
    expect(batchChecks).toBeGreaterThan(600);
  });
});
