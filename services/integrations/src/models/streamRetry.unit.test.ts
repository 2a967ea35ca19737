import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import type { CallModelInput, CallModelOutput, RunStreamChunk } from '@weft/contracts';
import { createModelActivities } from './activities.js';
import { RETRY_SEQ_GAP } from './callModel.js';
import { compatibleEnv, testModelDeps } from './testDeps.js';

const ANSWER = 'The notes are saved and here is the summary.';
let fake: OpenAIFake;
beforeAll(async () => {
  fake = await createOpenAIFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const ask = (): CallModelInput => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Take notes' }], apiKey: 'sk', stream: { executionId: 'ex-1', blockId: 'agent', seqStart: 4 } });
/** A streamed answer (an event every 30 ms) whose connection drops after its `events`-th SSE event (the role event first). */
const cutAfter = (events: number) => ({
  content: ANSWER,
  sseIntervalMs: 30,
  onSseEvent: (i: number) => {
    if (i === events - 1) throw new Error('connection cut');
  },
});

/** One try of the call as Temporal runs it: the same workflow run and activity id every time. */
async function attempt(deps: ReturnType<typeof testModelDeps>, n: number, heartbeatDetails?: unknown): Promise<{ ok: boolean; beats: unknown[] }> {
  const env = new MockActivityEnvironment({ attempt: n, activityId: '7', workflowExecution: { workflowId: 'run-1', runId: 'r-1' }, heartbeatDetails });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  const activities = createModelActivities(deps);
  const ok = await env.run(() => activities.callModel(ask())).then(() => true, () => false);
  return { ok, beats };
}

/** The text a reader of the chunks shows: pieces in order, a restart voiding what came from its `fromSeq`. */
function shown(chunks: RunStreamChunk[]): string {
  let kept: RunStreamChunk[] = [];
  for (const c of chunks) {
    if (c.restart) kept = kept.filter((k) => k.seq < (c.restart?.fromSeq ?? 0));
    kept.push(c);
  }
  return kept.map((c) => c.chunk).join('');
}

function increasing(chunks: RunStreamChunk[]): boolean {
  return chunks.every((c, i) => i === 0 || c.seq > (chunks[i - 1]?.seq ?? -1));
}

describe('a retried streamed model call', () => {
  it('does not send again what the failed try streamed: it goes on from there, numbering included', async () => {
    const deps = testModelDeps(compatibleEnv(fake.url));
    // One activities object per process: a local activity's retries run in the same worker.
    const activities = createModelActivities(deps);
    const run = (n: number) => new MockActivityEnvironment({ attempt: n, activityId: '7', workflowExecution: { workflowId: 'run-1', runId: 'r-1' } }).run(() => activities.callModel(ask()));
    fake.reply(cutAfter(5));
    await expect(run(1)).rejects.toThrow();
    const firstTry = deps.chunks.map((c) => c.chunk).join('');
    expect(firstTry.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(firstTry) && firstTry !== ANSWER).toBe(true);
    fake.reply({ content: ANSWER });
    const out = (await run(2)) as CallModelOutput;
    expect(fake.chatRequests()).toHaveLength(2);
    expect(deps.chunks.map((c) => c.chunk).join('')).toBe(ANSWER);
    expect(deps.chunks.some((c) => c.restart)).toBe(false);
    expect(deps.chunks[0]?.seq).toBe(4);
    expect(increasing(deps.chunks)).toBe(true);
    expect(out.chunks).toBe(deps.chunks.length);
  });

  it('a retry that answers differently marks a restart from the call’s first chunk, and the reader shows the new answer only', async () => {
    const deps = testModelDeps(compatibleEnv(fake.url));
    const activities = createModelActivities(deps);
    const run = (n: number) => new MockActivityEnvironment({ attempt: n, activityId: '7', workflowExecution: { workflowId: 'run-1', runId: 'r-1' } }).run(() => activities.callModel(ask()));
    fake.reply(cutAfter(5), { content: 'The list is empty.' });
    await expect(run(1)).rejects.toThrow();
    expect(deps.chunks.map((c) => c.chunk).join('')).toMatch(/^The notes /);
    await run(2);
    const restart = deps.chunks.find((c) => c.restart);
    // 'The ' repeats what was sent (nothing goes out); 'list ' differs: the restart carries the new text so far.
    expect(restart).toMatchObject({ restart: { fromSeq: 4 }, chunk: 'The list ' });
    expect(shown(deps.chunks)).toBe('The list is empty.');
    expect(increasing(deps.chunks)).toBe(true);
    // A retry whose answer stops short of what was sent also replaces it.
    const short = testModelDeps(compatibleEnv(fake.url));
    const shortActs = createModelActivities(short);
    const runShort = (n: number) => new MockActivityEnvironment({ attempt: n, activityId: '8', workflowExecution: { workflowId: 'run-1', runId: 'r-1' } }).run(() => shortActs.callModel(ask()));
    fake.reply(cutAfter(5), { content: 'The' });
    await expect(runShort(1)).rejects.toThrow();
    await runShort(2);
    expect(shown(short.chunks)).toBe('The');
  });

  it('on another worker the retry reads what was sent from the heartbeat the failed try sent with its failure', async () => {
    const deps = testModelDeps(compatibleEnv(fake.url));
    fake.reply(cutAfter(5), { content: ANSWER });
    const first = await attempt(deps, 1);
    expect(first.ok).toBe(false);
    const sent = deps.chunks.length;
    expect(sent).toBeGreaterThan(0);
    const last = first.beats.at(-1);
    expect(last).toEqual({ text: deps.chunks.map((c) => c.chunk).join(''), nextSeq: 4 + sent, states: [] });
    // A fresh activities object: nothing in memory, only the heartbeat details Temporal hands the retry.
    const second = await attempt(deps, 2, last);
    expect(second.ok).toBe(true);
    expect(deps.chunks.map((c) => c.chunk).join('')).toBe(ANSWER);
    expect(increasing(deps.chunks)).toBe(true);
  });

  it('a retry that cannot know what was sent numbers above it and marks a restart', async () => {
    const deps = testModelDeps(compatibleEnv(fake.url));
    fake.reply({ content: ANSWER });
    expect((await attempt(deps, 3)).ok).toBe(true);
    expect(deps.chunks[0]).toMatchObject({ seq: 4 + 3 * RETRY_SEQ_GAP, restart: { fromSeq: 4 } });
    expect(shown(deps.chunks)).toBe(ANSWER);
    expect(increasing(deps.chunks)).toBe(true);
  });

  it('tries the workflow makes itself (an activity each, one callId) go on from what the earlier try streamed, as Temporal\'s retries do', async () => {
    const deps = testModelDeps(compatibleEnv(fake.url));
    const activities = createModelActivities(deps);
    // Each try is a new activity (its own id, Temporal's attempt 1); the workflow numbers the tries.
    const run = (n: number) =>
      new MockActivityEnvironment({ attempt: 1, activityId: String(10 + n), workflowExecution: { workflowId: 'run-1', runId: 'r-1' } }).run(() =>
        activities.callModel({ ...ask(), stream: { executionId: 'ex-1', blockId: 'agent', seqStart: 4, callId: 'call-1', attempt: n } }),
      );
    fake.reply(cutAfter(5), { content: ANSWER });
    await expect(run(1)).rejects.toThrow();
    expect(deps.chunks.length).toBeGreaterThan(0);
    await run(2);
    expect(deps.chunks.map((c) => c.chunk).join('')).toBe(ANSWER);
    expect(deps.chunks.some((c) => c.restart)).toBe(false);
    expect(increasing(deps.chunks)).toBe(true);
    // A later try on a worker that knows nothing of the earlier ones numbers above them and marks a restart.
    const other = testModelDeps(compatibleEnv(fake.url));
    fake.reply({ content: ANSWER });
    await new MockActivityEnvironment({ attempt: 1, activityId: '20', workflowExecution: { workflowId: 'run-1', runId: 'r-1' } }).run(() =>
      createModelActivities(other).callModel({ ...ask(), stream: { executionId: 'ex-1', blockId: 'agent', seqStart: 4, callId: 'call-1', attempt: 3 } }),
    );
    expect(other.chunks[0]).toMatchObject({ seq: 4 + 3 * RETRY_SEQ_GAP, restart: { fromSeq: 4 } });
  });
});
