import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Runtime } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { replayFailures, storedHistories } from '@weft/testkit/histories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  modelToolLoop: ['tool-loop', 'tool-loop-forced', 'tool-loop-provider-error', 'tool-loop-worker-lost'],
};

/** The workflow type a stored history ran (its first event). */
function workflowType(json: unknown): string | undefined {
  const first = (json as { events?: Array<{ workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }> }).events?.[0];
  return first?.workflowExecutionStartedEventAttributes?.workflowType?.name;
}

describe('replay of the integrations worker’s recorded workflow histories', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'weft-replay-bundle-'));
  let bundle: Promise<{ codePath: string }>;
  beforeAll(() => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-replay', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already in this process.
    }
    // A directory of its own: a cached bundle of other code could never answer for this one.
    bundle = integrationsWorkflowBundle(createLogger('bundle', 'silent'), cacheDir);
  });
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('keeps histories of every workflow the worker serves', () => {
    const byType = new Map<string, string[]>();
    for (const h of storedHistories(historiesDir)) {
      const type = workflowType(h.json) ?? 'unknown';
      byType.set(type, [...(byType.get(type) ?? []), h.name]);
    }
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(served).sort());
    expect([...byType.keys()].sort()).toEqual(Object.keys(served).sort());
    for (const [type, names] of Object.entries(EXPECTED)) expect(byType.get(type)).toEqual(expect.arrayContaining(names));
  });

  it('replays each history with the worker’s current workflow code', async () => {
    const histories = storedHistories(historiesDir);
    expect(histories.length).toBeGreaterThanOrEqual(Object.values(EXPECTED).flat().length);
    expect(await replayFailures({ workflowBundle: await bundle }, histories)).toEqual([]);
  }, 120_000);
});
