#!/usr/bin/env node
// `npm test`: the same set-up as `npm start` (install, backing services, build), then lint and every
// test tier. Ends with one 'N passed, N failed' line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, ensureChromium, build, CHROMIUM } from './lib/install.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (m) => console.log(`[weft test] ${m}`);
ensureInstalled(root, log);
const { ensureBackingServices, temporalBinaryPath } = await import('./lib/backing.mjs');

let backing;
try {
  backing = await ensureBackingServices({ root, log });
} catch (err) {
  console.error(`[weft test] ${err.message}`);
  process.exit(1);
}
let code = 1;
try {
  ensureChromium(log);
  build(root, log);
  log('lint (eslint)');
  const lint = spawnSync('npx', ['eslint', '.'], { cwd: root, stdio: 'inherit' });
  if (lint.status !== 0) throw new Error('lint failed');
  const dbUrl = new URL(backing.env.DATABASE_URL);
  if (!process.env.DATABASE_URL) dbUrl.pathname = '/weft_test';
  const env = {
    ...process.env,
    ...backing.env,
    DATABASE_URL: dbUrl.toString(),
    WEFT_TEMPORAL_BIN: temporalBinaryPath(),
    CHROMIUM_PATH: CHROMIUM,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  const report = path.join(root, '.data', 'vitest-report.json');
  mkdirSync(path.dirname(report), { recursive: true });
  rmSync(report, { force: true });
  const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
  log(`npx ${args.join(' ')}`);
  const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env });
  code = run.status ?? 1;
  try {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    // A suite that fails in a hook counts its tests as skipped; the run still failed.
    const failed = r.numFailedTests || (code !== 0 ? Math.max(1, r.numFailedTestSuites + (r.numRuntimeErrorTestSuites ?? 0)) : 0);
    console.log(`${r.numPassedTests} passed, ${failed} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ''}`);
    if (r.numTotalTests === 0) code = 1;
  } catch {
    console.log('0 passed, 1 failed');
    code = code || 1;
  }
} catch (err) {
  console.error(`[weft test] ${err.message}`);
  code = 1;
} finally {
  await backing.stop();
}
process.exit(code);
