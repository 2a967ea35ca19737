import { describe, expect, it } from 'vitest';
import type { Command } from '../commands.js';
import type { DeployedState } from '../context.js';
import { historyView, MAX_PAST_ENTRIES } from '../model/history.js';
import { graphOf } from '../model/state.js';
import { given, history } from '../testSupport.js';

const move = (x: number): Command => ({ type: 'moveBlock', id: 'start', position: { x, y: 0 } });

describe('history (§3 History entry, §4 Undo, §9)', () => {
  it('§3: every edit pushes an entry with state, timestamp, action label and sub-block values', () => {
    const { state } = given(history()).when({ type: 'setSubBlockValue', id: 'start', subBlockId: 'webhookPath', value: 'hook' });
    expect(state.history.past).toHaveLength(1);
    expect(state.history.present).toMatchObject({ timestamp: 1_000, action: 'Update value' });
    expect(state.history.present.subblockValues['start']?.['webhookPath']).toBe('hook');
    expect(state.history.present.state).toEqual(graphOf(state));
  });

  it('§9: only the last 20 past entries are kept', () => {
    const moves = Array.from({ length: 25 }, (_, i) => move(i + 1));
    const { state } = given(history()).when(moves);
    expect(state.history.past).toHaveLength(MAX_PAST_ENTRIES);
    expect(state.history.past[0]?.state.blocks['start']?.position.x).toBe(5);
  });

  it('§4: undo restores the previous blocks, edges and values; redo re-applies', () => {
    const base = history(
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
      { type: 'addEdge', id: 'e', source: 'start', target: 'f' },
    );
    const before = given(base).state;
    const undone = given(base).when({ type: 'undo' });
    expect(undone.events.map((e) => e.type)).toEqual(['undone']);
    expect(undone.state.edges).toEqual([]);
    expect(undone.state.history.future).toHaveLength(1);
    const redone = given([...base, ...undone.events]).when({ type: 'redo' });
    expect(graphOf(redone.state)).toEqual(graphOf(before));
  });

  it('§4: undo needs past entries and redo needs future entries, otherwise nothing happens', () => {
    expect(given(history()).when({ type: 'undo' }).events).toEqual([]);
    expect(given(history(move(3))).when({ type: 'redo' }).events).toEqual([]);
  });

  it('issue 3 Rules: a new edit clears the future', () => {
    const base = history(move(1), move(2), { type: 'undo' });
    expect(given(base).state.history.future).toHaveLength(1);
    expect(given(base).when(move(9)).state.history.future).toEqual([]);
  });

  it('§4: revert to a history index restores that point; the view lists labels and timestamps', () => {
    const base = history(move(1), move(2), move(3));
    const view = historyView(given(base).state.history);
    expect(view.past.map((p) => p.action)).toEqual(['Initial state', 'Move block', 'Move block']);
    expect(view.present).toEqual({ index: 3, action: 'Move block', timestamp: 900 });
    const { state } = given(base).when({ type: 'revertToHistory', index: 1 });
    expect(state.blocks['start']?.position.x).toBe(1);
    expect(historyView(state.history).future.map((f) => f.index)).toEqual([2, 3]);
  });

  it('§4: reverting to a missing index is refused', () => {
    expect(given(history()).when({ type: 'revertToHistory', index: 7 }).error?.code).toBe('not_found');
  });

  it('§4: clear workflow empties the graph and can be undone', () => {
    const base = history({ type: 'addBlock', id: 'l', blockType: 'loop', position: { x: 0, y: 0 } });
    const cleared = given(base).when({ type: 'clearWorkflow' });
    expect(graphOf(cleared.state)).toEqual({ blocks: {}, edges: [], loops: {}, parallels: {} });
    const back = given([...base, ...cleared.events]).when({ type: 'undo' });
    expect(graphOf(back.state)).toEqual(graphOf(given(base).state));
  });
});

describe('revertToDeployed (§4 Revert to deployed)', () => {
  const deployedWith = (startWorkflow: string): DeployedState => {
    const starter = given(history()).state.blocks['start'];
    if (starter === undefined) throw new Error('starter missing');
    const sub = { id: 'startWorkflow', type: 'dropdown', value: startWorkflow };
    return { blocks: { start: { ...starter, subBlocks: { ...starter.subBlocks, startWorkflow: sub } } }, edges: [], deployedAt: 42 };
  };
  const base = history(
    { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
    { type: 'setDeployed', isDeployed: false },
    { type: 'setNeedsRedeployment', needsRedeployment: true },
  );

  it('§4: state becomes the deployed state, isDeployed true, needsRedeployment false, webhook from the starter', () => {
    const { state } = given(base).when({ type: 'revertToDeployed' }, { deployedState: deployedWith('webhook') });
    expect(Object.keys(state.blocks)).toEqual(['start']);
    expect(state).toMatchObject({ isDeployed: true, needsRedeployment: false, hasActiveWebhook: true, deployedAt: 42 });
  });

  it('§4: the webhook is not active when the starter does not start by webhook', () => {
    const { state } = given(base).when({ type: 'revertToDeployed' }, { deployedState: deployedWith('manual') });
    expect(state.hasActiveWebhook).toBe(false);
  });

  it('§4: without a deployed state the revert is refused and nothing changes', () => {
    const { error, events } = given(base).when({ type: 'revertToDeployed' });
    expect(error?.code).toBe('not_found');
    expect(events).toEqual([]);
  });
});

describe('deployment flags (§4 Deployment)', () => {
  it('§4: setting deployed stamps deployedAt with now when none is given; undeploying keeps needsRedeployment', () => {
    const deployed = given(history()).when({ type: 'setDeployed', isDeployed: true });
    expect(deployed.state).toMatchObject({ isDeployed: true, deployedAt: 1_000 });
    const flagged = history({ type: 'setNeedsRedeployment', needsRedeployment: true });
    const undeployed = given(flagged).when({ type: 'setDeployed', isDeployed: false });
    expect(undeployed.state).toMatchObject({ isDeployed: false, needsRedeployment: true });
  });
});
