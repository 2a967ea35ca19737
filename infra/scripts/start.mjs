#!/usr/bin/env node
// `npm start`: installs what is missing, brings up Postgres, NATS and Temporal (or uses the running
// ones), builds, starts every service and the gateway (each service migrates its schema on boot),
// and prints the URL. A service that crashes afterwards is started again (see supervise in lib/stack.mjs).
import { fileURLToPath } from 'node:url';
import { ensureInstalled, build } from './lib/install.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const log = (m) => console.log(`[weft] ${m}`);
ensureInstalled(root, log);
const { ensureBackingServices } = await import('./lib/backing.mjs');
const { startStack } = await import('./lib/stack.mjs');
let backing;
try {
  backing = await ensureBackingServices({ root, log });
} catch (err) {
  console.error(`[weft] ${err.message}`);
  process.exit(1);
}
build(root, log);
let stack;
try {
  // PORT and the services' *_ADDR come from the environment when set (stackAddresses in lib/stack.mjs).
  stack = await startStack({ root, env: backing.env, log, restart: true });
} catch (err) {
  console.error(`[weft] ${err.message}`);
  await backing.stop();
  process.exit(1);
}
log(`Weft is running at ${stack.url}`);
const shutdown = async () => {
  log('stopping');
  await stack.stop();
  await backing.stop();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
