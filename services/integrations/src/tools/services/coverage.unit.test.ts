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

function testSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? testSources(join(dir, e.name)) : e.name.endsWith('.test.ts') && e.name !== 'coverage.unit.test.ts' ? readFileSync(join(dir, e.name), 'utf8') : ''))
    .join('\n');
}

describe('service tool coverage', () => {
  const external = listTools().filter((t) => !t.request.isInternalRoute && !Object.hasOwn(OWNED_ELSEWHERE, t.id));
  const tests = testSources(here);

  it('every external catalogue tool has a service tool', () => {
    expect(external.filter((t) => serviceTools[t.id] === undefined).map((t) => t.id)).toEqual([]);
  });

  it('every external catalogue tool is named in a test beside its code', () => {
    expect(external.filter((t) => !tests.includes(`'${t.id}'`)).map((t) => t.id)).toEqual([]);
  });

  it('every service tool implements a catalogue tool', () => {
    const ids = new Set(listTools().map((t) => t.id));
    expect(Object.keys(serviceTools).filter((id) => !ids.has(id))).toEqual([]);
  });
});
