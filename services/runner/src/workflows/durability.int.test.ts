import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, workflowBundle, type EngineHarness } from '../testing/engineHarness.js';

const S = { type: 'starter', name: 'Start' };
const script = fileURLToPath(new URL('../testing/workflowWorkerProcess.mjs', import.meta.url));

/** A workflow worker in its own process, on the harness's run queue. */
async function startWorker(h: EngineHarness, bundlePath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script, h.temporalAddress, h.queue, bundlePath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker process exited with ${code}: ${stderr}`)));
  });
  return child;
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('durability: the run-workflow worker killed with SIGKILL mid-run (real processes, real Temporal server)', () => {
  let h: EngineHarness;
  let dir: string;
  let bundlePath: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    h = await createEngineHarness({ workflowWorker: false });
    dir = mkdtempSync(join(tmpdir(), 'weft-durability-'));
    bundlePath = join(dir, 'workflows.js');
    writeFileSync(bundlePath, (await workflowBundle()).code);
  });
  afterAll(async () => {
    await Promise.all(children.map(killHard));
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('mid-loop and mid-parallel: a new worker finishes the run with the same output, and no finished activity runs again', async () => {
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Rounds', data: { loopType: 'for', count: 3 } },
        p: { type: 'parallel', name: 'Pair', parent: 'l', data: { parallelType: 'count', count: 2 } },
        body: { name: 'Work', parent: 'p', code: '// sleep:3000\nreturn <loop.index> * 10 + <parallel.index>' },
        after: { name: 'After', code: 'return <rounds.results>.map((r) => r.results.map((b) => b.result))' },
      },
      [['s', 'l'], ['l', 'p', 'loop-start-source'], ['p', 'body', 'parallel-start-source'], ['l', 'after', 'loop-end-source']],
    );
    const first = await startWorker(h, bundlePath);
    children.push(first);
    const handle = await h.start(state);
    // Kill the worker once the second round's branches have begun (mid-loop, mid-parallel, activities in flight).
    await expect.poll(() => h.rec.functionCalls.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    await killHard(first);
    const callsAtKill = h.rec.functionCalls.length;
    expect(callsAtKill).toBeLessThan(6);
    children.push(await startWorker(h, bundlePath));
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: [[0, 1], [10, 11], [20, 21]], stdout: '' });
    // Each body ran exactly once per (round, branch): nothing that finished ran again.
    const keys = h.rec.functionCalls
      .filter((c) => c.code.includes('sleep:3000'))
      .map((c) => `${String(c.params['<loop.index>'])}/${String(c.params['<parallel.index>'])}`)
      .sort();
    expect(keys).toEqual(['0/0', '0/1', '1/0', '1/1', '2/0', '2/1']);
  }, 120_000);
});
