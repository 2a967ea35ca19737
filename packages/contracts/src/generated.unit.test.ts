import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const checkedIn = path.join(root, 'packages/contracts/src/gen');

function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full, base) : [path.relative(base, full)];
  });
}

describe('generated contracts', () => {
  const fresh = mkdtempSync(path.join(tmpdir(), 'weft-proto-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('match what `npm run proto` makes from proto/ today', () => {
    execFileSync(process.execPath, [path.join(root, 'infra/scripts/proto.mjs'), fresh], { cwd: root, stdio: 'pipe' });
    const expected = files(fresh).sort();
    expect(files(checkedIn).sort(), 'the set of generated files; run `npm run proto`').toEqual(expected);
    for (const f of expected) {
      expect(readFileSync(path.join(checkedIn, f), 'utf8'), `${f} is stale; run \`npm run proto\``).toBe(readFileSync(path.join(fresh, f), 'utf8'));
    }
  });
});
