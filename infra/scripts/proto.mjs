#!/usr/bin/env node
// Regenerates the checked-in gRPC contracts (packages/contracts/src/gen) from proto/ with buf + ts-proto,
// using proto/buf.gen.yaml. With an argument, writes to that folder instead (the staleness test compares).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = parse(readFileSync(path.join(root, 'proto/buf.gen.yaml'), 'utf8'));
const out = path.resolve(process.argv[2] ?? path.join(root, config.plugins[0].out));
rmSync(out, { recursive: true, force: true });
config.plugins = config.plugins.map((p) => ({ ...p, local: path.join(root, p.local), out }));
execFileSync(path.join(root, 'node_modules/.bin/buf'), ['generate', '--template', JSON.stringify(config), 'proto'], {
  cwd: root,
  stdio: 'inherit',
});
