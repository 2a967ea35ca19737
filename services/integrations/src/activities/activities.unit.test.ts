import { afterAll, describe, expect, it } from 'vitest';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';
import { createLogger } from '@weft/platform';
import { SandboxPool } from '../function/sandbox.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
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

  it('answers the output whole when the store fails: the run stores it itself', async () => {
    const acts = createActivities({ sandbox, tools: fakeTools(null) }, fakeStore(true));
    expect((await acts.executeFunction(fn('return "x".repeat(2000)', ask))).output).toEqual({ result: 'x'.repeat(2000), stdout: '' });
  });
});
