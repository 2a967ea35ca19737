import { fileURLToPath } from 'node:url';
import { createLogger } from '@weft/platform';
import { freshReplayBundle, historyGaps, replayFailures, storedHistories } from '@weft/testkit/histories';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationsWorkflowBundle } from '../workflowBundle.js';
import * as served from './workflows.js';

/**
 * Histories of the workflows the integrations worker serves, replayed with today's code from the
 * worker's own bundle (`integrationsWorkflowBundle`, built afresh here). Kept with
 * WEFT_WRITE_HISTORIES=1 by the tests that run them: `pollToolJob` by jobs.int.test.ts, the agent
 * tool loop `modelToolLoop` by the runner's models/modelBlocks.int.test.ts (its stand-in integrations
 * worker runs this service's loop code). A change to that code that is not deterministic fails here:
 * it needs a patched() guard, or new histories once no run of the old code can still be open.
 */
const historiesDir = fileURLToPath(new URL('./histories/', import.meta.url));

/** Histories expected per workflow type; every workflow the bundle's module exports must have some. */
const EXPECTED: Record<string, string[]> = {
  pollToolJob: ['poll-done', 'poll-failed', 'poll-timeout', 'poll-start-error', 'poll-check-error', 'poll-cancelled', 'poll-worker-lost'],
  modelToolLoop: ['tool-loop', 'tool-loop-forced', 'tool-loop-provider-error', 'tool-loop-worker-lost', 'tool-loop-model-retries', 'tool-loop-tool-retries'],
};

describe('replay of the integrations worker’s recorded workflow histories', () => {
  let bundle: Promise<{ code: string }>;
  beforeAll(() => {
    bundle = freshReplayBundle((cacheDir) => integrationsWorkflowBundle(createLogger('bundle', 'silent'), cacheDir));
  });

  it('keeps histories of every workflow the worker serves', () => {
    expect(historyGaps(historiesDir, Object.keys(served), EXPECTED)).toEqual([]);
  });

  it('replays each history with the worker’s current workflow code', async () => {
    const histories = storedHistories(historiesDir);
    expect(histories.length).toBeGreaterThanOrEqual(Object.values(EXPECTED).flat().length);
    expect(await replayFailures({ workflowBundle: await bundle }, histories)).toEqual([]);
  }, 120_000);
});
