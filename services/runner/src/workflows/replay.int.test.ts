import { readdirSync, readFileSync } from 'node:fs';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Runtime, Worker } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { beforeAll, describe, expect, it } from 'vitest';
import { historiesDir, workflowBundle } from '../testing/engineHarness.js';

/**
 * Histories recorded from the engine's workflow-level tests (WEFT_WRITE_HISTORIES=1 while running
 * graphRules/blocks/containers.int.test.ts writes them). Replaying them with today's workflow code
 * fails when a change to that code is not deterministic: such a change needs a patch() guard, or
 * the histories recorded anew when no run of the old code can still be open.
 */
const EXPECTED = [
  'function-response',
  'diamond',
  'condition',
  'error-edge',
  'response',
  'router',
  'agent',
  'api-tool',
  'tool-retries',
  'child-workflow',
  'rerun',
  'cancelled',
  'loop-for',
  'loop-in-loop',
  'parallel-count',
  'parallel-error',
  'nested',
  'trigger-entry',
];

interface Stored {
  name: string;
  workflowId: string;
  json: unknown;
}

function stored(): Stored[] {
  return readdirSync(historiesDir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = JSON.parse(readFileSync(`${historiesDir}${f}`, 'utf8')) as { workflowId: string; history: unknown };
      return { name: f.slice(0, -'.json'.length), workflowId: file.workflowId, json: file.history };
    });
}

async function replay(histories: Stored[]): Promise<Array<{ name: string; error: string }>> {
  const failures: Array<{ name: string; error: string }> = [];
  const names = new Map(histories.map((h) => [h.workflowId, h.name]));
  const input = histories.map((h) => ({ workflowId: h.workflowId, history: historyFromJSON(h.json) }));
  for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, input)) {
    if (result.error) failures.push({ name: names.get(result.workflowId) ?? result.workflowId, error: `${result.error.name}: ${result.error.message}` });
  }
  return failures;
}

describe('replay of recorded run histories', () => {
  beforeAll(() => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-replay', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already in this process.
    }
  });

  it('covers every block kind and replays each history with the current workflow code', async () => {
    const histories = stored();
    expect(histories.map((h) => h.name)).toEqual(expect.arrayContaining(EXPECTED));
    expect(await replay(histories)).toEqual([]);
  }, 120_000);

  it('detects a run that would go differently: a history replayed with another graph fails as non-deterministic', async () => {
    const diamond = stored().find((h) => h.name === 'diamond');
    if (!diamond) throw new Error('diamond history missing');
    // Rewrite the recorded start input: the arm blocks' edges removed, so the code schedules other work.
    const history = historyFromJSON(diamond.json);
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const payload = started?.input?.payloads?.[0];
    if (!payload?.data) throw new Error('diamond history has no start input');
    const args = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { state: { edges: Array<{ source: string; target: string }> } };
    args.state.edges = args.state.edges.filter((e) => e.source === 's' && e.target === 'a');
    payload.data = Buffer.from(JSON.stringify(args));
    const failures = await replay([{ name: 'diamond-altered', workflowId: diamond.workflowId, json: JSON.parse(historyToJSON(history)) as unknown }]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.error).toMatch(/Nondeterminism|DeterminismViolation/i);
  }, 120_000);
});
