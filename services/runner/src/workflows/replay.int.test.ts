import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Runtime } from '@temporalio/worker';
import { listBlocks } from '@weft/catalog';
import { createLogger, temporalLogger } from '@weft/platform';
import { forEachObject, historyPayloads, replayFailures, storedHistories, type StoredHistory } from '@weft/testkit/histories';
import { beforeAll, describe, expect, it } from 'vitest';
import { historiesDir, workflowBundle } from '../testing/engineHarness.js';
import { blockKind, CONTROL_BLOCK_TYPES } from './engine/blocks.js';
import { MODEL_BLOCK_TYPES } from './models/index.js';

/**
 * Histories recorded from the engine's workflow-level tests (WEFT_WRITE_HISTORIES=1 while running
 * graphRules/blocks/containers.int.test.ts and models/modelBlocks.int.test.ts writes them). Replaying
 * them with today's workflow code fails when a change to that code is not deterministic: such a
 * change needs a patch() guard, or the histories recorded anew when no run of the old code can still be open.
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
  'evaluator',
  'translate-vision-huggingface',
  'embeddings-images',
  'api-start',
  'model-retries',
  'loop-error',
];

/**
 * What a history proves about a block type: the engine's way of running it (`blockKind`), each model
 * block type on its own (each has its own runner in the model layer).
 */
const coverageKey = (type: string): string => {
  const kind = blockKind(type);
  return kind === 'model' ? `model:${type}` : kind;
};

/** Block types a history ran: every block (an object with a string `type` and `subBlocks`) in its payloads, child workflows' included. */
function blockTypesIn(history: StoredHistory): Set<string> {
  const types = new Set<string>();
  forEachObject(historyPayloads(history.json), (record) => {
    if (typeof record.type === 'string' && record.subBlocks && typeof record.subBlocks === 'object') types.add(record.type);
  });
  return types;
}

const replay = async (histories: StoredHistory[]) => replayFailures({ workflowBundle: await workflowBundle() }, histories);

describe('replay of recorded run histories', () => {
  beforeAll(() => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-replay', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already in this process.
    }
  });

  it('replays each history with the current workflow code', async () => {
    const histories = storedHistories(historiesDir);
    expect(histories.map((h) => h.name)).toEqual(expect.arrayContaining(EXPECTED));
    expect(await replay(histories)).toEqual([]);
  }, 120_000);

  it('covers every way the engine runs a block: each control and model block type of the engine and catalogue, a trigger and a tool block', () => {
    const covered = new Set(storedHistories(historiesDir).flatMap((h) => [...blockTypesIn(h)].map(coverageKey)));
    const kinds = new Set([...listBlocks().map((b) => b.type), ...CONTROL_BLOCK_TYPES, ...MODEL_BLOCK_TYPES].map(coverageKey));
    // A block type the engine runs in a way no stored history shows is listed here: record a history with it.
    expect([...kinds].filter((k) => !covered.has(k)).sort()).toEqual([]);
    expect([...kinds]).toEqual(expect.arrayContaining(['tool', 'trigger', 'model:agent', 'loop']));
  });

  it('detects a run that would go differently: a history replayed with another graph fails as non-deterministic', async () => {
    const diamond = storedHistories(historiesDir).find((h) => h.name === 'diamond');
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
