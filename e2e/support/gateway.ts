import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { retryOnFreePort } from './processes.js';

/** The second gateway's child exited before it answered (its port was taken): started again on another. */
class GatewayExited extends Error {}

/**
 * A second gateway beside the stack's, with the same services and `env` on top; answers its URL once
 * it answers /api/health (with any status) and a stop function. The port is found free and then
 * bound by the child: should another process take it in between (the child exits), it starts again
 * on another port (three tries), as the stack's start does.
 */
export async function startSecondGateway(env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const start = async (port: number): Promise<{ url: string; stop: () => void }> => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('../../gateway/dist/main.js', import.meta.url))], {
      env: { ...process.env, ...inject('weftEnv'), PORT: String(port), ...env },
      stdio: 'ignore',
    });
    let exited = false;
    child.once('exit', () => (exited = true));
    const url = `http://127.0.0.1:${port}`;
    const stop = () => void child.kill('SIGTERM');
    for (let i = 0; i < 600 && !exited; i++) {
      // Only while the child lives: an answer on a port it failed to bind would be another process's.
      if ((await fetch(`${url}/api/health`).then(() => true, () => false)) && !exited) return { url, stop };
      await new Promise((r) => setTimeout(r, 100));
    }
    stop();
    throw exited ? new GatewayExited('the second gateway exited while starting') : new Error('the second gateway did not answer within 60 s');
  };
  return retryOnFreePort(start, (err) => err instanceof GatewayExited).catch((err: unknown) => {
    throw err instanceof GatewayExited ? new Error('the second gateway exited while starting, three times') : err;
  });
}
