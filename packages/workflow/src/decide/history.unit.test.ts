import { describe, expect, it } from 'vitest';
import type { Command } from '../commands.js';
import type { DeployedState } from '../context.js';
import type { WorkflowEvent } from '../events.js';
import { replay } from '../evolve/evolve.js';
import { historyView, MAX_PAST_ENTRIES } from '../model/history.js';
import { graphOf } from '../model/state.js';
import { given, history, started } from '../testSupport.js';

const move = (x: number): Command => ({ type: 'moveBlock', id: 'start', position: { x, y: 0 } });

describe('history (§3 History entry, §4 Undo, §9)', () => {
  it('§3: every edit pushes an entry with state, timestamp, action label and sub-block values', () => {
    const { state } = given(history()).when({ type: 'setSubBlockValue', id: 'start', subBlockId: 'webhookPath', value: 'hook' });
    expect(state.history.past).toHaveLength(1);
    expect(state.history.present).toMatchObject({ timestamp: 1_000, action: 'Start › Webhook Path' });
    expect(state.history.present.subblockValues['start']?.['webhookPath']).toBe('hook');
    expect(state.history.present.state).toEqual(graphOf(state));
  });

  it('§9: only the last 20 past entries are kept', () => {
    const moves = Array.from({ length: 25 }, (_, i) => move(i + 1));
    const { state } = given(history(...moves)).when(move(26));
    expect(state.history.past).toHaveLength(MAX_PAST_ENTRIES);
    expect(state.history.past[0]?.state.blocks['start']?.position.x).toBe(6);
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

describe('one user action, one undo step (a request\'s batch of commands)', () => {
  const fn = (id: string, x: number): Command => ({ type: 'addBlock', id, blockType: 'function', position: { x, y: 0 } });
  const paste: Command[] = [fn('p1', 0), fn('p2', 300), fn('p3', 600), { type: 'addEdge', id: 'pe1', source: 'p1', target: 'p2' }, { type: 'addEdge', id: 'pe2', source: 'p2', target: 'p3' }];

  it('a paste of 3 blocks and 2 edges is one entry: one undo takes all of it back, one redo brings all of it again', () => {
    const base = history(move(10));
    const pasted = given(base).when(paste);
    expect(pasted.events.map((e) => ('joinsStep' in e ? e.joinsStep : undefined))).toEqual([undefined, true, true, true, true]);
    expect(pasted.state.history.past).toHaveLength(given(base).state.history.past.length + 1);
    expect(historyView(pasted.state.history).present.action).toBe('Add function block');
    const undone = given([...base, ...pasted.events]).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(base).state));
    const redone = given([...base, ...pasted.events, ...undone.events]).when({ type: 'redo' });
    expect(graphOf(redone.state)).toEqual(graphOf(pasted.state));
  });

  it('a drop into nested containers (grow, grow, add) is one step labelled by the block added; undo also shrinks the containers back', () => {
    const base = history(
      { type: 'addBlock', id: 'outer', blockType: 'loop', position: { x: 0, y: 0 } },
      { type: 'addBlock', id: 'inner', blockType: 'parallel', position: { x: 20, y: 40 }, parentId: 'outer' },
    );
    const dropped = given(base).when([
      { type: 'growBlock', id: 'inner', minWidth: 900 },
      { type: 'growBlock', id: 'outer', minWidth: 1_000 },
      { type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 600, y: 40 }, parentId: 'inner' },
    ]);
    expect(dropped.events.map((e) => e.type)).toEqual(['blockResized', 'blockResized', 'blockAdded']);
    expect(historyView(dropped.state.history).present.action).toBe('Add agent block');
    const undone = given([...base, ...dropped.events]).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(base).state));
  });

  it('a delete of blocks and a selected edge between kept blocks is one step', () => {
    const base = history(...paste, fn('k', 900), { type: 'addEdge', id: 'ke', source: 'start', target: 'k' });
    const removed = given(base).when([{ type: 'removeBlock', ids: ['p1', 'p2'] }, { type: 'removeEdge', id: 'ke' }]);
    expect(removed.state.edges).toEqual([]);
    expect(historyView(removed.state.history).present.action).toBe('Remove 2 blocks');
    const undone = given([...base, ...removed.events]).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(base).state));
  });

  it('an undo inside a batch closes the step: the edit after it is a step of its own', () => {
    const { events, state } = given(history()).when([fn('a', 0), { type: 'undo' }, move(5)]);
    expect(events.map((e) => [e.type, 'joinsStep' in e ? e.joinsStep : undefined])).toEqual([
      ['blockAdded', undefined],
      ['undone', undefined],
      ['blockMoved', undefined],
    ]);
    expect(state.blocks['a']).toBeUndefined();
    expect(historyView(state.history).past.map((p) => p.action)).toEqual(['Initial state']);
  });

  it("another editor's request between two of mine stays its own step: each undo takes back one request, newest first (the history is the workflow's, shared)", () => {
    // Alice pastes, Bob moves the starter, Alice adds a block: three requests, stored in that order.
    const alice1 = given(started()).when(paste, { now: 1_000 });
    const bob = given([...started(), ...alice1.events]).when(move(77), { now: 1_001 });
    const alice2 = given([...started(), ...alice1.events, ...bob.events]).when(fn('a', 0), { now: 1_002 });
    const log: WorkflowEvent[] = [...started(), ...alice1.events, ...bob.events, ...alice2.events];
    expect(historyView(replay(log).history).past.map((p) => p.action)).toEqual(['Initial state', 'Add function block', 'Move block']);
    const once = given(log).when({ type: 'undo' });
    expect(graphOf(once.state)).toEqual(graphOf(bob.state));
    const twice = given([...log, ...once.events]).when({ type: 'undo' });
    expect(graphOf(twice.state)).toEqual(graphOf(alice1.state));
    const thrice = given([...log, ...once.events, ...twice.events]).when({ type: 'undo' });
    expect(graphOf(thrice.state)).toEqual(graphOf(replay(started())));
  });

  it('events stored before steps (no joinsStep) fold as they did: one entry each', () => {
    const pasted = given(started()).when(paste);
    const unmarked = pasted.events.map((e) => {
      if (!('joinsStep' in e)) return e;
      const { joinsStep: _joins, ...rest } = e;
      return rest;
    });
    const state = replay([...started(), ...unmarked]);
    expect(graphOf(state)).toEqual(graphOf(pasted.state));
    expect(state.history.past).toHaveLength(5);
    expect(graphOf(replay([...started(), ...unmarked, { type: 'undone', at: 2_000 }])).edges).toHaveLength(1);
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

  it('the deployed variables come back with the deployed state; a deployment without them keeps the draft\'s', () => {
    const drafted = history({ type: 'addVariable', id: 'v1', name: 'limit', variableType: 'number', value: 9 }, { type: 'addVariable', id: 'v2', name: 'extra', variableType: 'plain', value: 'x' });
    const withVariables: DeployedState = { ...deployedWith('manual'), variables: { v1: { id: 'v1', name: 'limit', type: 'number', value: 3 } } };
    const reverted = given(drafted).when({ type: 'revertToDeployed' }, { deployedState: withVariables });
    expect(reverted.events.map((e) => e.type)).toEqual(['revertedToDeployed']);
    expect(Object.values(reverted.state.variables).map((v) => [v.name, v.type, v.value])).toEqual([['limit', 'number', 3]]);
    const legacy = given(drafted).when({ type: 'revertToDeployed' }, { deployedState: deployedWith('manual') });
    expect(legacy.events.map((e) => e.type)).toEqual(['revertedToDeployed']);
    expect(Object.values(legacy.state.variables).map((v) => v.value)).toEqual([9, 'x']);
  });

  it('one undo of the revert brings back the draft\'s graph and variables; redo the deployed ones again', () => {
    const drafted = history(
      { type: 'addVariable', id: 'v1', name: 'x', variableType: 'plain', value: 'draft' },
      { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } },
    );
    const draftVariables = given(drafted).state.variables;
    const withVariables: DeployedState = { ...deployedWith('manual'), variables: { v1: { id: 'v1', name: 'x', type: 'plain', value: 'deployed' } } };
    const reverted = given(drafted).when({ type: 'revertToDeployed' }, { deployedState: withVariables });
    expect(reverted.state.variables['v1']?.value).toBe('deployed');
    const afterRevert = [...drafted, ...reverted.events];
    const undone = given(afterRevert).when({ type: 'undo' });
    expect(Object.keys(undone.state.blocks).sort()).toEqual(['f', 'start']);
    expect(undone.state.variables).toEqual(draftVariables);
    const redone = given([...afterRevert, ...undone.events]).when({ type: 'redo' });
    expect(Object.keys(redone.state.blocks)).toEqual(['start']);
    expect(redone.state.variables['v1']?.value).toBe('deployed');
    // Going back over the revert by the history list does the same; an undo of a later edit does not touch them.
    const later = [...afterRevert, ...given(afterRevert).when({ type: 'moveBlock', id: 'start', position: { x: 5, y: 5 } }).events];
    const laterState = given(later).state;
    const changed = [...later, ...given(later).when({ type: 'updateVariable', id: 'v1', name: 'x', value: 'edited' }).events];
    expect(given(changed).when({ type: 'undo' }).state.variables['v1']?.value).toBe('edited');
    // Going back over it by the history list with nothing changed since: the draft's.
    expect(given(later).when({ type: 'revertToHistory', index: laterState.history.past.length - 2 }).state.variables).toEqual(draftVariables);
    // A variable edited since the revert is the user's: crossing the revert keeps it.
    const jumped = given(changed).when({ type: 'revertToHistory', index: laterState.history.past.length - 2 });
    expect(jumped.state.variables['v1']?.value).toBe('edited');
  });

  it('an undo of the revert keeps the variables added, edited or removed after it; only those the revert left as they were go back', () => {
    const drafted = history(
      { type: 'addVariable', id: 'v1', name: 'x', variableType: 'plain', value: 'draft' },
      { type: 'addVariable', id: 'v2', name: 'y', variableType: 'plain', value: 'draft-y' },
      { type: 'addVariable', id: 'v3', name: 'z', variableType: 'plain', value: 'draft-z' },
    );
    const deployed: DeployedState = {
      ...deployedWith('manual'),
      variables: { v1: { id: 'v1', name: 'x', type: 'plain', value: 'deployed' }, v2: { id: 'v2', name: 'y', type: 'plain', value: 'deployed-y' } },
    };
    let events = [...drafted, ...given(drafted).when({ type: 'revertToDeployed' }, { deployedState: deployed }).events];
    const then = (command: Parameters<ReturnType<typeof given>['when']>[0]) => {
      const r = given(events).when(command);
      expect(r.error).toBeUndefined();
      events = [...events, ...r.events];
      return r.state;
    };
    // After the revert: a key typed in, y edited, x left as deployed.
    then({ type: 'addVariable', id: 'k', name: 'apiKey', variableType: 'plain', value: 'secret-typed' });
    then({ type: 'updateVariable', id: 'v2', name: 'y', value: 'typed-y' });
    const undone = then({ type: 'undo' });
    expect(Object.fromEntries(Object.values(undone.variables).map((v) => [v.name, v.value]))).toEqual({ x: 'draft', y: 'typed-y', z: 'draft-z', apiKey: 'secret-typed' });
    const redone = then({ type: 'redo' });
    expect(Object.fromEntries(Object.values(redone.variables).map((v) => [v.name, v.value]))).toEqual({ x: 'deployed', y: 'typed-y', apiKey: 'secret-typed' });
  });

  it('a revert stored with a variablesReplaced after it (before the revert carried them) folds as it did', () => {
    const drafted = history({ type: 'addVariable', id: 'v1', name: 'x', variableType: 'plain', value: 'draft' });
    const state = given(drafted).state;
    const start = state.blocks['start'];
    if (start === undefined) throw new Error('starter missing');
    const deployedVariables = { v1: { ...state.variables['v1']!, value: 'deployed' } };
    const old: WorkflowEvent[] = [
      { type: 'revertedToDeployed', at: 5_000, blocks: { start }, edges: [], deployedAt: 42, hasActiveWebhook: false },
      { type: 'variablesReplaced', at: 5_000, variables: deployedVariables },
    ];
    const folded = given([...drafted, ...old]);
    expect(folded.state.variables['v1']?.value).toBe('deployed');
    expect(folded.state.history.present.variableSwap).toBeUndefined();
    expect(folded.when({ type: 'undo' }).state.variables['v1']?.value).toBe('deployed');
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
