import { blockToolCall, getBlock } from '@weft/catalog';
import { createLogger } from '@weft/platform';
import type { FakeServer, RecordedRequest } from '@weft/testkit';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { BaseUrls } from '../runtime/baseUrls.js';
import { createToolExecutor } from '../runtime/executeTool.js';
import type { ServiceTool } from '../serviceTool.js';

/** What a tool answered through the execution layer (timing left out). */
export type HarnessResult = { success: true; output: unknown } | { success: false; output: unknown; error: string };

/** What a request check asserts besides method and path: the query exactly ({} unless given), the body exactly (none unless given), the named headers. */
export interface ExpectedRequest {
  /** Every query parameter; a repeated one as an array of its values in order. */
  query?: Record<string, string | string[]>;
  /** Headers that must be sent with these values (names in any case); others are not checked. */
  headers?: Record<string, string>;
  /** The parsed body (JSON, or form fields), compared with toEqual. */
  body?: unknown;
  /** The raw body text, compared exactly. */
  text?: string;
  /** Which of the run's requests to this method and path (0-based); required when the run sent more than one. */
  nth?: number;
}

/** A family's fake for a test file: started once, requests cleared before each test, closed after. */
export interface FamilyFixture {
  readonly fake: FakeServer;
  /** Runs a tool of the family through the execution layer (catalogue checks, guarded client, base URLs pointing at the fake). */
  run(id: string, params: Record<string, unknown>): Promise<HarnessResult>;
  /** The single request recorded to a method and path (`:name` segments match any) in this test. */
  only(method: string, path: string): RecordedRequest;
  /**
   * Asserts the request the latest run of `toolId` in this test sent to exactly this method and path,
   * and records that the tool's request is checked (the family's coverage rule).
   */
  expectRequest(toolId: string, method: string, path: string, expected: ExpectedRequest): RecordedRequest;
  /**
   * Runs the tool and asserts it fails with exactly `message` (success false, nothing thrown) and
   * `output` (`{}` unless the tool answers one with its failure); records the tool's error case.
   */
  expectError(toolId: string, params: Record<string, unknown>, message: string, output?: unknown): Promise<void>;
}

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);
const context = { workspaceId: 'ws-test', workflowId: 'wf-test', actorId: 'user-test' };
const refuse = (what: string) => () => Promise.reject(new Error(`no ${what} in service tool tests`));

/** The tool id and parameters a block's own tool selector and params mapper give for its values (§7 payload keys). */
export function blockPayload(type: string, values: Record<string, unknown>): { toolId: string; params: Record<string, unknown> } {
  const config = getBlock(type)?.tools.config;
  if (!config?.tool || !config.params) throw new Error(`block ${type} has no tool selector and params mapper`);
  return { toolId: config.tool(values), params: config.params(values) };
}

/**
 * The tool id and parameters a block runs with for its form values, exactly as the runner sends them
 * (`blockToolCall`: the block's tool selector, else its only tool; its form values with its params
 * mapper laid over them). Tests of a form field reaching its tool run the tool with these.
 */
export function blockRun(type: string, values: Record<string, unknown>): { toolId: string; params: Record<string, unknown> } {
  const block = getBlock(type);
  if (!block) throw new Error(`no block ${type}`);
  const { toolId, params } = blockToolCall(block, values);
  if (!toolId) throw new Error(`block ${type} has no tool`);
  return { toolId, params };
}

/** Base URLs for a test: only the named services (pointing at the fake); any URL off the loopback address is refused. */
function testBaseUrls(urls: Record<string, string>): BaseUrls {
  return {
    get: (service) => urls[service],
    rewrite(_toolId, url) {
      const host = new URL(url).hostname;
      if (!LOCAL.has(host)) throw new Error(`test harness refused a request to ${host}`);
      return url;
    },
  };
}

/** The query of a raw query string, a repeated parameter as an array. */
function queryOf(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** A vitest task as far as the coverage rule reads it. */
interface TaskView {
  type: string;
  mode: string;
  result?: { state?: string };
  tasks?: readonly TaskView[];
}

/** Suites of a file, flattened to their tests. */
function testsOf(task: TaskView): TaskView[] {
  return task.type === 'suite' && task.tasks ? task.tasks.flatMap(testsOf) : [task];
}

/**
 * Wires a family's tools to its fake: every named service's base URL points at the fake (plus `suffix` per service),
 * and tools run through the real execution layer (`createToolExecutor`).
 *
 * Coverage rule: when every test of the file ran and passed, each tool of `tools` must have had its request checked
 * (`expectRequest`) and an error case asserted with its exact message (`expectError`); the file fails naming the
 * tools missing either. `coverage.unit.test.ts` checks the same statically over all catalogue tools.
 */
export function useFamily(create: () => Promise<FakeServer>, services: Record<string, string> | string[], tools: ServiceTool[]): FamilyFixture {
  let server: FakeServer | undefined;
  /** Runs of this test: tool id and the range of fake requests it sent. */
  const runs: Array<{ toolId: string; from: number; to: number }> = [];
  const checked = { request: new Set<string>(), error: new Set<string>() };
  const paths = Array.isArray(services) ? Object.fromEntries(services.map((s) => [s, ''])) : services;
  beforeAll(async () => {
    server = await create();
  });
  beforeEach(() => {
    if (server) server.requests.length = 0;
    runs.length = 0;
  });
  // eslint-disable-next-line no-empty-pattern -- vitest hands the suite as the second argument, after a destructured context
  afterAll(async ({}, file) => {
    await server?.close();
    const tests = testsOf(file as TaskView);
    if (!tests.every((t) => t.mode === 'run' && t.result?.state === 'pass')) return; // filtered or failed: the rule needs the whole file
    const missing = tools.flatMap((t) => [
      ...(checked.request.has(t.id) ? [] : [`${t.id}: no expectRequest`]),
      ...(checked.error.has(t.id) ? [] : [`${t.id}: no expectError`]),
    ]);
    if (missing.length > 0) throw new Error(`service tool coverage: ${missing.join('; ')}`);
  });
  const fake = (): FakeServer => {
    if (!server) throw new Error('fake not started');
    return server;
  };
  const executor = (): ReturnType<typeof createToolExecutor> =>
    createToolExecutor({
      policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
      baseUrls: testBaseUrls(Object.fromEntries(Object.entries(paths).map(([s, suffix]) => [s, `${fake().url}${suffix}`]))),
      // A credential id stands for its OAuth token: `credential: 'cred-1'` runs with accessToken 'oauth-cred-1'.
      credentials: { accessToken: (_ctx, id) => Promise.resolve(`oauth-${id}`) },
      customTools: { list: refuse('custom tools') },
      internal: { handle: refuse('internal routes') },
      serviceTools: Object.fromEntries(tools.map((t) => [t.id, t])),
      logger: createLogger('integrations', 'silent'),
      runCode: refuse('code'),
    });
  const fixture: FamilyFixture = {
    get fake() {
      return fake();
    },
    async run(id, params) {
      if (!tools.some((t) => t.id === id)) throw new Error(`${id} is not a tool of this family`);
      const from = fake().requests.length;
      const res = await executor().execute({ toolId: id, params, context }, 'answer');
      runs.push({ toolId: id, from, to: fake().requests.length });
      return res.success ? { success: true, output: res.output } : { success: false, output: res.output, error: res.error ?? '' };
    },
    only(method, path) {
      const found = fake().received(method, path);
      if (found.length !== 1) throw new Error(`expected one ${method} ${path}, got ${found.length}`);
      return found[0]!;
    },
    expectRequest(toolId, method, path, expected) {
      const { nth, ...checks } = expected;
      if (Object.keys(checks).length === 0) throw new Error('expectRequest needs the query, headers or body to check');
      const run = runs.findLast((r) => r.toolId === toolId);
      if (!run) throw new Error(`${toolId} did not run in this test`);
      const sent = fake().requests.slice(run.from, run.to).filter((r) => r.method === method.toUpperCase() && r.path === path);
      if (nth === undefined && sent.length !== 1) throw new Error(`expected one ${method} ${path} from ${toolId}, got ${sent.length}`);
      const req = sent[nth ?? 0];
      if (!req) throw new Error(`${toolId} sent no request #${nth} to ${method} ${path}`);
      expect(queryOf(req.search), `${toolId} query`).toEqual(checks.query ?? {});
      for (const [name, value] of Object.entries(checks.headers ?? {})) expect(req.headers[name.toLowerCase()], `${toolId} header ${name}`).toBe(value);
      if (checks.text !== undefined) expect(req.text, `${toolId} body text`).toBe(checks.text);
      if ('body' in checks) expect(req.body, `${toolId} body`).toEqual(checks.body);
      else if (checks.text === undefined) expect(req.text, `${toolId} sends no body`).toBe('');
      checked.request.add(toolId);
      return req;
    },
    async expectError(toolId, params, message, output = {}) {
      expect(await fixture.run(toolId, params), `${toolId} error`).toEqual({ success: false, output, error: message });
      checked.error.add(toolId);
    },
  };
  return fixture;
}
