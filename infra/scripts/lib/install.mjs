// Installs dependencies when node_modules is missing or older than the lockfile.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export function ensureInstalled(root, log = console.log) {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  // `npm install`, not `npm ci`: npm leaves other platforms' optional binaries (buf, swc) out of the
  // lockfile, which `npm ci` then refuses as out of sync.
  log('installing dependencies (npm install)');
  execSync('npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

/** Type-checks and builds every workspace (tsc -b is incremental) and the web app. */
export function build(root, log = console.log) {
  log('building (tsc -b, vite build)');
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
}

/** Debian's Chromium for the browser tests (never a downloaded browser build). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium(log = console.log) {
  if (existsSync(CHROMIUM)) return;
  log('installing Chromium for the browser tests (apt-get install -y chromium)');
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  try {
    execSync(`${sudo}apt-get update -q && ${sudo}DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium`, { stdio: 'inherit', shell: '/bin/bash' });
  } catch (err) {
    throw new Error(`Chromium is missing at ${CHROMIUM} and could not be installed: ${err.message}. Install it with: apt-get install -y chromium`);
  }
}
