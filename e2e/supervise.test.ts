import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { supervise } from '../infra/scripts/lib/stack.mjs';

/** A stand-in service: exits with code 3 when told to (a crash), else runs until signalled. */
const crashable = (): ChildProcess =>
  spawn(process.execPath, ['-e', "process.stdin.on('data', () => process.exit(3)); setInterval(() => {}, 1000)"], { stdio: ['pipe', 'ignore', 'ignore'] });

const until = async (check: () => boolean, what: string) => {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const crash = (child: ChildProcess) => child.stdin?.write('x');
const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describe('the stack keeps its processes running (npm start)', () => {
  it('starts a process that crashed after start-up again, and leaves one that keeps crashing down', async () => {
    const logs: string[] = [];
    const s = supervise({ name: 'runner', spawn: crashable, log: (m) => logs.push(m), restart: true, maxRestarts: 2, windowMs: 60_000 });
    s.live();
    const pids = [s.child.pid];
    for (let i = 0; i < 2; i++) {
      const before = s.child;
      crash(before);
      await until(() => s.child !== before && s.child.pid !== undefined, 'the process to be started again');
      pids.push(s.child.pid);
    }
    expect(new Set(pids).size).toBe(3);
    expect(running(s.child)).toBe(true);
    const last = s.child;
    crash(last);
    await until(() => !running(last), 'the third crash');
    await until(() => logs.some((m) => m.includes('not started again')), 'the give-up message');
    expect(s.child).toBe(last);
    expect(logs).toEqual(['runner exited (3)', 'starting runner again', 'runner exited (3)', 'starting runner again', 'runner exited (3)', 'runner exited 3 times within 60 s; it is not started again']);
  });

  it('does not restart during start-up, without restart, or after stop', async () => {
    const logs: string[] = [];
    const starting = supervise({ name: 'editor', spawn: crashable, log: (m) => logs.push(m), restart: true });
    const first = starting.child;
    crash(first);
    await until(() => !running(first), 'the crash during start-up');
    await until(() => logs.length === 1, 'the exit message');
    expect(starting.child).toBe(first);

    const plain = supervise({ name: 'gateway', spawn: crashable, log: (m) => logs.push(m) });
    plain.live();
    const only = plain.child;
    crash(only);
    await until(() => !running(only), 'the crash without restart');
    await until(() => logs.length === 2, 'the exit message');
    expect(plain.child).toBe(only);

    const stopped = supervise({ name: 'copilot', spawn: crashable, log: (m) => logs.push(m), restart: true });
    stopped.live();
    const child = stopped.child;
    await stopped.stop();
    expect(running(child)).toBe(false);
    expect(stopped.child).toBe(child);
    expect(logs).toEqual(['editor exited (3)', 'gateway exited (3)']);
  });
});
