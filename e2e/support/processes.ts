import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkGrpcHealth } from '@weft/platform';
import { freePort } from '../../infra/scripts/lib/stack.mjs';

/** A process a test started; `stop` kills it (SIGKILL for a crash) and waits for its exit. */
export interface TestProcess {
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Starts `script` with node and `env` on top of this process's; stdout is the test's unless piped (to be read). */
export function launch(script: string, env: Record<string, string>, { stdout = 'inherit' }: { stdout?: 'inherit' | 'pipe' } = {}): TestProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', script], { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'inherit'] });
  return {
    child,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/**
 * Runs `start` on a port found free. The port can be taken by another process (a connection's local
 * port) before the child binds it, which then exits: when `portLost(err)` says so, it starts again on
 * another port, three tries, as the stack's start does; the last error is thrown as it is.
 */
export async function retryOnFreePort<T>(start: (port: number) => Promise<T>, portLost: (err: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (err) {
      if (attempt >= 3 || !portLost(err)) throw err;
    }
  }
}

/** A service that exited before it answered healthy. */
class ServiceExited extends Error {}

/** Starts a service's built entry (services/<name>/dist/main.js) with `env`; answers once its gRPC server is healthy at `addr`. */
export async function startService(name: 'runner' | 'integrations', env: Record<string, string>, addr: string): Promise<TestProcess> {
  const service = launch(join(root, `services/${name}/dist/main.js`), env);
  // 120 s: a first start bundles the service's workflow code, slow on a loaded machine.
  for (const until = Date.now() + 120_000; !(await checkGrpcHealth(addr)); ) {
    if (service.child.exitCode !== null) throw new ServiceExited(`${name} exited with ${service.child.exitCode}`);
    if (Date.now() > until) {
      await service.stop('SIGKILL');
      throw new Error(`${name} did not become healthy within 120 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return service;
}

/**
 * Starts a service as `startService` does on a port found free (its `<NAME>_ADDR` set to it), again on
 * another port when it exits before it answers (`retryOnFreePort`). Answers the process and its address.
 */
export function startServiceOnFreePort(name: 'runner' | 'integrations', env: Record<string, string>): Promise<{ service: TestProcess; addr: string }> {
  return retryOnFreePort(
    async (port) => {
      const addr = `127.0.0.1:${port}`;
      return { service: await startService(name, { ...env, [`${name.toUpperCase()}_ADDR`]: addr }, addr), addr };
    },
    (err) => err instanceof ServiceExited,
  );
}
