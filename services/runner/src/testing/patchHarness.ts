import type { History } from '@temporalio/common/lib/proto-utils.js';
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createEngineHarness, type EngineHarness } from './engineHarness.js';
import { memoryActivities } from './patchStub.js';

/**
 * For a file testing a patch, made before its tests and closed after them: today's engine harness
 * (`h()`, reset before each test), and `historyBefore`, which serves a second harness's queue (it has no
 * workflow worker of its own) with `bundle` — the code before the patch — while `run` starts a run
 * there and answers its history.
 */
export function patchHarnesses(opts: { keepAside?: boolean } = {}): {
  h(): EngineHarness;
  historyBefore(bundle: WorkflowBundleWithSourceMap, run: (before: EngineHarness) => Promise<History>): Promise<History>;
} {
  let today: EngineHarness | undefined;
  let before: EngineHarness | undefined;
  let native: NativeConnection | undefined;
  beforeAll(async () => {
    today = await createEngineHarness(opts);
    before = await createEngineHarness({ ...opts, workflowWorker: false });
    native = await NativeConnection.connect({ address: today.temporalAddress });
  });
  afterAll(async () => {
    await today?.close();
    await before?.close();
    await native?.close();
  });
  beforeEach(() => today?.reset());
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the patch harnesses are made before the tests (beforeAll)');
    return value;
  };
  return {
    h: () => made(today),
    async historyBefore(bundle, run) {
      const old = await Worker.create({ connection: made(native), taskQueue: made(before).queue, workflowBundle: bundle, activities: memoryActivities({}).activities });
      return old.runUntil(() => run(made(before)));
    },
  };
}
