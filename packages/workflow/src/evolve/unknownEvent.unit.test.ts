import { describe, expect, it } from 'vitest';
import { isGraphEvent, isKnownEvent, KNOWN_EVENT_TYPES, type WorkflowEvent } from '../events.js';
import { evolve, replay } from './evolve.js';
import { applyGraphEvent } from './graph.evolve.js';
import { graphOf } from '../model/state.js';
import { history } from '../testSupport.js';

/** An event a newer Weft wrote, as an older build receives it (from storage or the wire). */
const fromNewerWeft = { type: 'blockRecoloured', at: 2_000, id: 'start', colour: '#f00', blocks: { x: {} } } as unknown as WorkflowEvent;

describe('events of a type this build does not know', () => {
  const events = history({ type: 'addBlock', id: 'a', blockType: 'function', name: 'Fn', position: { x: 10, y: 20 } });
  const state = replay(events);

  it('evolve leaves the state as it was: no fields spread in, no history entry, no new lastSaved', () => {
    const after = evolve(state, fromNewerWeft);
    expect(after).toBe(state);
    expect(after).not.toHaveProperty('colour');
    expect(after.history.past).toHaveLength(state.history.past.length);
  });

  it('replay skips it and keeps folding the known events after it', () => {
    const [first, ...rest] = events;
    if (first === undefined) throw new Error('no events');
    expect(replay([first, fromNewerWeft, ...rest])).toEqual(state);
  });

  it('applyGraphEvent answers the graph unchanged, not the event', () => {
    const graph = graphOf(state);
    expect(applyGraphEvent(graph, fromNewerWeft as never)).toBe(graph);
  });

  it('isKnownEvent tells them apart from every known type, and rejects what is not an event', () => {
    expect(isKnownEvent(fromNewerWeft)).toBe(false);
    for (const event of events) expect(isKnownEvent(event)).toBe(true);
    for (const type of Object.keys(KNOWN_EVENT_TYPES)) expect(isKnownEvent({ type, at: 1 })).toBe(true);
    for (const junk of [null, undefined, 'blockMoved', 42, {}, { type: 7 }, { type: 'toString' }, { type: '__proto__' }]) expect(isKnownEvent(junk)).toBe(false);
  });

  it('isGraphEvent holds only for known events that push a history entry', () => {
    expect(isGraphEvent({ type: 'subBlockValueSetAndCleared' })).toBe(true);
    expect(isGraphEvent({ type: 'undone' })).toBe(false);
    expect(isGraphEvent({ type: 'blockRecoloured' })).toBe(false);
    expect(isGraphEvent({ type: 'constructor' })).toBe(false);
  });
});
