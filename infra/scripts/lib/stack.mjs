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
 * addresses; without `randomPorts` the services listen where `<SERVICE>_ADDR` and `PORT` (in `env`,
 * then the process environment; `port` before both) say, else on the configuration's defaults
 * (`stackAddresses`). With `restart` (the
 * stack `npm start` runs) a process that crashes after start-up is started again (`supervise`);
 * tests leave it off, so a crash fails them instead of being hidden. With random ports a
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

/**
 * One process of the stack, kept running: `spawn()` starts it; once `live()` has been called (the
 * stack answered healthy) and `restart` is on, a process that exits on its own — a crash, an
 * out-of-memory kill — is started again, at most `maxRestarts` times within `windowMs` (a process
 * that keeps dying is left down, with a message). Temporal takes the runs of a crashed worker up
 * again once its replacement polls. `stop()` ends it for good: SIGTERM, then SIGKILL after 10 s.
 */
export function supervise({ name, spawn: spawnOne, log = console.log, restart = false, maxRestarts = 5, windowMs = 60_000 }) {
  let child;
  let stopping = false;
  let isLive = false;
  const restarts = [];
  const start = () => {
    const current = spawnOne();
    child = current;
    current.on('exit', (code, signal) => {
      if (stopping || current !== child) return;
      log(`${name} exited (${signal ?? code})`);
      if (!restart || !isLive) return;
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0] > windowMs) restarts.shift();
      if (restarts.length >= maxRestarts) {
        log(`${name} exited ${maxRestarts + 1} times within ${windowMs / 1000} s; it is not started again`);
        return;
      }
      restarts.push(now);
      log(`starting ${name} again`);
      start();
    });
  };
  start();
  return {
    name,
    get child() {
      return child;
    },
    live() {
      isLive = true;
    },
    stop() {
      stopping = true;
      const current = child;
      return new Promise((resolve) => {
        if (current.exitCode !== null || current.signalCode !== null) return resolve();
        const kill = setTimeout(() => current.kill('SIGKILL'), 10_000);
        current.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        current.kill('SIGTERM');
      });
    },
  };
}

/** A port number as a variable gives it (digits, 1–65535), else undefined. */
function portNumber(text) {
  const n = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return n >= 1 && n <= 65535 ? n : undefined;
}

/**
 * Where the stack's processes listen. With `randomPorts` (tests, benches) every service and the
 * gateway get a free port on 127.0.0.1, whatever `env` says. Without (`npm start`) each
 * `<SERVICE>_ADDR` and `PORT` set in `env` is used as given (README: where each service binds and is
 * dialled), unset ones default to 127.0.0.1:50051 … 50055 and 3000, so a second stack can run beside
 * the first on other ports. A value that is no `host:port`, or a port two of them share (the second
 * process could not bind), is refused naming the variables.
 */
export async function stackAddresses({ env = {}, randomPorts = false }) {
  const addresses = {};
  const ports = new Map();
  const take = (name, port) => {
    if (ports.has(port)) throw new Error(`${ports.get(port)} and ${name} both use port ${port}; give each process its own port`);
    ports.set(port, name);
  };
  for (const [i, s] of SERVICES.entries()) {
    const name = `${s.toUpperCase()}_ADDR`;
    const given = randomPorts ? '' : (env[name] ?? '').trim();
    const address = given || `127.0.0.1:${randomPorts ? await freePort() : 50051 + i}`;
    const match = /^(.+):([^:\]]*)$/.exec(address);
    const port = match ? portNumber(match[2]) : undefined;
    if (port === undefined) throw new Error(`${name} must be host:port with a port from 1 to 65535 (got "${address}")`);
    take(name, port);
    addresses[name] = address;
  }
  const givenPort = randomPorts ? '' : String(env.PORT ?? '').trim();
  const port = givenPort ? portNumber(givenPort) : randomPorts ? await freePort() : 3000;
  if (port === undefined) throw new Error(`PORT must be a port number from 1 to 65535 (got "${givenPort}")`);
  take('PORT', port);
  return { addresses, port };
}

async function startOnce({ root, env = {}, port, randomPorts = false, log = console.log, quiet = false, restart = false }) {
  const given = { ...process.env, ...env, ...(port === undefined ? {} : { PORT: String(port) }) };
  const { addresses, port: gatewayPort } = await stackAddresses({ env: given, randomPorts });
  const childEnv = { ...given, ...addresses, PORT: String(gatewayPort) };
  // One process's bind address (containers): passed to all five services, they would all bind it.
  delete childEnv.GRPC_LISTEN;
  const children = [];
  // WEFT_NODE_ARGS: extra node flags for every service (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = (process.env.WEFT_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const add = (name, dir) => {
    const spawnOne = () =>
      spawn(process.execPath, ['--enable-source-maps', ...nodeArgs, path.join(root, dir, 'dist/main.js')], {
        env: childEnv,
        stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
      });
    children.push(supervise({ name, spawn: spawnOne, log, restart }));
  };
  for (const s of SERVICES) add(s, `services/${s}`);
  add('gateway', 'gateway');
  const url = `http://localhost:${gatewayPort}`;
  const stop = async () => {
    await Promise.all(children.map((c) => c.stop()));
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
      if (res.status === 200) {
        for (const c of children) c.live();
        return { url, port: gatewayPort, addresses, stop };
      }
      last = JSON.stringify(body);
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`Weft did not become healthy in time: ${last}`);
}
