import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command } from '../commands.js';
import type { WorkflowEvent } from '../events.js';
import { replay } from '../evolve/evolve.js';
import type { BlockState } from '../model/state.js';
import { toYaml } from '../yaml/codec.js';
import { commandArbitrary, given, history, seededArbitrary, started, testContext } from '../testSupport.js';
import { decide } from './decide.js';

const ALREADY = 'A workflow can have only one starter block: it already has "Start" (start)';
const starters = (blocks: Record<string, BlockState>) => Object.values(blocks).filter((b) => b.type === 'starter').map((b) => b.id);
const starterBlock = (): BlockState => {
  const first = started()[0];
  if (first?.type !== 'workflowStarted') throw new Error('started() begins with workflowStarted');
  return first.block;
};

/** A workflow stored before the rule: a second starter `start2` ("Start 1") came in by a sync. */
function legacy(): WorkflowEvent[] {
  const base = started();
  const state = replay(base);
  const second = { ...starterBlock(), id: 'start2', name: 'Start 1', position: { x: 100, y: 400 } };
  return [...base, { type: 'stateReplaced', at: 600, blocks: { ...state.blocks, start2: second }, edges: [] }];
}

const twoStartersYaml = 'blocks:\n  start:\n    type: starter\n    name: Start\n  fn:\n    type: function\n    name: Fn\n  again:\n    type: starter\n    name: Start 2\n';

describe('one starter block per workflow (issue 13)', () => {
  it('addBlock of a second starter is refused naming the starter there, and nothing is emitted', () => {
    const { events, error } = given(started()).when({ type: 'addBlock', id: 's2', blockType: 'starter', position: { x: 0, y: 0 } });
    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: 'validation', message: ALREADY });
  });

  it('duplicateBlock of the starter is refused; duplicating another block still works', () => {
    const base = history({ type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } });
    expect(given(base).when({ type: 'duplicateBlock', id: 'start', newId: 's2' }).error).toMatchObject({ code: 'validation', message: ALREADY });
    expect(given(base).when({ type: 'duplicateBlock', id: 'f', newId: 'f2' }).state.blocks['f2']?.type).toBe('function');
  });

  it('a batch that adds a second starter is refused whole, even when a later command removes the first', () => {
    const { events, error } = given(started()).when([
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 's2', blockType: 'starter', position: { x: 0, y: 0 } },
      { type: 'removeBlock', id: 'start' },
    ]);
    expect(error?.message).toBe(ALREADY);
    expect(events).toEqual([]);
  });

  it('a starter can be added again once the workflow has none (removed, or cleared)', () => {
    const removed = given(started()).when([
      { type: 'removeBlock', id: 'start' },
      { type: 'addBlock', id: 's2', blockType: 'starter', position: { x: 0, y: 0 } },
    ]);
    expect(removed.error).toBeUndefined();
    expect(starters(removed.state.blocks)).toEqual(['s2']);
    const cleared = given(started()).when([{ type: 'clearWorkflow' }, { type: 'addBlock', id: 's3', blockType: 'starter', position: { x: 0, y: 0 } }]);
    expect(starters(cleared.state.blocks)).toEqual(['s3']);
  });

  it('replaceState (the sync) with two starters is refused naming the field; one starter, even a new one, is accepted', () => {
    const second = { ...starterBlock(), id: 's2', name: 'Start 2' };
    const { events, error } = given(started()).when({ type: 'replaceState', blocks: { start: starterBlock(), s2: second }, edges: [] });
    expect(events).toEqual([]);
    expect(error).toMatchObject({
      code: 'validation',
      message: 'Invalid command: blocks: a workflow can have only one starter block, found 2: "Start" (start), "Start 2" (s2)',
    });
    const swapped = given(started()).when({ type: 'replaceState', blocks: { s2: second }, edges: [] });
    expect(starters(swapped.state.blocks)).toEqual(['s2']);
  });

  it('importYaml with two starters into a workflow with one keeps the first in the document and leaves the later one out, with its connections, saying so', () => {
    const yaml = `${twoStartersYaml}    connections:\n      - fn\n`.replace('    name: Fn\n', '    name: Fn\n    connections:\n      - again\n');
    const { events, state, error } = given(started()).when({ type: 'importYaml', yamlContent: yaml });
    expect(error).toBeUndefined();
    expect(starters(state.blocks)).toEqual(['start']);
    expect(Object.keys(state.blocks).sort()).toEqual(['fn', 'start']);
    expect(state.edges).toEqual([]);
    expect(events[0]).toMatchObject({
      type: 'yamlImported',
      warnings: ['Left out starter block "Start 2" (again) and its 2 connections: a workflow can have only one starter block, and "Start" (start) is kept'],
    });
    // The copilot's proposals decide the YAML against an empty workflow: the same.
    expect(starters(given([]).when({ type: 'importYaml', yamlContent: twoStartersYaml }).state.blocks)).toEqual(['start']);
    const one = given(started()).when({ type: 'importYaml', yamlContent: twoStartersYaml.replace(/ {2}again:[\s\S]*$/, '') });
    expect(one.error).toBeUndefined();
    expect(starters(one.state.blocks)).toEqual(['start']);
    expect(one.events[0]).not.toHaveProperty('warnings');
  });

  it('importYaml keeps the starter the workflow already has (its id, webhook settings) even when a new one comes first in the document, and names the references left dangling', () => {
    const yaml = [
      'blocks:',
      '  fresh:',
      '    type: starter',
      '    name: Start 2',
      '    connections: [fn]',
      '  start:',
      '    type: starter',
      '    name: Start',
      '    inputs: { startWorkflow: webhook, webhookPath: orders }',
      '  fn:',
      '    type: function',
      '    name: Fn',
      '    inputs: { code: "return <start2.input.x> + <start.input.y>" }',
      '',
    ].join('\n');
    const { events, state, error } = given(started()).when({ type: 'importYaml', yamlContent: yaml });
    expect(error).toBeUndefined();
    expect(starters(state.blocks)).toEqual(['start']);
    expect(state.blocks['start']?.subBlocks['webhookPath']?.value).toBe('orders');
    expect(state.edges).toEqual([]);
    expect(events[0]).toMatchObject({
      warnings: [
        'Left out starter block "Start 2" (fresh) and its 1 connection: a workflow can have only one starter block, and "Start" (start) is kept; these references to it now read nothing: <start2.input.x> in "Fn" (fn)',
      ],
    });
  });

  it('importYaml into a workflow without a starter keeps the first in the document as written, number-like ids too', () => {
    const yaml = 'blocks:\n  "2":\n    type: starter\n    name: Second\n  "1":\n    type: starter\n    name: First\n';
    const { state, events, error } = given([]).when({ type: 'importYaml', yamlContent: yaml });
    expect(error).toBeUndefined();
    expect(starters(state.blocks)).toEqual(['2']);
    expect(events[0]).toMatchObject({ warnings: [expect.stringMatching(/^Left out starter block "First" \(1\): .* "Second" \(2\) is kept$/)] });
  });

  it('our export of a workflow stored with two starters imports into a new workflow with the first; into itself with both', () => {
    const stored = given(legacy());
    const exported = toYaml(stored.state);
    const fresh = given(started()).when({ type: 'importYaml', yamlContent: exported });
    expect(fresh.error).toBeUndefined();
    expect(starters(fresh.state.blocks)).toEqual(['start']);
    expect(fresh.events[0]).toMatchObject({ warnings: [expect.stringMatching(/^Left out starter block "Start 1" \(start2\)/)] });
    const itself = given(legacy()).when({ type: 'importYaml', yamlContent: exported });
    expect(starters(itself.state.blocks)).toEqual(['start', 'start2']);
    expect(itself.events[0]).not.toHaveProperty('warnings');
  });

  describe('a workflow stored with two starters before the rule', () => {
    it('loads, and edits other than adding a starter work: moves, a whole-state save keeping both, removing one, undoing that', () => {
      const stored = given(legacy());
      expect(starters(stored.state.blocks)).toEqual(['start', 'start2']);
      expect(given(legacy()).when({ type: 'moveBlock', id: 'start2', position: { x: 5, y: 5 } }).error).toBeUndefined();
      const resaved = given(legacy()).when({ type: 'replaceState', blocks: stored.state.blocks, edges: [] });
      expect(resaved.error).toBeUndefined();
      const yaml = given(legacy()).when({ type: 'importYaml', yamlContent: toYaml(stored.state) });
      expect(yaml.error).toBeUndefined();
      const removed = given(legacy()).when({ type: 'removeBlock', id: 'start2' });
      expect(starters(removed.state.blocks)).toEqual(['start']);
      // Undo restores a state the workflow had: it is not a new starter.
      const undone = given([...legacy(), ...removed.events]).when({ type: 'undo' });
      expect(undone.error).toBeUndefined();
      expect(starters(undone.state.blocks)).toEqual(['start', 'start2']);
    });

    it('a whole-state save putting back a state its history holds (the copilot reverting a checkpoint) keeps both starters again', () => {
      const stored = given(legacy());
      const removed = given(legacy()).when({ type: 'removeBlock', id: 'start2' });
      const reverted = given([...legacy(), ...removed.events]).when({ type: 'replaceState', blocks: stored.state.blocks, edges: [] });
      expect(reverted.error).toBeUndefined();
      expect(starters(reverted.state.blocks)).toEqual(['start', 'start2']);
      // A state the workflow never held is still refused.
      const other = { ...starterBlock(), id: 'other', name: 'Start 9' };
      const { start2: _start2, ...withoutSecond } = stored.state.blocks;
      expect(given([...legacy(), ...removed.events]).when({ type: 'replaceState', blocks: { ...withoutSecond, other }, edges: [] }).error?.message).toMatch(/found 2/);
    });

    it('a save restoring a version older than the undo history (restoresVersion, the state read by the service) keeps both starters; only that version counts', () => {
      const stored = given(legacy());
      const events = [...legacy(), ...given(legacy()).when({ type: 'removeBlock', id: 'start2' }).events];
      // 25 edits push the state with two starters out of the 20-step history.
      for (let i = 0; i < 25; i++) events.push(...given(events).when({ type: 'moveBlock', id: 'start', position: { x: i, y: 0 } }).events);
      const later = given(events);
      expect(later.state.history.past.some((entry) => entry.state.blocks['start2'] !== undefined)).toBe(false);
      const revert = { type: 'replaceState' as const, blocks: stored.state.blocks, edges: [], restoresVersion: 2 };
      expect(later.when(revert).error?.message).toMatch(/found 2/);
      const restored = later.when(revert, { restoredStates: { 2: { blocks: stored.state.blocks } } });
      expect(restored.error).toBeUndefined();
      expect(starters(restored.state.blocks)).toEqual(['start', 'start2']);
      // The state at another version (one starter), or a version the save does not name, lets none back.
      expect(later.when(revert, { restoredStates: { 2: { blocks: replay(started()).blocks } } }).error?.message).toMatch(/found 2/);
      expect(later.when({ ...revert, restoresVersion: 3 }, { restoredStates: { 2: { blocks: stored.state.blocks } } }).error?.message).toMatch(/found 2/);
    });

    it('never gains a third: addBlock, duplicateBlock and a save with three are refused', () => {
      const stored = given(legacy());
      expect(stored.when({ type: 'addBlock', blockType: 'starter', position: { x: 0, y: 0 } }).error?.message).toBe(ALREADY);
      expect(stored.when({ type: 'duplicateBlock', id: 'start2' }).error?.message).toBe(ALREADY);
      const third = { ...starterBlock(), id: 's3', name: 'Start 3' };
      expect(stored.when({ type: 'replaceState', blocks: { ...stored.state.blocks, s3: third }, edges: [] }).error?.message).toMatch(/found 3/);
    });

    it('a copy of it (replaceState with the source as copiedState, a duplicate) keeps both starters; a third, or a copy of a one-starter source, is refused', () => {
      const stored = replay(legacy());
      const copied = given(started()).when({ type: 'replaceState', blocks: stored.blocks, edges: [] }, { copiedState: { blocks: stored.blocks } });
      expect(copied.error).toBeUndefined();
      expect(starters(copied.state.blocks)).toEqual(['start', 'start2']);
      const third = { ...starterBlock(), id: 's3', name: 'Start 3' };
      expect(given(started()).when({ type: 'replaceState', blocks: { ...stored.blocks, s3: third }, edges: [] }, { copiedState: { blocks: stored.blocks } }).error?.message).toMatch(/^Invalid command: blocks: .*found 3/);
      const oneStarter = replay(started()).blocks;
      expect(given(started()).when({ type: 'replaceState', blocks: stored.blocks, edges: [] }, { copiedState: { blocks: oneStarter } }).error?.message).toMatch(/^Invalid command: blocks: .*found 2/);
    });

    it('revertToDeployed restores a deployed state with two starters', () => {
      const stored = replay(legacy());
      const { error, state } = given(started()).when({ type: 'revertToDeployed' }, { deployedState: { blocks: stored.blocks, edges: [] } });
      expect(error).toBeUndefined();
      expect(starters(state.blocks)).toEqual(['start', 'start2']);
    });
  });

  it('property: no sequence of commands leaves a workflow that had one starter with two', () => {
    const addStarter = fc.record({ type: fc.constant('addBlock' as const), blockType: fc.constant('starter'), position: fc.constant({ x: 0, y: 0 }) });
    const duplicateStarter = fc.constant<Command>({ type: 'duplicateBlock', id: 'start' });
    const command = fc.oneof(commandArbitrary, addStarter, duplicateStarter);
    let refusals = 0;
    fc.assert(
      fc.property(seededArbitrary, fc.array(command, { minLength: 5, maxLength: 30 }), (seeds, random) => {
        let state = replay(started());
        [...seeds, ...random].forEach((next, i) => {
          let n = 0;
          try {
            const events = decide(state, next, testContext({ now: 1_000 + i, newId: () => `id-${i}-${++n}` }));
            state = replay(events, state);
          } catch {
            refusals++;
          }
          expect(starters(state.blocks).length).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 150 },
    );
    expect(refusals).toBeGreaterThan(0);
  });
});
