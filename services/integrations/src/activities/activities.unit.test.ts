import { ApplicationFailure } from '@temporalio/common';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';
import { createLogger } from '@weft/platform';
import { SandboxPool } from '../function/sandbox.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
import { TransientToolError } from '../tools/runtime/errors.js';
import { createActivities, type OutputStore } from './index.js';

const sandbox = new SandboxPool({ size: 1 });
afterAll(() => sandbox.close());

const timing = { startTime: '', endTime: '', duration: 0 };
/** A tool executor answering `output` for every call, recording the inputs it saw. */
function fakeTools(output: unknown, success = true): ToolExecutor & { seen: ExecuteToolInput[] } {
  const seen: ExecuteToolInput[] = [];
  return {
    seen,
    execute(input) {
      seen.push(input);
      return Promise.resolve({ success, output, timing, ...(success ? {} : { error: 'no' }) } as ToolResult);
    },
  } as ToolExecutor & { seen: ExecuteToolInput[] };
}

/** A store that keeps what it is given (or fails, when told). */
function fakeStore(fail = false): OutputStore & { kept: Array<{ executionId: string; json: string }> } {
  const kept: Array<{ executionId: string; json: string }> = [];
  return {
    kept,
    logger: createLogger('test', 'silent'),
    storeValue(executionId, json) {
      if (fail) return Promise.reject(new Error('runner unavailable'));
      kept.push({ executionId, json });
      return Promise.resolve({ $blobRef: `${executionId}/v${kept.length}`, bytes: Buffer.byteLength(json) });
    },
  };
}

const ask = { executionId: 'exec-1', overLength: 1_000 };
const fn = (code: string, storeLargeOutput?: typeof ask) => ({ code, params: {}, envVars: {}, timeoutMs: 5_000, storeLargeOutput });

describe('the integrations activities keep large outputs aside when the run asks', () => {
  it('answers a function output longer than asked as a reference, and shorter ones or unasked ones whole', async () => {
    const store = fakeStore();
    const acts = createActivities({ sandbox, tools: fakeTools(null) }, store);
    const big = await acts.executeFunction(fn('return "x".repeat(2000)', ask));
    expect(big).toMatchObject({ success: true, output: { $blobRef: 'exec-1/v1', bytes: expect.any(Number) } });
    expect(JSON.parse(store.kept[0]?.json ?? 'null')).toEqual({ result: 'x'.repeat(2000), stdout: '' });
    expect((await acts.executeFunction(fn('return "x".repeat(10)', ask))).output).toEqual({ result: 'x'.repeat(10), stdout: '' });
    expect((await acts.executeFunction(fn('return "x".repeat(2000)'))).output).toEqual({ result: 'x'.repeat(2000), stdout: '' });
    // A failure keeps its output (its error and debug go with it).
    const failed = await acts.executeFunction(fn('console.log("y".repeat(2000)); throw new Error("boom")', ask));
    expect(failed.success).toBe(false);
    expect(store.kept).toHaveLength(1);
  });

  it('does the same for a tool’s output, and does not hand the request on to the tool', async () => {
    const store = fakeStore();
    const tools = fakeTools({ body: 'z'.repeat(5_000) });
    const acts = createActivities({ sandbox, tools }, store);
    const res = await acts.executeTool({ toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, storeLargeOutput: ask });
    expect(res.output).toEqual({ $blobRef: 'exec-1/v1', bytes: 5_000 + '{"body":""}'.length });
    expect(tools.seen[0]).not.toHaveProperty('storeLargeOutput');
    const failing = createActivities({ sandbox, tools: fakeTools({ body: 'z'.repeat(5_000) }, false) }, store);
    expect((await failing.executeTool({ toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, storeLargeOutput: ask })).output).toEqual({ body: 'z'.repeat(5_000) });
  });

  it('measures outputs in UTF-8 bytes: 400 CJK characters (1,200 bytes, 400 units) are over 1,000; 300 (900 bytes) stay whole', async () => {
    const store = fakeStore();
    const tools = fakeTools({ body: '字'.repeat(400) });
    const acts = createActivities({ sandbox, tools }, store);
    const res = await acts.executeTool({ toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, storeLargeOutput: ask });
    expect(JSON.stringify({ body: '字'.repeat(400) }).length).toBeLessThan(ask.overLength);
    expect(res.output).toEqual({ $blobRef: 'exec-1/v1', bytes: Buffer.byteLength(JSON.stringify({ body: '字'.repeat(400) })) });
    expect(JSON.parse(store.kept[0]?.json ?? 'null')).toEqual({ body: '字'.repeat(400) });
    const small = createActivities({ sandbox, tools: fakeTools({ body: '字'.repeat(300) }) }, store);
    expect((await small.executeTool({ toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, storeLargeOutput: ask })).output).toEqual({ body: '字'.repeat(300) });
    expect(store.kept).toHaveLength(1);
  });

  it('answers the output whole when the store fails: the run stores it itself', async () => {
    const acts = createActivities({ sandbox, tools: fakeTools(null) }, fakeStore(true));
    expect((await acts.executeFunction(fn('return "x".repeat(2000)', ask))).output).toEqual({ result: 'x'.repeat(2000), stdout: '' });
  });
});

/** A tool executor that fails transiently (throw mode), with what the call answered when given. */
function failingTools(output?: unknown): ToolExecutor {
  return { execute: () => Promise.reject(new TransientToolError('HTTP error 503: Service Unavailable', 503, output)) };
}

/** The failure the activity throws. */
async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure)) throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
  return err;
}

describe('a transient tool failure', () => {
  const toolCall = (storeLargeOutput?: typeof ask) => ({ toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, ...(storeLargeOutput ? { storeLargeOutput } : {}) });
  const answer = { data: { retry: 'later' }, status: 503, headers: { 'retry-after': '2' } };

  it('is thrown retryable with the answer (data, status, headers) in its details, so the run keeps the last try’s', async () => {
    const failure = await failureOf(createActivities({ sandbox, tools: failingTools(answer) }, fakeStore()).executeTool(toolCall(ask)));
    expect(failure).toMatchObject({ message: 'HTTP error 503: Service Unavailable', type: 'TransientToolError', nonRetryable: false });
    expect(failure.details).toEqual([{ output: answer }]);
  });

  it('keeps a long answer’s data aside as a reference (bounded as outputs are); whole when not asked or the store fails', async () => {
    const long = { ...answer, data: 'z'.repeat(5_000) };
    const store = fakeStore();
    const failure = await failureOf(createActivities({ sandbox, tools: failingTools(long) }, store).executeTool(toolCall(ask)));
    expect(failure.details).toEqual([{ output: { data: { $blobRef: 'exec-1/v1', bytes: 5_002 }, status: 503, headers: { 'retry-after': '2' } } }]);
    expect(JSON.parse(store.kept[0]?.json ?? 'null')).toBe('z'.repeat(5_000));
    expect((await failureOf(createActivities({ sandbox, tools: failingTools(long) }, store).executeTool(toolCall()))).details).toEqual([{ output: long }]);
    expect((await failureOf(createActivities({ sandbox, tools: failingTools(long) }, fakeStore(true)).executeTool(toolCall(ask)))).details).toEqual([{ output: long }]);
  });

  it('without an answer (a network error, a timeout) carries no details', async () => {
    const failure = await failureOf(createActivities({ sandbox, tools: failingTools() }, fakeStore()).executeTool(toolCall(ask)));
    expect(failure).toMatchObject({ message: 'HTTP error 503: Service Unavailable', type: 'TransientToolError', nonRetryable: false });
    expect(failure.details ?? []).toEqual([]);
  });
});
