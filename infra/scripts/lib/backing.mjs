// Brings up (or finds) the backing services: PostgreSQL, NATS with JetStream and the Temporal dev server.
// Uses DATABASE_URL, NATS_URL and TEMPORAL_ADDRESS when set; otherwise the local ones, starting them if down.
import { execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const TEMPORAL_VERSION = 'v1.5.1';
const TEMPORAL_MODULE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_VERSION}`;

/**
 * Flags every dev server Weft starts gets (`npm start`, `npm test`, the benches), measured in
 * docs/benchmarks.md ("What held Temporal itself"):
 * - eager activity execution: an activity scheduled on the workflow's own task queue (the agent
 *   tool loop's tool calls on the integrations worker) comes back in the workflow task's answer;
 * - the history service reads each new task (an activity to dispatch, a workflow task after an
 *   activity) from its transfer queue at most `history.transferProcessorMaxPollRPS` times a second,
 *   20 by default, and the dev server has one history shard: a chain of activities waited ~35 ms
 *   for that read at every step (~50 ms per activity). 1000 reads a second takes the wait away.
 */
export const TEMPORAL_DEV_SERVER_FLAGS = [
  '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
  ...['transfer', 'visibility', 'timer'].flatMap((queue) => ['--dynamic-config-value', `history.${queue}ProcessorMaxPollRPS=1000`]),
];

/**
 * SQLite pragmas of a dev server that keeps its state in a file. The default (a rollback journal,
 * synchronous=FULL) writes and deletes a journal and syncs four times per transaction, and every
 * write locks the whole file against the server's readers. In WAL mode a commit appends to the log
 * and readers go on; synchronous=NORMAL syncs the log at checkpoints only. A process crash (the dev
 * server or a worker killed) loses nothing: a commit is in the OS's page cache the moment it returns.
 * An OS crash or power loss can roll back the last commits before a checkpoint (the file stays
 * consistent): acceptable for a development server, whose runs can be started again.
 */
export const TEMPORAL_DEV_SQLITE_PRAGMAS = ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'];

/** Where the Temporal CLI is kept between runs: outside the repo, shared by every clone. */
export function temporalBinaryPath() {
  if (process.env.WEFT_TEMPORAL_BIN) return process.env.WEFT_TEMPORAL_BIN;
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  return path.join(cache, 'weft', `temporal-${TEMPORAL_VERSION}`, 'temporal');
}

export class BackingServiceError extends Error {
  constructor(service, address, fix, cause) {
    super(`${service} is not reachable at ${address}. ${fix}${cause ? ` (${cause})` : ''}`);
  }
}

/** Resolves once host:port accepts a TCP connection, or false after `timeoutMs`. */
export async function waitForPort(host, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(host, port)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function hostPort(address, defaultPort) {
  const u = new URL(address.includes('://') ? address : `tcp://${address}`);
  return { host: u.hostname, port: Number(u.port || defaultPort) };
}

const postgresStart = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";
const natsStart = 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log';

async function ensureLocal({ name, address, defaultPort, startCommand, canStart, log }) {
  const { host, port } = hostPort(address, defaultPort);
  if (await waitForPort(host, port, 1000)) return;
  if (!canStart) throw new BackingServiceError(name, `${host}:${port}`, 'Check the address in the environment and that the server runs.');
  log(`${name} is down at ${host}:${port}; starting it: ${startCommand}`);
  try {
    execSync(startCommand, { stdio: 'inherit', shell: '/bin/bash' });
  } catch (err) {
    throw new BackingServiceError(name, `${host}:${port}`, `Start it with: ${startCommand}`, err.message);
  }
  if (!(await waitForPort(host, port, 20_000))) {
    throw new BackingServiceError(name, `${host}:${port}`, `Start it with: ${startCommand}`);
  }
}

/** Builds the Temporal CLI once with `go install` into the cache path, unless it is already there. */
export function ensureTemporalBinary(log) {
  const bin = temporalBinaryPath();
  if (existsSync(bin)) return bin;
  const dir = path.dirname(bin);
  mkdirSync(dir, { recursive: true });
  const cmd = `GOBIN=${dir} go install ${TEMPORAL_MODULE}`;
  log(`building the Temporal dev server once (${cmd}); this takes a few minutes`);
  try {
    execFileSync('go', ['install', TEMPORAL_MODULE], { env: { ...process.env, GOBIN: dir }, stdio: 'inherit' });
  } catch (err) {
    throw new BackingServiceError('Temporal', '(not built)', `Build it with: ${cmd}`, err.message);
  }
  return bin;
}

function temporalHealthy(bin, address) {
  try {
    execFileSync(bin, ['operator', 'cluster', 'health', '--address', address], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function ensureTemporal({ root, address, explicit, log, children }) {
  const { host, port } = hostPort(address, 7233);
  if (await waitForPort(host, port, 500)) return;
  if (explicit) throw new BackingServiceError('Temporal', address, 'Check TEMPORAL_ADDRESS and that the Temporal frontend runs.');
  const bin = ensureTemporalBinary(log);
  const dataDir = path.join(root, '.data');
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(dataDir, `temporal-${port}.log`);
  const args = ['server', 'start-dev', '--headless', '--ip', host, '--port', String(port), '--db-filename', path.join(dataDir, `temporal-${port}.db`), ...TEMPORAL_DEV_SQLITE_PRAGMAS, '--log-level', 'error', ...TEMPORAL_DEV_SERVER_FLAGS];
  log(`starting Temporal: ${bin} ${args.join(' ')}`);
  const child = spawn(bin, args, { stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')], detached: false });
  children.push(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if ((await canConnect(host, port)) && temporalHealthy(bin, address)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new BackingServiceError('Temporal', address, `Start it with: ${bin} ${args.join(' ')} (log: ${logFile})`);
}

/**
 * Makes sure Postgres, NATS and Temporal answer. Returns the environment the services need and a
 * stop() that ends whatever this call started.
 */
export async function ensureBackingServices({ root, log = console.log, temporalPort = 7233 }) {
  const children = [];
  const env = {
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/weft',
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? `127.0.0.1:${temporalPort}`,
  };
  const pgLocal = !process.env.DATABASE_URL && existsSync('/etc/postgresql') && readdirSync('/etc/postgresql').length > 0;
  await ensureLocal({ name: 'PostgreSQL', address: env.DATABASE_URL, defaultPort: 5432, startCommand: postgresStart, canStart: pgLocal, log });
  const natsLocal = !process.env.NATS_URL && existsSync('/usr/sbin/nats-server');
  await ensureLocal({ name: 'NATS', address: env.NATS_URL, defaultPort: 4222, startCommand: natsStart, canStart: natsLocal, log });
  await ensureTemporal({ root, address: env.TEMPORAL_ADDRESS, explicit: Boolean(process.env.TEMPORAL_ADDRESS), log, children });
  return {
    env,
    async stop() {
      for (const c of children) c.kill('SIGTERM');
    },
  };
}
