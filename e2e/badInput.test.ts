import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { api, defaultCookie } from './support/http.js';
import { workflowWith, workspaceId } from './support/runStream.js';

// The project's rule: bad input gets a clear error naming the field, never a 500, a crash or a hang.
// Every route the gateway lists (GET /api/routes, read from its router) is sent malformed input as
// the default account, which may write to a real workspace and workflow; every answer must be a
// 4xx within REQUEST_TIMEOUT_MS whose error names the field at fault, and the stack stays healthy.

const REQUEST_TIMEOUT_MS = 15_000;
const HUGE = 'x'.repeat(1024 * 1024);
const UNKNOWN_IDS = [randomUUID(), 'not-a-uuid', 'x'.repeat(4_000), 'nul\0id'];

/**
 * Wildcard routes stand for the concrete routes behind them (the integrations service's internal
 * routes, better-auth's). The selectors and stagehand routes are left to their own tests.
 */
const EXPANSIONS: Record<string, string[]> = {
  'ALL /api/auth/{*rest}': ['POST /api/auth/sign-in/email', 'POST /api/auth/sign-up/email'],
  'ALL /api/tools/*rest': [
    'POST /api/tools/thinking',
    'POST /api/tools/email/send',
    'POST /api/tools/confluence/page',
    'PUT /api/tools/confluence/page',
    'GET /api/tools/firecrawl/crawl/:jobId',
    'POST /api/tools/get-user-workflow',
  ],
  'ALL /api/memory': ['GET /api/memory', 'POST /api/memory'],
  'ALL /api/memory/:id': ['GET /api/memory/:id', 'DELETE /api/memory/:id'],
  'ALL /api/knowledge/:id': ['GET /api/knowledge/:id', 'PUT /api/knowledge/:id', 'PATCH /api/knowledge/:id', 'DELETE /api/knowledge/:id'],
  'ALL /api/knowledge/:id/*rest': [
    'GET /api/knowledge/:id/documents',
    'POST /api/knowledge/:id/documents',
    'GET /api/knowledge/:id/documents/:documentId',
    'DELETE /api/knowledge/:id/documents/:documentId',
    'GET /api/knowledge/:id/documents/:documentId/chunks',
    'POST /api/knowledge/:id/documents/:documentId/chunks',
  ],
  'ALL /api/webhooks/trigger': ['POST /api/webhooks/trigger/:path', 'GET /api/webhooks/trigger/:path'],
};

/** Routes that answer Server-Sent Events for as long as they are open: their params are checked, not their bodies. */
const STREAMS = new Set(['GET /api/workflows/:id/events', 'GET /api/executions/:id/stream', 'POST /api/copilot/chat']);

/** Routes that take any JSON as their input (a run's input): a body that is not an object is theirs to take. */
const ANY_BODY = new Set(['POST /api/workflows/:id/execute']);

interface Fixtures {
  workspaceId: string;
  workflowId: string;
  folderId: string;
  knowledgeBaseId: string;
  userId: string;
  yaml: string;
}
let fx: Fixtures;

/** A valid body of each route that reads one, with the fields whose wrong types are tried. */
function bodies(f: Fixtures): Record<string, Record<string, unknown>> {
  const color = '#112233';
  return {
    'POST /api/workflows': { workspaceId: f.workspaceId, name: 'n', description: 'd', color, folderId: f.folderId },
    'PUT /api/workflows/:id': { name: 'n', description: 'd', color, folderId: f.folderId, marketplaceData: {} },
    'POST /api/workflows/:id/duplicate': { name: 'n', description: 'd', color, workspaceId: f.workspaceId, folderId: f.folderId },
    'POST /api/workflows/:id/commands': { commands: [{ type: 'renameBlock', id: 'none', name: 'x' }], expectedVersion: 1, commandId: 'c-1' },
    'POST /api/workspaces': { name: 'n' },
    'PUT /api/workspaces/:id': { name: 'n' },
    'PATCH /api/workspaces/:id': { name: 'n' },
    'POST /api/workspaces/:id/members': { email: 'someone@example.test', permission: 'read' },
    'PATCH /api/workspaces/:id/members/:userId': { permission: 'admin' },
    'POST /api/folders': { workspaceId: f.workspaceId, name: 'n', parentId: f.folderId, color },
    'PUT /api/folders/:id': { name: 'n', color, isExpanded: true },
    'POST /api/environment': { variables: { A: 'b' } },
    'POST /api/tools/custom': { tools: [] },
    'POST /api/workflows/:id/deploy': { deployedAt: new Date().toISOString() },
    'PATCH /api/workflows/:id/deploy': { hasActiveWebhook: true },
    'POST /api/workflows/:id/variables': { variables: [] },
    'PUT /api/workflows/:id/yaml': { yamlContent: f.yaml, description: 'd', chatId: 'c', source: 's', applyAutoLayout: false, createCheckpoint: false },
    'POST /api/workflows/sync': { workspaceId: f.workspaceId, workflows: {} },
    'POST /api/schedules': { workflowId: f.workflowId },
    'POST /api/schedules/schedule': { workflowId: f.workflowId },
    'POST /api/function/execute': { code: 'return 1', timeout: 1000, envVars: {}, blockData: {}, blockNameMapping: {}, workflowId: f.workflowId, isCustomTool: false, params: {} },
    'POST /api/proxy': { toolId: 'http_request', params: {}, workflowId: f.workflowId, skipPostProcess: false },
    'POST /api/copilot/chat': { message: 'hi', workflowId: f.workflowId, chatId: 'c', provider: 'openai', model: 'm', propose: false },
    'POST /api/copilot/proposals/:id': { action: 'accept' },
    'POST /api/auth/api-keys': { name: 'k' },
    'PATCH /api/settings': { layout: { panelOpen: true } },
    'POST /api/auth/oauth/token': { credentialId: 'c' },
    'POST /api/blocks/validate': { blockType: 'agent', params: {} },
    'POST /api/tools/get-blocks-metadata': { blockIds: [] },
    'POST /api/tools/get-all-blocks': { includeDetails: false, filterCategory: 'blocks' },
    'POST /api/knowledge': { workspaceId: f.workspaceId, name: 'kb', description: 'd' },
    'PUT /api/knowledge/:id': { name: 'kb', description: 'd' },
    'PATCH /api/knowledge/:id': { name: 'kb', description: 'd' },
    'POST /api/knowledge/search': { knowledgeBaseIds: [f.knowledgeBaseId], query: 'q', topK: 5 },
    'POST /api/memory': { workflowId: f.workflowId, key: 'k', type: 'agent', data: { role: 'user', content: 'hi' } },
    'POST /api/executions/:id/rerun': { fromBlockId: 'b' },
    'POST /api/docs/search': { query: 'q', topK: 3 },
    'POST /api/tools/thinking': { thought: 't' },
    'POST /api/tools/get-user-workflow': { workflowId: f.workflowId, includeMetadata: false },
    'POST /api/knowledge/:id/documents': { name: 'notes.txt', content: 'hello from the bad input test' },
  };
}

/** Fields that may hold a megabyte of text (code, a chat message, YAML): their huge values may pass. */
const BIG_TEXT = new Set(['code', 'message', 'yamlContent', 'query', 'content', 'thought']);
/** Fields where a number is taken as its text (a tool's key resolved from a block output may be one). */
const NUMBER_AS_TEXT = new Set(['POST /api/memory key', 'POST /api/tools/thinking thought', 'POST /api/tools/get-user-workflow workflowId', 'POST /api/knowledge/:id/documents name']);
/** Numbers the spec clamps instead of refusing (topK, spec 001 §5). */
const CLAMPED = new Set(['topK']);

/** Query parameters of routes that read them, with what kind of value each takes. */
const QUERIES: Record<string, Record<string, 'count' | 'position' | 'cursor' | 'text'>> = {
  'GET /api/workflows': { workspaceId: 'text' },
  'GET /api/folders': { workspaceId: 'text' },
  'GET /api/knowledge': { workspaceId: 'text', limit: 'count', offset: 'position' },
  'GET /api/knowledge/:id/documents': { limit: 'count', offset: 'position' },
  'GET /api/knowledge/:id/documents/:documentId/chunks': { limit: 'count', offset: 'position' },
  'GET /api/workflows/:id/executions': { limit: 'count', cursor: 'cursor', status: 'text', trigger: 'text' },
  'GET /api/workflows/:id/events': { after: 'position' },
  'GET /api/executions/:id/stream': { after: 'position' },
  'GET /api/executions/:id/values': { ref: 'text' },
  'GET /api/schedules': { workflowId: 'text' },
  'GET /api/copilot/chats': { workflowId: 'text' },
  'GET /api/memory': { workflowId: 'text' },
  'GET /api/proxy': { url: 'text' },
  'GET /api/proxy/image': { url: 'text' },
};

/**
 * Routes whose parameter given twice is answered as such ('… given once'), not as missing ('workflowId
 * is required' for ?workflowId=a&workflowId=b misled the caller). The rest answer a 400 naming it too.
 */
const REPEAT_SAID = new Set([
  'GET /api/workflows',
  'GET /api/folders',
  'GET /api/knowledge',
  'GET /api/schedules',
  'GET /api/executions/:id/values',
  'GET /api/workflows/:id/executions',
  'GET /api/copilot/chats',
  'GET /api/memory',
  'GET /api/proxy',
  'GET /api/proxy/image',
  'GET /api/workflows/:id/events',
  'GET /api/executions/:id/stream',
  'GET /api/knowledge/:id/documents',
  'GET /api/knowledge/:id/documents/:documentId/chunks',
]);

/** Query values that fit a route's other parameters, so one bad parameter is the only fault. */
function baseQuery(key: string, f: Fixtures): Record<string, string> {
  if (key === 'GET /api/workflows' || key === 'GET /api/folders' || key === 'GET /api/knowledge') return { workspaceId: f.workspaceId };
  if (key === 'GET /api/schedules' || key === 'GET /api/copilot/chats' || key === 'GET /api/memory') return { workflowId: f.workflowId };
  return {};
}

interface Answer {
  status: number;
  text: string;
}

/** One request with a time limit; a hang answers status 0. */
async function send(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers = { cookie: await defaultCookie(), 'content-type': 'application/json', accept: 'application/json', ...init.headers };
  try {
    const res = await fetch(`${inject('weftUrl')}${path}`, {
      method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      ...(init.body === undefined || method === 'GET' || method === 'HEAD' ? {} : { body: init.body }),
    });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    return { status: 0, text: `no answer within ${REQUEST_TIMEOUT_MS} ms (${String(err)})` };
  }
}

/** The error text of an answer: its JSON `error` or `message`, else the whole body. */
function errorOf(a: Answer): string {
  try {
    const parsed: unknown = JSON.parse(a.text);
    if (typeof parsed === 'object' && parsed !== null) {
      const { error, message } = parsed as { error?: unknown; message?: unknown };
      if (typeof error === 'string') return error;
      if (typeof message === 'string') return message;
    }
  } catch {
    // not JSON: the body as sent
  }
  return a.text;
}

/** Collects what broke the rule, so one run reports every failing route. */
class Findings {
  readonly all: string[] = [];
  private note(call: string, what: string, a: Answer): void {
    this.all.push(`${call} [${what}] → ${a.status} ${a.text.slice(0, 200)}`);
  }
  /** Must be a 4xx; a 400 must name `field` when one is at fault. `okToPass` (input that may be right) lets a 2xx or any 4xx through. */
  check(call: string, what: string, a: Answer, field?: string, okToPass = false): void {
    if (a.status === 0 || a.status >= 500 || (a.status < 400 && !(okToPass && a.status < 300)) || a.status < 200) {
      this.note(call, what, a);
      return;
    }
    // Named in words counts ("Knowledge base IDs are required" names knowledgeBaseIds).
    const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (field && !okToPass && a.status === 400 && !plain(errorOf(a)).includes(plain(field))) this.note(call, `${what}: error does not name ${field}`, a);
  }
}

/** The routes to try: the gateway's own list with wildcards expanded. */
async function routes(): Promise<string[]> {
  // Signed in only: the list is the API's map, not for anyone who asks.
  expect(await api('GET', '/api/routes', undefined, { cookie: '' })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  const res = await api<{ routes: Array<{ method: string; path: string }> }>('GET', '/api/routes', undefined, { cookie: await defaultCookie() });
  expect(res.status).toBe(200);
  const listed = res.body.routes.map((r) => `${r.method} ${r.path}`);
  // The list is read from the router: routes the test knows by name must be in it.
  expect(listed).toEqual(expect.arrayContaining(['GET /api/health', 'POST /api/workflows', 'POST /api/workflows/:id/commands', 'ALL /api/tools/*rest']));
  const tried = listed.flatMap((r) => EXPANSIONS[r] ?? (r.startsWith('ALL ') || r.includes('*') ? [] : [r])).filter((r) => r !== 'GET /api/routes' && !r.includes('/selectors') && !r.includes('/stagehand'));
  // 111 when this was written: the list is the router's, so a route added later is tried too.
  expect(tried.length).toBeGreaterThan(100);
  return tried;
}

/** A route's path with its parameters filled: a real value where the fixtures have one, else `fallback`. */
function fill(path: string, fallback: (name: string) => string, real: boolean): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(real ? (realParam(path, name) ?? fallback(name)) : fallback(name)));
}

function realParam(path: string, name: string): string | undefined {
  if (name === 'userId') return fx.userId;
  if (name === 'version') return '1';
  if (name !== 'id') return undefined;
  if (path.startsWith('/api/workflows/') || path.startsWith('/api/schedules/')) return fx.workflowId;
  if (path.startsWith('/api/workspaces/')) return fx.workspaceId;
  if (path.startsWith('/api/folders/')) return fx.folderId;
  if (path.startsWith('/api/knowledge/')) return fx.knowledgeBaseId;
  if (path.startsWith('/api/memory/')) return 'k';
  return undefined;
}

/** Whether a request to `route` with real ids could destroy the fixtures (they get unknown ids only). */
const destroys = (route: string) => route.startsWith('DELETE ') || route.startsWith('POST /api/auth/');

/** Routes tried at once: enough to keep the file under two minutes, few enough not to load the stack into timeouts. */
const CONCURRENCY = 4;

/**
 * The time a whole sweep of every route may take: a guard against a sweep that never ends, not a
 * speed limit (each request has its own REQUEST_TIMEOUT_MS, which is what finds a hang). The
 * project's 120 s was a speed limit on a loaded machine: the bodies sweep took over 120 s at load 25.
 */
const SWEEP_TIMEOUT_MS = 600_000;

/** Runs `work` for every route, CONCURRENCY at a time. */
async function eachRoute(work: (route: string) => Promise<void>): Promise<void> {
  const queue = await routes();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let route = queue.shift(); route !== undefined; route = queue.shift()) await work(route);
  }));
}

/** How long the stack may take to answer healthy again: a busy service misses a 1 s health check, a crashed one never answers. */
const RECOVERY_MS = 15_000;

/** Polls /api/health until it answers 200; rejects naming its last answer after `timeout` ms. */
function untilHealthy(timeout: number): Promise<void> {
  return vi.waitFor(async () => {
    const h = await send('GET', '/api/health');
    if (h.status !== 200) throw new Error(`/api/health answered ${h.status}`);
  }, { timeout, interval: 250 });
}

/** The stack is healthy after a route's bad input (every service up, possibly after a busy moment). */
async function healthy(findings: Findings, after: string): Promise<void> {
  const recovered = await untilHealthy(RECOVERY_MS).then(() => true, () => false);
  if (recovered) return;
  const h = await send('GET', '/api/health');
  findings.all.push(`after ${after}: /api/health answered ${h.status} ${h.text.slice(0, 200)}`);
}

/** Wrong values for a field whose good value is `good`. */
function wrongValues(route: string, field: string, good: unknown): Array<{ what: string; value: unknown; mayPass?: boolean }> {
  const out: Array<{ what: string; value: unknown; mayPass?: boolean }> = [];
  if (typeof good === 'string') out.push({ what: 'number', value: 42, mayPass: NUMBER_AS_TEXT.has(`${route} ${field}`) }, { what: 'array', value: ['x'] }, { what: 'object', value: { a: 1 } }, { what: 'boolean', value: true }, { what: '1 MB text', value: HUGE, mayPass: BIG_TEXT.has(field) });
  // Text Postgres refuses (NUL) or would store changed (a lone surrogate): refused whatever the field.
  if (typeof good === 'string') out.push({ what: 'NUL', value: `${good}\0` }, { what: 'lone surrogate', value: `${good}\ud800` });
  else if (typeof good === 'number') {
    out.push({ what: 'text', value: 'abc' }, { what: 'array', value: [1] }, { what: 'object', value: {} }, { what: 'boolean', value: true });
    out.push({ what: 'negative', value: -1, mayPass: CLAMPED.has(field) }, { what: 'huge', value: 1e308, mayPass: CLAMPED.has(field) }, { what: '"NaN"', value: 'NaN' });
  } else if (typeof good === 'boolean') out.push({ what: 'text', value: 'yes' }, { what: 'number', value: 1 }, { what: 'array', value: [] });
  else if (Array.isArray(good)) out.push({ what: 'text', value: 'x' }, { what: 'number', value: 42 }, { what: 'object', value: { a: 1 } });
  else if (typeof good === 'object' && good !== null) out.push({ what: 'text', value: 'x' }, { what: 'number', value: 42 }, { what: 'array', value: [1] });
  return out;
}

beforeAll(async () => {
  // Started healthy, so an unhealthy answer later is the bad input's doing.
  await untilHealthy(60_000);
  const ws = await workspaceId();
  const { id: workflowId } = await workflowWith();
  const folder = await api<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: ws, name: 'Bad input' });
  expect(folder.status).toBe(201);
  const kb = await api<{ knowledgeBase: { id: string } }>('POST', '/api/knowledge', { workspaceId: ws, name: 'Bad input' });
  expect(kb.status, JSON.stringify(kb.body)).toBe(201);
  expect((await api('POST', '/api/memory', { workflowId, key: 'k', data: { role: 'user', content: 'hi' } })).status).toBe(200);
  const perms = await api<{ members: Array<{ userId: string }> }>('GET', `/api/workspaces/${ws}/permissions`);
  const userId = perms.body.members[0]?.userId;
  if (!userId) throw new Error('no member');
  const yaml = await api<{ yaml: string }>('GET', `/api/workflows/${workflowId}/yaml`);
  expect(yaml.status).toBe(200);
  // Knowledge searches embed with the caller's key, at the stack's OpenAI fake.
  expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-bad-input-e2e' } })).status).toBe(200);
  fx = { workspaceId: ws, workflowId, folderId: folder.body.folder.id, knowledgeBaseId: kb.body.knowledgeBase.id, userId, yaml: yaml.body.yaml };
});

describe('bad input to every route is a 4xx naming the field, never a 5xx or a hang', () => {
  it('malformed bodies: not JSON, not an object, wrong field types, huge text', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const findings = new Findings();
    const table = bodies(fx);
    await eachRoute(async (route) => {
      const [method = '', path = ''] = route.split(' ');
      if (method === 'GET' || method === 'HEAD' || (STREAMS.has(route) && route !== 'POST /api/copilot/chat')) return;
      const url = fill(path, () => randomUUID(), !destroys(route));
      const headers: Record<string, string> = route === 'POST /api/workflows/:id/execute' ? { 'x-execution-mode': 'async' } : {};
      const declared = table[route];
      if (!STREAMS.has(route)) {
        findings.check(route, 'not JSON', await send(method, url, { body: '{"a": ', headers }), 'body');
        for (const junk of ['[]', '[1,2]', '"text"', 'null', '42', 'true']) {
          const a = await send(method, url, { body: junk, headers });
          findings.check(route, `body ${junk}`, a, declared ? 'body' : undefined, ANY_BODY.has(route) || !declared);
        }
      }
      for (const [field, good] of Object.entries(declared ?? {})) {
        for (const wrong of wrongValues(route, field, good)) {
          if (STREAMS.has(route) && wrong.mayPass) continue;
          const a = await send(method, url, { body: JSON.stringify({ ...declared, [field]: wrong.value }), headers });
          findings.check(route, `${field} as ${wrong.what}`, a, field, wrong.mayPass);
        }
      }
      await healthy(findings, route);
    });
    expect(findings.all).toEqual([]);
  });

  it('unknown and malformed ids in path parameters', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const findings = new Findings();
    await eachRoute(async (route) => {
      const [method = '', path = ''] = route.split(' ');
      const names = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
      if (names.length === 0) return;
      const declared = bodies(fx)[route];
      for (const name of names) {
        for (const bad of [...UNKNOWN_IDS, ...(name === 'version' ? ['-1', 'NaN', '1e400', '1.5'] : [])]) {
          const url = path.replace(/:([A-Za-z]+)/g, (_, n: string) => encodeURIComponent(n === name ? bad : (destroys(route) ? randomUUID() : (realParam(path, n) ?? randomUUID()))));
          const body = declared ? JSON.stringify(declared) : '{}';
          // A request that would start something (a chat turn, a run) with good ids is sent with its bad id only.
          const a = await send(method, url, { body, headers: { 'x-execution-mode': 'async' } });
          // A NUL is refused before any route reads the id (a wildcard route's segment has no name the caller knows).
          findings.check(route, `${name}=${bad.slice(0, 40)}`, a, name === 'version' ? 'version' : bad.includes('\0') ? 'NUL character' : undefined);
        }
      }
      // A malformed percent escape in the path.
      findings.check(route, 'bad escape', await send(method, path.replace(/:([A-Za-z]+)/, '%E0%A4%A'), { body: '{}' }));
      await healthy(findings, route);
    });
    expect(findings.all).toEqual([]);
  });

  it('bad headers: execution mode, Last-Event-ID, deployment and personal keys', async () => {
    const findings = new Findings();
    const execute = `/api/workflows/${fx.workflowId}/execute`;
    for (const mode of ['bogus', 'x'.repeat(4_000)]) findings.check('POST execute', `x-execution-mode ${mode.slice(0, 20)}`, await send('POST', execute, { body: '{}', headers: { 'x-execution-mode': mode } }), 'x-execution-mode');
    for (const key of ['garbage', 'weft_' + 'x'.repeat(4_000), 'x'.repeat(4_000)]) {
      const a = await send('POST', execute, { body: '{}', headers: { 'x-api-key': key, cookie: '' } });
      findings.check('POST execute', `x-api-key ${key.slice(0, 20)}`, a);
    }
    for (const path of [`/api/workflows/${fx.workflowId}/events`, `/api/executions/${randomUUID()}/stream`]) {
      for (const id of ['-1', 'abc', '1e400', '99999999999999999999999']) {
        findings.check(`GET ${path}`, `Last-Event-ID ${id}`, await send('GET', path, { headers: { 'last-event-id': id, accept: 'text/event-stream' } }), 'Last-Event-ID');
      }
    }
    await healthy(findings, 'bad headers');
    expect(findings.all).toEqual([]);
  });

  it('bad query parameters: negative, NaN and huge numbers, repeated and malformed values', { timeout: SWEEP_TIMEOUT_MS }, async () => {
    const findings = new Findings();
    await eachRoute(async (route) => {
      const [method = '', path = ''] = route.split(' ');
      if (method !== 'GET') return;
      const url = fill(path, () => randomUUID(), true);
      // Nonsense any route must survive.
      findings.check(route, 'malformed query', await send(method, `${url}?%=%&&==&a[=1&%E0%A4%A=%ZZ`), undefined, true);
      for (const [param, kind] of Object.entries(QUERIES[route] ?? {})) {
        const base = baseQuery(route, fx);
        const numbers = ['-1', 'NaN', '1e400', 'abc', '1.5', '99999999999999999999999'];
        // An opaque cursor the server never gave: garbage, numbers, base64 of nonsense, huge.
        const values = kind === 'text' ? ['', 'nul\0'] : kind === 'cursor' ? [...numbers, Buffer.from('{"at":"x","id":1}').toString('base64url'), 'x'.repeat(8_000)] : numbers;
        const tries: Array<[string, string]> = values.map((v) => [v, new URLSearchParams({ ...base, [param]: v }).toString()]);
        tries.push(['repeated', `${new URLSearchParams(base).toString()}&${param}=1&${param}=2`]);
        // A huge URL at a private address, which the outbound guard refuses unsent (a huge host name would be looked up in DNS).
        const huge = param === 'url' ? `http://10.255.255.1/${'x'.repeat(8_000)}` : 'x'.repeat(8_000);
        if (kind === 'text' && !(param in base)) tries.push(['huge', new URLSearchParams({ ...base, [param]: huge }).toString()]);
        for (const [what, query] of tries) {
          const headers: Record<string, string> = STREAMS.has(route) ? { accept: 'text/event-stream' } : {};
          const a = await send(method, `${url}?${query}`, { headers });
          // A text value of the right shape may be a legitimate miss (404) or, for a huge cursor, refused.
          findings.check(route, `${param}=${what}`, a, param, kind === 'position' && what === '1.5' ? false : kind === 'text' && what === 'huge');
          if (what === 'repeated' && REPEAT_SAID.has(route)) findings.check(route, `${param} repeated`, a, 'given once');
        }
      }
      await healthy(findings, route);
    });
    expect(findings.all).toEqual([]);
  });
});

/** `levels` objects one inside the other: `{"a":{"a":…1…}}`, written as text (JSON.stringify of it would overflow). */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A request whose body is these bytes as they are (not UTF-8 text), with `content-type`. */
async function sendBytes(method: string, path: string, bytes: Uint8Array, contentType = 'application/json', headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${inject('weftUrl')}${path}`, { method, headers: { cookie: await defaultCookie(), 'content-type': contentType, ...headers }, body: bytes, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return { status: res.status, text: await res.text() };
}

/** `{"name":"a<0xff>b"}`: JSON whose string holds a byte that is no UTF-8. */
const NOT_UTF8_JSON = Uint8Array.from([...Buffer.from('{"name":"a'), 0xff, ...Buffer.from('b"}')]);

/** The 400 of body bytes sent as UTF-8 text that are not UTF-8, on every route. */
const NOT_UTF8 = 'Request body is not valid UTF-8';

describe('text Postgres cannot store or give back as sent is a 400 naming the field', () => {
  /** A 400 whose error holds every one of `words`. */
  function refused(a: Answer, ...words: string[]): void {
    expect(a.status, a.text).toBe(400);
    for (const word of words) expect(errorOf(a)).toContain(word);
  }

  it('the NUL character in a body (a value, a nested value, a key), a query value or a path parameter', async () => {
    refused(await send('POST', '/api/workflows', { body: JSON.stringify({ workspaceId: fx.workspaceId, name: 'a\0b' }) }), 'name must not contain the NUL character (U+0000)');
    refused(await send('PUT', `/api/workflows/${fx.workflowId}`, { body: JSON.stringify({ marketplaceData: { x: ['ok', '\0'] } }) }), 'marketplaceData.x.1 must not contain the NUL character');
    refused(await send('POST', '/api/environment', { body: JSON.stringify({ variables: { 'K\0': 'v' } }) }), 'in variables must not contain the NUL character');
    refused(await send('GET', `/api/workflows?workspaceId=${fx.workspaceId}%00`), 'Query parameter "workspaceId" must not contain the NUL character');
    refused(await send('GET', '/api/workflows/a%00b'), 'Path parameter "id" must not contain the NUL character');
    refused(await send('PATCH', `/api/workspaces/${fx.workspaceId}/members/%00`, { body: '{"permission":"admin"}' }), 'Path parameter "userId"');
    refused(await send('GET', `/api/knowledge/${fx.knowledgeBaseId}/documents/%00`), 'The path segment "%00"');
    refused(await send('POST', `/api/workflows/${fx.workflowId}/execute`, { body: 'who=a%00', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-execution-mode': 'async' } }), 'who must not contain the NUL character');
    refused(await send('POST', '/api/webhooks/trigger/bad%00path', { body: '{}' }), 'must not contain the NUL character');
    refused(await send('POST', `/api/webhooks/trigger/${randomUUID()}?q=%00`, { body: '{}' }), 'Query parameter "q"');
  });

  it("better-auth's own bodies (sign-up, profile update): NUL and lone surrogates", async () => {
    const signUp = (name: string) => send('POST', '/api/auth/sign-up/email', { body: JSON.stringify({ email: `${randomUUID()}@example.invalid`, password: 'password-123456', name }), headers: { cookie: '', origin: inject('weftUrl') } });
    refused(await signUp('a\0b'), 'name must not contain the NUL character');
    refused(await signUp('a\ud800b'), 'name must be well-formed text');
    refused(await send('POST', '/api/auth/update-user', { body: JSON.stringify({ name: 'a\0b' }), headers: { origin: inject('weftUrl') } }), 'name must not contain the NUL character');
  });

  it("better-auth's bodies (sign-up, sign-in): bytes not UTF-8 a 400 naming the body, over 5 MB a 413, past 200 levels a 400; no account made", async () => {
    const anonymous = { cookie: '', origin: inject('weftUrl') };
    const email = `${randomUUID()}@example.invalid`;
    const password = 'password-123456';
    // {"email":…,"password":…,"name":"a<0xff>b"}: better-auth read the byte as U+FFFD and stored that.
    const signUpText = JSON.stringify({ email, password, name: 'aXb' });
    const signUpBytes = Buffer.from(signUpText);
    signUpBytes[signUpText.indexOf('aXb') + 1] = 0xff;
    refused(await sendBytes('POST', '/api/auth/sign-up/email', signUpBytes, 'application/json', anonymous), NOT_UTF8);
    // Sign-in: a password holding bytes that are not UTF-8, in JSON and in a form (0xc3 0x28 starts a character and breaks it).
    refused(await sendBytes('POST', '/api/auth/sign-in/email', Uint8Array.from([...Buffer.from(`{"email":"${email}","password":"p`), 0xc3, 0x28, ...Buffer.from('"}')]), 'application/json', anonymous), NOT_UTF8);
    refused(await sendBytes('POST', '/api/auth/sign-in/email', Uint8Array.from([...Buffer.from(`email=${encodeURIComponent(email)}&password=`), 0xc3, 0x28]), 'application/x-www-form-urlencoded', anonymous), NOT_UTF8);
    // More than the 5 MB every route reads: a 413 before better-auth sees it.
    const tooLarge = await send('POST', '/api/auth/sign-up/email', { body: JSON.stringify({ email, password, name: 'x'.repeat(5 * 1024 * 1024) }), headers: anonymous });
    expect(tooLarge.status, tooLarge.text.slice(0, 200)).toBe(413);
    expect(errorOf(tooLarge)).toBe('Request body is too large');
    // A million levels, counted in the bytes before anything parses them.
    const levels = 1_000_000;
    const deep = `{"email":"${email}","password":"${password}","name":"D","image":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    refused(await send('POST', '/api/auth/sign-up/email', { body: deep, headers: anonymous }), 'Request body is nested too deeply at image.0.0.0.0.0.… (at most 200 levels of objects and arrays)');
    // No account was made by any of them: signing in fails, and the address is still free to sign up with.
    const signIn = () => send('POST', '/api/auth/sign-in/email', { body: JSON.stringify({ email, password }), headers: anonymous });
    expect((await signIn()).status).toBe(401);
    const created = await send('POST', '/api/auth/sign-up/email', { body: JSON.stringify({ email, password, name: 'Zoë 😀' }), headers: anonymous });
    expect(created.status, created.text).toBe(200);
    expect((JSON.parse(created.text) as { user: { name: string } }).user.name).toBe('Zoë 😀');
    expect((await signIn()).status).toBe(200);
  });

  it('lone UTF-16 surrogates and body bytes that are not UTF-8', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, which parses back to it.
    refused(await send('POST', '/api/workflows', { body: JSON.stringify({ workspaceId: fx.workspaceId, name: 'a\ud800b' }) }), 'name must be well-formed text');
    refused(await send('POST', '/api/environment', { body: JSON.stringify({ variables: { K: '\udc00' } }) }), 'variables.K must be well-formed text');
    refused(await sendBytes('POST', '/api/workflows', NOT_UTF8_JSON), NOT_UTF8);
    refused(await sendBytes('POST', `/api/workflows/${fx.workflowId}/execute`, NOT_UTF8_JSON, 'text/plain', { 'x-execution-mode': 'async' }), NOT_UTF8);
  });

  it('a body nested past 200 levels, however deep, is refused where it is read and loses no run', async () => {
    for (const levels of [201, 5_000, 100_000]) {
      refused(await send('PUT', `/api/workflows/${fx.workflowId}`, { body: `{"marketplaceData":${nestedJson(levels)}}` }), 'Request body is nested too deeply at marketplaceData.a.a');
      refused(await send('POST', `/api/workflows/${fx.workflowId}/execute`, { body: `{"input":${nestedJson(levels)}}`, headers: { 'x-execution-mode': 'async' } }), 'nested too deeply');
    }
    await untilHealthy(RECOVERY_MS);
  });

  it('a million levels of [ on an ordinary route are refused from the bytes, naming where, and change nothing', async () => {
    const { id } = await workflowWith();
    const before = await api<{ data: Record<string, unknown> }>('GET', `/api/workflows/${id}`);
    expect(before.status).toBe(200);
    const levels = 1_000_000;
    const closed = `${'['.repeat(levels)}${']'.repeat(levels)}`;
    refused(await send('PUT', `/api/workflows/${id}`, { body: `{"marketplaceData":${closed}}` }), 'Request body is nested too deeply at marketplaceData.0.0.0.0.0.… (at most 200 levels of objects and arrays)');
    // Never closed: refused at the 201st bracket all the same, not as JSON that does not parse.
    refused(await send('PUT', `/api/workflows/${id}`, { body: `{"marketplaceData":${'['.repeat(levels)}` }), 'Request body is nested too deeply at marketplaceData.0.0.0.0.0.…');
    // A run's input, read as text before JSON: refused, and no run is started.
    refused(await send('POST', `/api/workflows/${id}/execute`, { body: `{"input":${closed}}`, headers: { 'x-execution-mode': 'async' } }), 'Request body is nested too deeply at input.0.0.0.0.0.…');
    expect((await api<{ executions: unknown[] }>('GET', `/api/workflows/${id}/executions`)).body.executions).toEqual([]);
    expect(await api('GET', `/api/workflows/${id}`)).toEqual(before);
    await untilHealthy(RECOVERY_MS);
  });

  it('a YAML import nested past 200 levels (flow or indentation) is a 400 naming line and field, and the workflow is unchanged', async () => {
    const { id } = await workflowWith();
    const exported = async () => {
      const res = await api<{ yaml: string; version: number }>('GET', `/api/workflows/${id}/yaml`);
      expect(res.status).toBe(200);
      return res.body;
    };
    const before = await exported();
    // The document is level 1, blocks 2, fn 3, inputs 4: the value of code is level 5.
    const header = ['version: "1.0"', 'blocks:', '  start:', '    type: starter', '    name: Start', '    position: {x: 0, y: 0}', '    connections: [fn]', '  fn:', '    type: function', '    name: Deep', '    position: {x: 400, y: 0}', '    inputs:'];
    const codeLine = header.length + 1;
    const importYaml = (yamlContent: string) => send('PUT', `/api/workflows/${id}/yaml`, { body: JSON.stringify({ yamlContent }) });
    const limit = '(at most 200 levels of objects and arrays)';
    const flow = [...header, `      code: ${'['.repeat(300)}${']'.repeat(300)}`].join('\n');
    refused(await importYaml(flow), `Invalid YAML at line ${codeLine}: nested too deeply at blocks.fn.inputs.code.0.0.… ${limit}`);
    // By indentation: each line a map inside the one above; the first past the bound (level 201) is named, 196 lines below the first.
    const indented = [...header, '      code:', ...Array.from({ length: 300 }, (_, i) => `${' '.repeat(8 + i)}k:`)].join('\n');
    refused(await importYaml(indented), `Invalid YAML at line ${codeLine + 1 + 196}: nested too deeply at blocks.fn.inputs.code.k.k.… ${limit}`);
    expect(await exported()).toEqual(before);
  });

  it('a key named __proto__ in a record is refused, not dropped', async () => {
    refused(await send('POST', '/api/environment', { body: '{"variables":{"__proto__":"secret","KEPT":"v"}}' }), 'variables must not have a key named "__proto__"');
    refused(await send('POST', '/api/workflows/sync', { body: `{"workspaceId":"${fx.workspaceId}","workflows":{"__proto__":{"blocks":{},"edges":[]}}}` }), 'workflows must not have a key named "__proto__"');
    const env = await api<{ data: Record<string, unknown> }>('GET', '/api/environment');
    expect(env.body.data).not.toHaveProperty('KEPT');
  });

  it('a webhook checks its signature first, then refuses a body it could not keep', async () => {
    const path = `bad-input-${randomUUID()}`;
    const secret = 'bad-input-secret';
    const set = (id: string, subBlockId: string, value: unknown) => ({ type: 'setSubBlockValue', id, subBlockId, value });
    const { id } = await workflowWith((starter) => [set(starter, 'startWorkflow', 'webhook'), set(starter, 'webhookPath', path), set(starter, 'webhookSecret', secret)]);
    expect((await api('POST', `/api/workflows/${id}/deploy`, {})).status).toBe(200);
    const bearer = { authorization: `Bearer ${secret}` };
    const url = `/api/webhooks/trigger/${path}`;
    // A forged call learns nothing about its body.
    expect((await sendBytes('POST', url, NOT_UTF8_JSON)).status).toBe(401);
    refused(await sendBytes('POST', url, NOT_UTF8_JSON, 'application/json', bearer), NOT_UTF8);
    refused(await sendBytes('POST', url, Buffer.from('{"event":{"text":"a\\u0000"}}'), 'application/json', bearer), 'event.text must not contain the NUL character');
    refused(await sendBytes('POST', url, Buffer.from(`{"e":${nestedJson(5_000)}}`), 'application/json', bearer), 'nested too deeply at e.a');
    const ok = await sendBytes('POST', url, Buffer.from(JSON.stringify({ n: 'é 😀' })), 'application/json', bearer);
    expect(ok.status, ok.text).toBe(200);
  });

  it('ordinary requests still work: text with accents and emoji, 150 levels of nesting, a normal variable', async () => {
    const name = 'Ünïcode 😀 — ok';
    const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: fx.workspaceId, name });
    expect(created.status).toBe(201);
    const got = await api<{ data: { name: string } }>('GET', `/api/workflows/${created.body.id}`);
    expect(got.body.data.name).toBe(name);
    const deep = await send('PUT', `/api/workflows/${created.body.id}`, { body: `{"marketplaceData":${nestedJson(150)}}` });
    expect(deep.status, deep.text).toBe(200);
    expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-bad-input-e2e', BAD_INPUT_OK: 'v 😀' } })).status).toBe(200);
    const env = await api<{ data: Record<string, { value: string }> }>('GET', '/api/environment');
    expect(env.body.data.BAD_INPUT_OK?.value).toBe('v 😀');
  });
});
