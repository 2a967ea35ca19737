import { afterEach, describe, expect, it, vi } from 'vitest';
import { decideBatch, encodeSnapshot, evolve, replay, startWorkflow, type DecideContext, type WorkflowState } from '@weft/workflow';
import { httpTransport } from './http';

const context: DecideContext = { now: 1_000, newId: () => 'id-1', blockDefinition: () => ({ subBlocks: [], outputs: {} }) };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the HTTP transport', () => {
  it('loads the full state from GET /state and decodes its history', async () => {
    let state: WorkflowState = replay(startWorkflow(context, 'start'));
    state = decideBatch(state, [{ type: 'moveBlock', id: 'start', position: { x: 3, y: 4 } }], context).reduce(evolve, state);
    const fetched: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      fetched.push(url);
      return Promise.resolve(new Response(JSON.stringify({ version: 2, state: encodeSnapshot(state) }), { status: 200 }));
    });

    const full = await httpTransport('wf 1').fullState();

    expect(fetched).toEqual(['/api/workflows/wf%201/state']);
    expect(full.version).toBe(2);
    expect(full.state).toEqual(JSON.parse(JSON.stringify(state)));
    expect(full.state.history.past).toHaveLength(1);
  });
});
