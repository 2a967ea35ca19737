import { describe, expect, it } from 'vitest';
import type { BlockLogView } from './executionsStore.js';
import { reusedOutputs } from './rerunOutputs.js';
import type { RunnableState } from './workflows/types.js';

const block = (id: string, type: string, parentId?: string) => ({ id, type, name: id, enabled: true, subBlocks: {}, data: parentId ? { parentId } : {} });
/** Start → parallel P (body: loop L, whose body is Work) → After; Start → API with an error path to Handler. */
const state: RunnableState = {
  blocks: {
    s: block('s', 'starter'),
    p: block('p', 'parallel'),
    l: block('l', 'loop', 'p'),
    work: block('work', 'function', 'l'),
    maybe: block('maybe', 'function', 'l'),
    after: block('after', 'function'),
    api: block('api', 'api'),
    handler: block('handler', 'function'),
  },
  edges: [],
};
const at = '2026-01-01T00:00:00.000Z';
const log = (blockId: string, status: 'succeeded' | 'failed' | 'skipped', output: unknown, where: { loopIteration?: number[]; parallelBranch?: number[] } = {}): BlockLogView => ({
  blockId,
  blockName: blockId,
  blockType: state.blocks[blockId]?.type ?? 'function',
  status,
  success: status !== 'failed',
  startedAt: at,
  endedAt: at,
  durationMs: 0,
  ...(output !== undefined ? { output } : {}),
  ...(status === 'failed' ? { error: 'boom' } : {}),
  ...(status === 'skipped' ? { skipped: true } : {}),
  ...where,
});

describe('reusedOutputs (what a rerun takes from the earlier run)', () => {
  it("keeps top-level outputs, failed blocks' {error} outputs, and each body block's output of the last branch, then that branch's last iteration", () => {
    const logs = [
      log('s', 'succeeded', { input: {} }),
      log('api', 'failed', { error: 'boom', status: 500 }),
      log('handler', 'succeeded', { result: 'handled' }),
      // Branch 1's loop ran 3 iterations, branch 0's (logged later) 4: the last branch's last iteration is kept, as keepLast does.
      ...[0, 1, 2].map((i) => log('work', 'succeeded', { result: `p1-l${i}` }, { parallelBranch: [1], loopIteration: [i] })),
      ...[0, 1, 2, 3].map((i) => log('work', 'succeeded', { result: `p0-l${i}` }, { parallelBranch: [0], loopIteration: [i] })),
      // Skipped in the last iteration: nothing of it is readable after the container.
      log('maybe', 'succeeded', { result: 'early' }, { parallelBranch: [1], loopIteration: [1] }),
      log('maybe', 'skipped', undefined, { parallelBranch: [1], loopIteration: [2] }),
      log('p', 'succeeded', { results: [] }),
    ];
    expect(reusedOutputs(state, logs)).toEqual({
      outputs: { s: { input: {} }, handler: { result: 'handled' }, p: { results: [] } },
      failedOutputs: { api: { error: 'boom', status: 500 } },
      bodyOutputs: { work: { result: 'p1-l2' } },
    });
  });

  it('gives only outputs when nothing failed and no container ran', () => {
    expect(reusedOutputs(state, [log('s', 'succeeded', { input: 1 })])).toEqual({ outputs: { s: { input: 1 } } });
  });
});
