import { fileURLToPath } from 'node:url';
import { createLogger } from '@weft/platform';
import { freshReplayBundle, historyGaps, replayFailures, storedHistories } from '@weft/testkit/histories';
import { beforeAll, describe, expect, it } from 'vitest';
import { copilotWorkflowBundle } from '../workflowBundle.js';
import * as entry from './index.js';

/**
 * Histories of the workflows the copilot's worker serves, replayed with today's code from the
 * worker's own bundle (`copilotWorkflowBundle`, built afresh here). Kept with WEFT_WRITE_HISTORIES=1
 * by chatLoop.int.test.ts. A change to that code that is not deterministic fails here: it needs a
 * patched() guard, or new histories once no turn of the old code can still be open.
 */
const historiesDir = fileURLToPath(new URL('./histories/', import.meta.url));

/** Histories expected per workflow type; every workflow the bundle's entry exports must have some. */
const EXPECTED: Record<string, string[]> = {
  copilotTurn: ['turn-answer', 'turn-continued', 'turn-edit', 'turn-tool-error', 'turn-proposal', 'turn-provider-error', 'turn-round-limit', 'turn-worker-lost', 'turn-stopped', 'turn-stopped-tool', 'turn-stopped-before-text', 'turn-stopped-last-round'],
};

/** The workflows the entry exports: its functions (`COPILOT_MAX_ITERATIONS` is a constant). */
const served = Object.entries(entry).flatMap(([name, value]) => (typeof value === 'function' ? [name] : []));

describe('replay of the copilot worker’s recorded workflow histories', () => {
  let bundle: Promise<{ code: string }>;
  beforeAll(() => {
    bundle = freshReplayBundle((cacheDir) => copilotWorkflowBundle(createLogger('bundle', 'silent'), cacheDir));
  });

  it('keeps histories of every workflow the worker serves', () => {
    expect(served).toContain('copilotTurn');
    expect(historyGaps(historiesDir, served, EXPECTED)).toEqual([]);
  });

  it('replays each history with the worker’s current workflow code', async () => {
    const histories = storedHistories(historiesDir);
    expect(histories.length).toBeGreaterThanOrEqual(Object.values(EXPECTED).flat().length);
    expect(await replayFailures({ workflowBundle: await bundle }, histories)).toEqual([]);
  }, 120_000);
});
