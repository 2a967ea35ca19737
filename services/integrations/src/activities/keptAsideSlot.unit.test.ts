import { MockActivityEnvironment } from '@temporalio/testing';
import type { Info } from '@temporalio/activity';
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

/** A store that keeps values as the runner does: `<executionId>/<key>` replaced on a second store, a new slot without a key. */
function slotStore(): OutputStore & { slots: Map<string, string> } {
  const slots = new Map<string, string>();
  return {
    slots,
    logger: createLogger('test', 'silent'),
    storeValue(executionId, json, key) {
      const ref = `${executionId}/${key ?? `v${slots.size + 1}`}`;
      slots.set(ref, json);
      return Promise.resolve({ $blobRef: ref, bytes: Buffer.byteLength(json) });
    },
  };
}

const ask = { executionId: 'exec-1', overLength: 1_000 };
const call: ExecuteToolInput & { storeLargeOutput: typeof ask } = { toolId: 'http_request', params: {}, context: { workspaceId: 'w', workflowId: 'f' }, storeLargeOutput: ask };
const timing = { startTime: '', endTime: '', duration: 0 };

/** A tool answering 503 with `body` (its try number in it) for each try, then, when `thenOk`, a large success. */
function flakyTools(failures: number, thenOk?: unknown): ToolExecutor {
  let tries = 0;
  return {
    execute() {
      tries++;
      if (tries > failures) return Promise.resolve({ success: true, output: thenOk, timing } as ToolResult);
      return Promise.reject(new TransientToolError('HTTP error 503: Service Unavailable', 503, { data: `try ${tries} `.padEnd(50_000, 'z'), status: 503, headers: {} }));
    },
  };
}

/** One try of the activity as Temporal runs it: `info` names its workflow run and activity. */
async function run<T>(fn: () => Promise<T>, info: Partial<Info>): Promise<T | ApplicationFailure> {
  const env = new MockActivityEnvironment({ activityId: '3', workflowExecution: { workflowId: 'run-1', runId: 'r-1' }, ...info });
  return env.run<[], T, () => Promise<T>>(fn).catch((err: unknown) => {
    if (err instanceof ApplicationFailure) return err;
    throw err;
  });
}

/** The reference a failure's details carry for its answer's data. */
function dataRef(failure: unknown): string {
  if (!(failure instanceof ApplicationFailure)) throw new Error(`expected a failure, got ${JSON.stringify(failure)}`);
  const [details] = (failure.details ?? []) as Array<{ output: { data: { $blobRef: string } } }>;
  return details?.output.data.$blobRef ?? '';
}

describe('a large value kept aside by a call tried again', () => {
  it('takes one slot for every try of a failing 503 with a large body (the run’s tries are new activities): the last try’s data is the one kept', async () => {
    const store = slotStore();
    const acts = createActivities({ sandbox, tools: flakyTools(5) }, store);
    const asked = { ...call, storeLargeOutput: { ...ask, call: 1 } };
    const first = await run(() => acts.executeTool(asked), { activityId: '2', attempt: 1 });
    const second = await run(() => acts.executeTool(asked), { activityId: '3', attempt: 1 });
    expect(dataRef(first)).toMatch(/^exec-1\/[0-9a-f]{32}$/);
    expect(dataRef(second)).toBe(dataRef(first));
    expect(store.slots.size).toBe(1);
    expect(JSON.parse(store.slots.get(dataRef(second)) ?? 'null')).toMatch(/^try 2 z/);
    // Without the run's number of the call, the slot is the activity's: Temporal's own retries share it.
    const retried = await run(() => acts.executeTool(call), { activityId: '7', attempt: 1 });
    expect(dataRef(await run(() => acts.executeTool(call), { activityId: '7', attempt: 2 }))).toBe(dataRef(retried));
    expect(store.slots.size).toBe(2);
  });

  it('keeps apart what must not share a slot: another call, a child workflow’s call, and the output of a later successful try', async () => {
    const store = slotStore();
    const acts = createActivities({ sandbox, tools: flakyTools(3, { body: 'o'.repeat(5_000) }) }, store);
    const callNo = (n: number) => ({ ...call, storeLargeOutput: { ...ask, call: n } });
    const failed = dataRef(await run(() => acts.executeTool(callNo(1)), { activityId: '2' }));
    const other = dataRef(await run(() => acts.executeTool(callNo(2)), { activityId: '3' }));
    const child = dataRef(await run(() => acts.executeTool(callNo(1)), { activityId: '2', workflowExecution: { workflowId: 'run-1-child-1', runId: 'r-9' } }));
    const ok = await run(() => acts.executeTool(callNo(1)), { activityId: '4' });
    expect(new Set([failed, other, child]).size).toBe(3);
    expect(ok).toMatchObject({ success: true, output: { $blobRef: expect.stringMatching(/^exec-1\/[0-9a-f]{32}$/) } });
    expect(store.slots.size).toBe(4);
    // An output's slot is its try's: a try abandoned after a heartbeat timeout that answers late (or a
    // function tried again after its completion was lost) never replaces the output another try answered.
    const fn = () => acts.executeFunction({ code: 'return "x".repeat(2000)', params: {}, envVars: {}, timeoutMs: 5_000, storeLargeOutput: { ...ask, call: 5 } });
    const once = await run(fn, { activityId: '9' });
    const again = await run(fn, { activityId: '10' });
    expect(once).toMatchObject({ success: true, output: { $blobRef: expect.stringMatching(/^exec-1\//) } });
    expect(again).toMatchObject({ success: true, output: { $blobRef: expect.stringMatching(/^exec-1\//) } });
    expect((again as { output: { $blobRef: string } }).output.$blobRef).not.toBe((once as { output: { $blobRef: string } }).output.$blobRef);
    expect(store.slots.size).toBe(6);
  });
});
