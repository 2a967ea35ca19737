import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listTools } from '@weft/catalog';
import { describe, expect, it } from 'vitest';
import { TOOL_JOBS } from '../../jobs/definitions.js';
import { serviceTools } from './index.js';

/** Catalogue tools whose request is an external call but that another layer owns (with its own tests). */
const OWNED_ELSEWHERE: Readonly<Record<string, string>> = {
  http_request: 'tool runtime (generic HTTP tool with its proxy, timeouts and messages)',
  ...Object.fromEntries(Object.keys(TOOL_JOBS).map((id) => [id, 'polling jobs (src/jobs): durable Temporal workflows'])),
};

const here = fileURLToPath(new URL('.', import.meta.url));

/** Test sources beside the service tools, by file name (this file left out). */
function testSources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testSources(join(dir, e.name)) : e.name.endsWith('.test.ts') && e.name !== 'coverage.unit.test.ts' ? [{ file: e.name, text: readFileSync(join(dir, e.name), 'utf8') }] : [],
  );
}

/** Tool ids named as the first argument of a harness check (`expectRequest('id', …)`) in files that wire a family with `useFamily`. */
function checkedIds(sources: Array<{ file: string; text: string }>, check: 'expectRequest' | 'expectError'): Set<string> {
  const pattern = new RegExp(`\\.${check}\\(\\s*'([a-z0-9_]+)'`, 'g');
  return new Set(sources.filter((s) => s.text.includes('useFamily(')).flatMap((s) => [...s.text.matchAll(pattern)].map((m) => m[1]!)));
}

describe('service tool coverage', () => {
  const external = listTools().filter((t) => !t.request.isInternalRoute && !Object.hasOwn(OWNED_ELSEWHERE, t.id));
  const sources = testSources(here);

  it('every external catalogue tool has a service tool', () => {
    expect(external.filter((t) => serviceTools[t.id] === undefined).map((t) => t.id)).toEqual([]);
  });

  // Each family file's useFamily also fails at the end of a full run when one of its tools was not checked both ways,
  // so a check written but never reached (dead code, a comment) does not count.
  it('every external catalogue tool has its request checked (method, path, query, headers, body) through the harness', () => {
    const requests = checkedIds(sources, 'expectRequest');
    expect(external.filter((t) => !requests.has(t.id)).map((t) => t.id)).toEqual([]);
  });

  it('every external catalogue tool has an error case asserted with its exact message through the harness', () => {
    const errors = checkedIds(sources, 'expectError');
    expect(external.filter((t) => !errors.has(t.id)).map((t) => t.id)).toEqual([]);
  });

  it('every service tool implements a catalogue tool', () => {
    const ids = new Set(listTools().map((t) => t.id));
    expect(Object.keys(serviceTools).filter((id) => !ids.has(id))).toEqual([]);
  });
});
