import { describe, expect, it } from 'vitest';
import type { WorkflowEvent } from '../events.js';
import { replay } from '../evolve/evolve.js';
import { toYaml } from '../yaml/codec.js';
import { given, history, started } from '../testSupport.js';

const reason = (name: string, id: string, type: string) => `"${name}" (${id}) is a trigger block (${type}); a trigger cannot be placed inside a loop or parallel`;

/** A workflow with a loop `lp`, a parallel `pl`, a schedule `sch` and a webhook `hook` at the top level. */
const base = () =>
  history(
    { type: 'addBlock', id: 'lp', blockType: 'loop', position: { x: 400, y: 0 } },
    { type: 'addBlock', id: 'pl', blockType: 'parallel', position: { x: 400, y: 400 } },
    { type: 'addBlock', id: 'sch', blockType: 'schedule', position: { x: 0, y: 300 } },
    { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 0, y: 500 } },
  );

/** A workflow stored before the rule: its schedule `sch` came into the loop by a sync. */
function legacy(): WorkflowEvent[] {
  const events = base();
  const state = replay(events);
  const sch = state.blocks['sch'];
  if (sch === undefined) throw new Error('base() has sch');
  const nested = { ...sch, position: { x: 20, y: 40 }, data: { ...sch.data, parentId: 'lp', extent: 'parent' as const } };
  return [...events, { type: 'stateReplaced', at: 950, blocks: { ...state.blocks, sch: nested }, edges: [] }];
}

describe('triggers stay at the top level (never inside a loop or parallel)', () => {
  it('addBlock of a schedule, webhook or starter with parentId is refused naming the field and the block; nothing is emitted', () => {
    const schedule = given(base()).when({ type: 'addBlock', id: 's2', blockType: 'schedule', position: { x: 0, y: 0 }, parentId: 'lp' });
    expect(schedule.events).toEqual([]);
    expect(schedule.error).toMatchObject({ code: 'validation', message: `Invalid command: parentId: ${reason('Schedule 2', 's2', 'schedule')}` });
    const webhook = given(base()).when({ type: 'addBlock', id: 'w2', blockType: 'webhook', name: 'In', position: { x: 0, y: 0 }, parentId: 'pl' });
    expect(webhook.error?.message).toBe(`Invalid command: parentId: ${reason('In', 'w2', 'webhook')}`);
    const starter = given(base()).when([
      { type: 'removeBlock', id: 'start' },
      { type: 'addBlock', id: 's', blockType: 'starter', name: 'Start', position: { x: 0, y: 0 }, parentId: 'lp' },
    ]);
    expect(starter.error?.message).toBe(`Invalid command: parentId: ${reason('Start', 's', 'starter')}`);
  });

  it('a parent given in data (a paste carrying its block data) is refused naming data.parentId', () => {
    const { error } = given(base()).when({ type: 'addBlock', id: 's2', blockType: 'schedule', position: { x: 0, y: 0 }, data: { parentId: 'lp' } });
    expect(error?.message).toBe(`Invalid command: data.parentId: ${reason('Schedule 2', 's2', 'schedule')}`);
  });

  it('other blocks still nest, and triggers are still added at the top level', () => {
    const { error, state } = given(base()).when([
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 }, parentId: 'lp' },
      { type: 'addBlock', id: 'l2', blockType: 'loop', position: { x: 0, y: 0 }, parentId: 'pl' },
      { type: 'addBlock', id: 's2', blockType: 'schedule', position: { x: 900, y: 0 } },
    ]);
    expect(error).toBeUndefined();
    expect([state.blocks['f']?.data.parentId, state.blocks['l2']?.data.parentId, state.blocks['s2']?.data.parentId]).toEqual(['lp', 'pl', undefined]);
  });

  it('setParent of a trigger into a container is refused; taking a nested one out is allowed', () => {
    const into = given(base()).when({ type: 'setParent', id: 'hook', parentId: 'pl' });
    expect(into.error).toMatchObject({ code: 'validation', message: `Invalid command: parentId: ${reason('Hook', 'hook', 'webhook')}` });
    expect(into.events).toEqual([]);
    expect(given(base()).when({ type: 'setParent', id: 'start', parentId: 'lp' }).error?.message).toBe(`Invalid command: parentId: ${reason('Start', 'start', 'starter')}`);
    const out = given(legacy()).when({ type: 'setParent', id: 'sch', parentId: null });
    expect(out.error).toBeUndefined();
    expect(out.state.blocks['sch']?.data.parentId).toBeUndefined();
  });

  it('a trigger nested before the rule folds, moves and edits as it is, but is not duplicated into its container', () => {
    const state = replay(legacy());
    expect(state.blocks['sch']?.data.parentId).toBe('lp');
    const edited = given(legacy()).when([
      { type: 'moveBlock', id: 'sch', position: { x: 30, y: 50 } },
      { type: 'setSubBlockValue', id: 'sch', subBlockId: 'scheduleType', value: 'hourly' },
    ]);
    expect(edited.error).toBeUndefined();
    const duplicated = given(legacy()).when({ type: 'duplicateBlock', id: 'sch', newId: 'sch2' });
    expect(duplicated.error?.message).toBe(`Invalid command: id: ${reason('Schedule 1', 'sch', 'schedule')}`);
    expect(given(base()).when({ type: 'duplicateBlock', id: 'sch', newId: 'sch2' }).state.blocks['sch2']?.data.parentId).toBeUndefined();
  });

  it('replaceState nesting a trigger is refused naming blocks.<id>.data.parentId; a state keeping one nested before the rule saves', () => {
    const state = replay(base());
    const sch = state.blocks['sch'];
    if (sch === undefined) throw new Error('base() has sch');
    const nested = { ...sch, data: { parentId: 'lp', extent: 'parent' as const } };
    const refused = given(base()).when({ type: 'replaceState', blocks: { ...state.blocks, sch: nested }, edges: [] });
    expect(refused.error).toMatchObject({ code: 'validation', message: `Invalid command: blocks.sch.data.parentId: ${reason('Schedule 1', 'sch', 'schedule')}` });
    const kept = replay(legacy());
    expect(given(legacy()).when({ type: 'replaceState', blocks: kept.blocks, edges: kept.edges }).error).toBeUndefined();
    // A copy may keep the nested trigger of the state it copies (a duplicated workflow), never add one.
    const copy = given(started()).when({ type: 'replaceState', blocks: kept.blocks, edges: [] }, { copiedState: { blocks: kept.blocks } });
    expect(copy.error).toBeUndefined();
  });

  it('a save putting back an earlier state that nested a trigger before the rule (a checkpoint\'s revert) is taken', () => {
    const checkpoint = replay(legacy());
    const edited = [...legacy(), ...given(legacy()).when({ type: 'setParent', id: 'sch', parentId: null }).events];
    const reverted = given(edited).when({ type: 'replaceState', blocks: checkpoint.blocks, edges: checkpoint.edges });
    expect(reverted.error).toBeUndefined();
    expect(reverted.state.blocks['sch']?.data.parentId).toBe('lp');
  });

  it('importYaml lifts a trigger it nests to the top level where it stood on the canvas; a workflow that already held it so keeps it', () => {
    const yamlContent = [
      'blocks:', '  start:', '    type: starter', '    name: Start',
      '  lp:', '    type: loop', '    name: Loop 1', '    position: { x: 400, y: 100 }',
      '  hook:', '    type: webhook', '    name: Hook', '    parentId: lp', '    position: { x: 20, y: 40 }', '',
    ].join('\n');
    const { error, state } = given(started()).when({ type: 'importYaml', yamlContent });
    expect(error).toBeUndefined();
    expect(state.blocks['hook']?.data.parentId).toBeUndefined();
    expect(state.blocks['hook']?.data.extent).toBeUndefined();
    expect(state.blocks['hook']?.position).toEqual({ x: 420, y: 140 });
    // The export of a workflow stored before the rule imports into a new workflow (lifted) and into itself (kept).
    const exported = toYaml(replay(legacy()));
    const fresh = given(started()).when({ type: 'importYaml', yamlContent: exported });
    expect(fresh.error).toBeUndefined();
    expect(fresh.state.blocks['sch']?.data.parentId).toBeUndefined();
    expect(fresh.state.blocks['sch']?.position).toEqual({ x: 420, y: 40 });
    const again = given(legacy()).when({ type: 'importYaml', yamlContent: exported });
    expect(again.error).toBeUndefined();
    expect(again.state.blocks['sch']?.data.parentId).toBe('lp');
  });
});
