import type { FakeServer } from '@weft/testkit';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ServiceTool, ToolIO } from '../serviceTool.js';
import { createTestIO, runServiceTool, type HarnessResult } from './testHarness.js';

/** A family's fake for a test file: started once, requests cleared before each test, closed after. */
export interface FamilyFixture {
  readonly fake: FakeServer;
  /** Every URL the tools fetched in this test, as sent (repeated query parameters included). */
  readonly urls: string[];
  io(): ToolIO;
  run(id: string, params: Record<string, unknown>): Promise<HarnessResult>;
  /** The single request recorded to a method and path. */
  only(method: string, path: string): FakeServer['requests'][number];
}

/** Wires a family's tools to its fake: every named service's base URL points at the fake (plus `suffix` per service). */
export function useFamily(create: () => Promise<FakeServer>, services: Record<string, string> | string[], tools: ServiceTool[]): FamilyFixture {
  let server: FakeServer | undefined;
  const urls: string[] = [];
  const paths = Array.isArray(services) ? Object.fromEntries(services.map((s) => [s, ''])) : services;
  beforeAll(async () => {
    server = await create();
  });
  beforeEach(() => {
    if (server) server.requests.length = 0;
    urls.length = 0;
  });
  afterAll(() => server?.close());
  const fixture: FamilyFixture = {
    get fake() {
      if (!server) throw new Error('fake not started');
      return server;
    },
    urls,
    io() {
      const io = createTestIO(Object.fromEntries(Object.entries(paths).map(([s, suffix]) => [s, `${fixture.fake.url}${suffix}`])));
      const send = io.fetch;
      return {
        ...io,
        fetch: (url, init) => {
          urls.push(url);
          return send(url, init);
        },
      };
    },
    run: (id, params) => runServiceTool(tools.find((t) => t.id === id), params, fixture.io()),
    only(method, path) {
      const found = fixture.fake.received(method, path);
      if (found.length !== 1) throw new Error(`expected one ${method} ${path}, got ${found.length}`);
      return found[0]!;
    },
  };
  return fixture;
}
