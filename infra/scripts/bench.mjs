#!/usr/bin/env node
// `npm run bench`: brings up the backing services like `npm test`, type-checks and builds the
// services (tsc -b), starts a whole stack on random ports with its own database and bus instance,
// and runs every `bench/*.bench.mjs` against its gateway. Figures go to stdout and
// .data/bench-results.json. Benchmarks never run inside the test suites.
import { execSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureInstalled } from './lib/install.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (m) => console.log(`[weft bench] ${m}`);
ensureInstalled(root, log);
const { ensureBackingServices } = await import('./lib/backing.mjs');
const { startStack } = await import('./lib/stack.mjs');

const only = process.argv.slice(2);
const files = readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('[weft bench] no bench/*.bench.mjs matched');
  process.exit(1);
}

let backing;
try {
  backing = await ensureBackingServices({ root, log });
} catch (err) {
  console.error(`[weft bench] ${err.message}`);
  process.exit(1);
}
log('building (tsc -b)');
execSync('npx tsc -b', { cwd: root, stdio: 'inherit' });

const suffix = randomBytes(4).toString('hex');
const instance = `bench${suffix}`;
const database = new URL(backing.env.DATABASE_URL);
const adminUrl = new URL(database);
database.pathname = `/weft_bench_${suffix}`;
adminUrl.pathname = '/postgres';
const env = { ...backing.env, DATABASE_URL: database.toString(), WEFT_INSTANCE: instance, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };

let stack;
let code = 0;
const results = { startedAt: new Date().toISOString(), cpus: (await import('node:os')).cpus().length, benches: {} };
try {
  // A bench may export stackEnv(): variables the stack starts with (e.g. a provider base URL pointing at its fake).
  const mods = {};
  const stackEnv = {};
  for (const file of files) {
    mods[file] = await import(pathToFileURL(path.join(root, 'bench', file)).href);
    if (mods[file].stackEnv) Object.assign(stackEnv, await mods[file].stackEnv());
  }
  stack = await startStack({ root, env: { ...env, ...stackEnv }, randomPorts: true, log });
  log(`stack up at ${stack.url}`);
  for (const file of files) {
    log(`running bench/${file}`);
    const mod = mods[file];
    results.benches[file] = await mod.run({ url: stack.url, addresses: stack.addresses, databaseUrl: env.DATABASE_URL, log });
  }
  console.log(JSON.stringify(results, null, 2));
  mkdirSync(path.join(root, '.data'), { recursive: true });
  writeFileSync(path.join(root, '.data', 'bench-results.json'), JSON.stringify(results, null, 2));
} catch (err) {
  console.error(`[weft bench] ${err.stack ?? err.message}`);
  code = 1;
} finally {
  await stack?.stop();
  await cleanup().catch((err) => log(`cleanup failed: ${err.message}`));
  await backing.stop();
}
process.exit(code);

/** Drops the bench database and the instance's JetStream streams. */
async function cleanup() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  await client.query(`drop database if exists "${database.pathname.slice(1)}" with (force)`);
  await client.end();
  const { connect } = await import('nats');
  const nc = await connect({ servers: env.NATS_URL });
  const jsm = await nc.jetstreamManager();
  for (const source of ['registry', 'editor', 'runner']) await jsm.streams.delete(`${instance}_${source}`.toUpperCase()).catch(() => false);
  await nc.close();
}
