// Starts every Weft process (five services and the gateway) as child processes and waits for health.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const SERVICES = ['registry', 'editor', 'runner', 'integrations', 'copilot'];

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Spawns the services and the gateway from their built `dist/`. `env` carries the backing-service
 * addresses; ports default to the configuration's when `randomPorts` is false. With random ports a
 * port found free can be taken by another process before a service binds it; the start is then
 * tried again on new ports (three tries).
 */
export async function startStack(opts) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (!opts.randomPorts || attempt >= 3 || !(err instanceof StartError)) throw err;
      (opts.log ?? console.log)(`${err.message}; trying again on other ports`);
    }
  }
}

/** A process of the stack exited while it was starting. */
class StartError extends Error {}

async function startOnce({ root, env = {}, port = 3000, randomPorts = false, log = console.log, quiet = false }) {
  const addresses = {};
  for (const [i, s] of SERVICES.entries()) {
    addresses[`${s.toUpperCase()}_ADDR`] = `127.0.0.1:${randomPorts ? await freePort() : 50051 + i}`;
  }
  const gatewayPort = randomPorts ? await freePort() : port;
  const childEnv = { ...process.env, ...env, ...addresses, PORT: String(gatewayPort) };
  const children = [];
  let stopping = false;
  // WEFT_NODE_ARGS: extra node flags for every service (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = (process.env.WEFT_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const spawnOne = (name, dir) => {
    const child = spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, path.join(root, dir, 'dist/main.js')], {
      env: childEnv,
      stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    });
    child.on('exit', (code, signal) => {
      if (!stopping) log(`${name} exited (${signal ?? code})`);
    });
    children.push({ name, child });
  };
  for (const s of SERVICES) spawnOne(s, `services/${s}`);
  spawnOne('gateway', 'gateway');
  const url = `http://localhost:${gatewayPort}`;
  const stop = async () => {
    stopping = true;
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  // Services bundle their Temporal workflow code on a first start, which on a loaded 2-core machine
  // can take minutes; WEFT_START_TIMEOUT_MS changes the limit.
  const deadline = Date.now() + (Number(process.env.WEFT_START_TIMEOUT_MS) || 360_000);
  let last = 'no answer';
  while (Date.now() < deadline) {
    const dead = children.find(({ child }) => child.exitCode !== null);
    if (dead) {
      await stop();
      throw new StartError(`${dead.name} exited during start-up (code ${dead.child.exitCode}); see its log above`);
    }
    try {
      const res = await fetch(`${url}/api/health`);
      const body = await res.json();
      if (res.status === 200) return { url, port: gatewayPort, addresses, stop };
      last = JSON.stringify(body);
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`Weft did not become healthy in time: ${last}`);
}
