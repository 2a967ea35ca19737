import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../../infra/scripts/lib/stack.mjs';

/**
 * A second gateway beside the stack's, with the same services and `env` on top; answers its URL once
 * it answers /api/health (with any status) and a stop function.
 */
export async function startSecondGateway(env: Record<string, string> = {}): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL('../../gateway/dist/main.js', import.meta.url))], {
    env: { ...process.env, ...inject('weftEnv'), PORT: String(port), ...env },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => void child.kill('SIGTERM');
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/api/health`).then(() => true, () => false)) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error('the second gateway did not answer within 60 s');
}
