import dns from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, loadConfig, type Database } from '@weft/platform';
import { createAnthropicFake, createFakeServer, createTestDatabase, type FakeModelServer, type FakeServer } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { migrations } from '../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../runtime.js';
import { SandboxPool } from '../function/sandbox.js';
import type { RegistryPort } from '../adapters/registry.js';
import type { IntegrationsDB } from '../db.js';
import type { RouteAnswer } from '../tools/runtime/types.js';
import { guardedFetch, redirectedInit } from '../net/guardedFetch.js';

/**
 * Every fetching path of the tool runtime shares the outbound guard (net/guardedFetch.ts): an allowed
 * address (the fake on 127.0.0.1, as the operator's allowlist) that redirects to a loopback, private,
 * link-local (metadata) address — or to a name that resolves to one — is refused at that hop, and the
 * refused address is never contacted. The HTTP request tool's own checks are in executeTool.unit.test.ts.
 */

const context: CallContext = { workspaceId: 'ws-redirects', workflowId: 'wf-redirects', actorId: 'user-redirects' };
const ALLOW_FAKES = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
/** A name the tests' DNS answers with the metadata address (no real resolver is asked for it). */
const METADATA_NAME = 'metadata.weft.test';

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let site: FakeServer;
/** A second origin (another port) for the cross-origin hops. */
let other: FakeServer;
let anthropic: FakeModelServer;
let rt: ToolRuntime;
const sandbox = new SandboxPool({ size: 1 });

const registry: RegistryPort = {
  getOAuthToken: () => Promise.reject(new Error('no credentials in these tests')),
  listCustomTools: () => Promise.resolve({ toolsJson: '[]' }),
};

/** Where the fake's redirects point, and the host the refusal names. */
const TARGETS = [
  { name: 'metadata', location: 'http://169.254.169.254/latest/meta-data', host: '169.254.169.254' },
  { name: 'private', location: 'http://10.0.0.7/internal', host: '10.0.0.7' },
  { name: 'loopback-v6', location: 'http://[::1]:9/admin', host: '::1' },
  // Other spellings of the metadata address, as the URL parser reads them.
  { name: 'metadata-as-a-number', location: 'http://2852039166/latest/meta-data', host: '169.254.169.254' },
  { name: 'metadata-as-ipv4-mapped-v6', location: 'http://[::ffff:169.254.169.254]/latest/meta-data', host: '::ffff:a9fe:a9fe' },
  { name: 'name-resolving-to-metadata', location: `http://${METADATA_NAME}/latest/meta-data`, host: METADATA_NAME },
] as const;

const refusal = (host: string) => `Outbound request refused: ${host} is a loopback, private, link-local or reserved address`;

function call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<RouteAnswer> {
  return rt.routes.handle({ method, path, query, body, context, envVars: {} });
}

/** The fake's route answers a redirect to `location`. */
function redirectAll(method: string, path: string, location: string, status = 302): void {
  site.on(method, path, { status, headers: { location } });
}

/** The fake got only the requests the test made to it (none followed to the refused address). */
function onlyHopsReceived(paths: string[]): void {
  expect(site.requests.map((r) => r.path)).toEqual(paths);
}

beforeAll(async () => {
  database = await createTestDatabase<IntegrationsDB>('integrations_redirects', migrations);
  site = await createFakeServer();
  other = await createFakeServer();
  anthropic = await createAnthropicFake();
  const config = loadConfig({ ...process.env, WEFT_INSTANCE: 'tredirects' });
  const env = {
    WEFT_ELEVENLABS_BASE_URL: `${site.url}/elevenlabs`,
    WEFT_FIRECRAWL_BASE_URL: `${site.url}/firecrawl`,
    WEFT_ATLASSIAN_BASE_URL: `${site.url}/atlassian`,
    WEFT_SLACK_BASE_URL: `${site.url}/slack`,
    WEFT_ANTHROPIC_BASE_URL: anthropic.url,
  };
  rt = createToolRuntime({ db: database.db, logger: createLogger('integrations', 'silent'), config, env, registry, policy: ALLOW_FAKES, docsDir: null, sandbox });
  // The tests' resolver: METADATA_NAME is the metadata address; every other name resolves as usual.
  const lookup = dns.lookup.bind(dns);
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: dns.LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    if (hostname !== METADATA_NAME) return (lookup as (h: string, o: dns.LookupOptions, c: typeof callback) => void)(hostname, options, callback);
    const found = { address: '169.254.169.254', family: 4 };
    if (options.all) return void callback(null, [found]);
    return void callback(null, found.address, found.family);
  }) as unknown as typeof dns.lookup);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await rt?.close();
  await sandbox.close();
  await site?.close();
  await other?.close();
  await anthropic?.close();
  await database?.drop();
});
beforeEach(() => {
  site.reset();
  other.reset();
  anthropic.reset();
});

describe('a redirect to a refused address is refused on every fetching path', () => {
  it('follows a redirect between allowed addresses (the control case)', async () => {
    redirectAll('GET', '/hop', `${site.url}/cat.png`);
    site.on('GET', '/cat.png', { headers: { 'content-type': 'image/png' }, text: 'PNG' });
    const img = await call('GET', '/proxy/image', undefined, { url: `${site.url}/hop` });
    expect(img).toMatchObject({ status: 200, contentType: 'image/png' });
    onlyHopsReceived(['/hop', '/cat.png']);
  });

  describe.each(TARGETS)('to $name', ({ location, host }) => {
    it('the image proxy (GET /api/proxy/image)', async () => {
      redirectAll('GET', '/image', location);
      expect(await call('GET', '/proxy/image', undefined, { url: `${site.url}/image` })).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/image']);
    });

    it('the speech proxy (POST /api/proxy/tts) when the speech service redirects', async () => {
      redirectAll('POST', '/elevenlabs/v1/text-to-speech/:voice', location, 307);
      expect(await call('POST', '/proxy/tts', { apiKey: 'el-key', text: 'Hello', voiceId: 'v1' })).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/elevenlabs/v1/text-to-speech/v1']);
    });

    it('file parsing by URL (POST /api/files/parse)', async () => {
      redirectAll('GET', '/report.csv', location, 301);
      expect(await call('POST', '/files/parse', { filePath: `${site.url}/report.csv` })).toMatchObject({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/report.csv']);
    });

    it('a knowledge document’s fileUrl (POST /api/knowledge/{id}/documents); nothing is stored', async () => {
      const created = await call('POST', '/knowledge', { name: `Redirects ${host}` });
      const baseId = (created.body as { knowledgeBase: { id: string } }).knowledgeBase.id;
      redirectAll('GET', '/handbook.txt', location);
      const res = await call('POST', `/knowledge/${baseId}/documents`, { documents: [{ filename: 'handbook.txt', fileUrl: `${site.url}/handbook.txt`, mimeType: 'text/plain' }] });
      expect(res).toMatchObject({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/handbook.txt']);
      const docs = await call('GET', `/knowledge/${baseId}/documents`);
      expect(JSON.stringify(docs.body)).not.toContain('handbook.txt');
    });

    it('the Stagehand page load: extract, the agent’s start page and a page the agent opens', async () => {
      redirectAll('GET', '/shop', location);
      const extract = await call('POST', '/tools/stagehand/extract', { url: `${site.url}/shop`, instruction: 'Get the price', schema: { type: 'object' }, apiKey: 'sk-x' });
      expect(extract).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      const agent = await call('POST', '/tools/stagehand/agent', { task: 'Find the price', startUrl: `${site.url}/shop`, apiKey: 'sk-ant' });
      expect(agent).toEqual({ status: 400, body: { error: refusal(host), agentResult: { success: false, completed: false, message: refusal(host), actions: [] }, structuredOutput: null } });
      onlyHopsReceived(['/shop', '/shop']);
      expect(anthropic.chatRequests()).toEqual([]);

      // A page the model asks for: the goto fails with the refusal, which the model reads; the agent goes on.
      site.reset();
      site.on('GET', '/start', { headers: { 'content-type': 'text/html' }, text: '<html><head><title>Start</title></head><body><a href="/away">Away</a></body></html>' });
      redirectAll('GET', '/away', location);
      anthropic.reply(
        { toolCalls: [{ name: 'goto', arguments: { url: `${site.url}/away` }, id: 'toolu_away' }] },
        { toolCalls: [{ name: 'done', arguments: { success: false, message: 'The page could not be opened' }, id: 'toolu_done' }] },
      );
      const run = await call('POST', '/tools/stagehand/agent', { task: 'Open the link', startUrl: `${site.url}/start`, apiKey: 'sk-ant' });
      expect(run).toEqual({
        status: 200,
        body: {
          agentResult: {
            success: false,
            completed: true,
            message: 'The page could not be opened',
            actions: [
              { type: 'goto', url: `${site.url}/start`, title: 'Start' },
              { type: 'goto', url: `${site.url}/away`, error: refusal(host) },
            ],
          },
          structuredOutput: null,
        },
      });
      const second = JSON.stringify(anthropic.chatRequests()[1]?.body);
      expect(second).toContain(`Could not open ${site.url}/away: ${refusal(host)}`);
      onlyHopsReceived(['/start', '/away']);
    });

    it('the Firecrawl crawl status (GET /api/tools/firecrawl/crawl/{jobId})', async () => {
      redirectAll('GET', '/firecrawl/crawl/:id', location);
      expect(await call('GET', '/tools/firecrawl/crawl/job-9', undefined, { apiKey: 'fc-key' })).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/firecrawl/crawl/job-9']);
    });

    it('the Confluence page routes (the service client of internal routes)', async () => {
      redirectAll('GET', '/atlassian/oauth/token/accessible-resources', location);
      expect(await call('POST', '/tools/confluence/page', { domain: 'acme.atlassian.example', accessToken: 'atl', pageId: '42' })).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      expect(await call('PUT', '/tools/confluence/page', { domain: 'acme.atlassian.example', accessToken: 'atl', pageId: '42', content: 'x' })).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
      onlyHopsReceived(['/atlassian/oauth/token/accessible-resources', '/atlassian/oauth/token/accessible-resources']);
    });

    it('a service tool’s fetch (slack_message at its base URL) and a user-typed URL (clay_populate’s webhook)', async () => {
      redirectAll('POST', '/slack/chat.postMessage', location, 307);
      const slack = await rt.tools.execute({ toolId: 'slack_message', params: { accessToken: 'xoxb-1', channel: 'C1', text: 'hi' }, context }, 'answer');
      expect(slack).toMatchObject({ success: false, output: {}, error: refusal(host) });
      redirectAll('POST', '/hooks/clay', location, 308);
      const clay = await rt.tools.execute({ toolId: 'clay_populate', params: { webhookURL: `${site.url}/hooks/clay`, data: '{"a":1}', authToken: 'clay-token' }, context }, 'answer');
      expect(clay).toMatchObject({ success: false, output: {}, error: refusal(host) });
      onlyHopsReceived(['/slack/chat.postMessage', '/hooks/clay']);
    });

    it('a polling job’s start and status check (firecrawl_crawl’s activities), as a final failure', async () => {
      redirectAll('POST', '/firecrawl/crawl', location, 307);
      redirectAll('GET', '/firecrawl/crawl/:id', location);
      const input = { toolId: 'firecrawl_crawl', params: { apiKey: 'fc-key', url: 'https://weft.example' }, context, envVars: {}, intervalMs: 10, timeoutMs: 1000, timeoutMessage: 'late' };
      await expect(rt.jobActivities.startToolJob(input)).rejects.toMatchObject({ message: refusal(host), nonRetryable: true });
      await expect(rt.jobActivities.checkToolJob(input, 'crawl-7')).rejects.toMatchObject({ message: refusal(host), nonRetryable: true });
      onlyHopsReceived(['/firecrawl/crawl', '/firecrawl/crawl/crawl-7']);
    });
  });
});

/**
 * The hops the guard follows go on as the Fetch standard's HTTP-redirect fetch says: what the fake
 * behind the redirect received (method, body, headers) is checked.
 */
describe('the method, body and headers a followed redirect sends on (guardedFetch)', () => {
  /** Headers of a request with a body, besides the ones every hop keeps. */
  const BODY_HEADERS = { 'Content-Type': 'application/json', 'Content-Language': 'en', 'Content-Location': '/drafts/1', 'Content-Encoding': 'identity' };
  const BODY = '{"a":1}';

  /** Sends `method` (with a body unless GET/HEAD) to a route answering `status` to /to, and answers what /to received. */
  async function hop(status: number, method: string, to: FakeServer = site) {
    site.reset();
    other.reset();
    site.on(method, '/from', { status, headers: { location: `${to.url}/to` } });
    for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH']) to.on(m, '/to', { text: 'arrived' });
    const withBody = method !== 'GET' && method !== 'HEAD';
    const res = await guardedFetch(
      `${site.url}/from`,
      { method, headers: { 'X-Trace': 't-1', Authorization: 'Bearer secret', Cookie: 'sid=1', 'Proxy-Authorization': 'Basic cHJveHk=', ...(withBody ? { ...BODY_HEADERS, 'Content-Length': String(BODY.length) } : {}) }, ...(withBody ? { body: BODY } : {}) },
      ALLOW_FAKES,
    );
    expect(res.status).toBe(200);
    expect(to.requests.map((r) => r.path)).toEqual(to === site ? ['/from', '/to'] : ['/to']);
    return to.requests.at(-1)!;
  }

  const bodyHeaderNames = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

  it.each([
    [301, 'POST'],
    [302, 'POST'],
    [303, 'POST'],
    [303, 'PUT'],
    [303, 'DELETE'],
    [303, 'PATCH'],
  ])('a %i turns %s into a GET without the body and its headers', async (status, method) => {
    const got = await hop(status, method);
    expect(got.method).toBe('GET');
    expect(got.text).toBe('');
    expect(bodyHeaderNames.filter((h) => h in got.headers)).toEqual([]);
    expect(got.headers).toMatchObject({ 'x-trace': 't-1', authorization: 'Bearer secret', cookie: 'sid=1' });
  });

  it.each([
    [303, 'HEAD'],
    [303, 'GET'],
    [301, 'HEAD'],
    [302, 'GET'],
  ])('a %i keeps %s', async (status, method) => {
    const got = await hop(status, method);
    expect(got.method).toBe(method);
    expect(got.headers).toMatchObject({ 'x-trace': 't-1', authorization: 'Bearer secret' });
  });

  it.each([
    [301, 'PUT'],
    [302, 'DELETE'],
    [307, 'POST'],
    [308, 'PUT'],
  ])('a %i keeps %s with its body and the body’s headers', async (status, method) => {
    const got = await hop(status, method);
    expect(got.method).toBe(method);
    expect(got.text).toBe(BODY);
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', 'content-length': String(BODY.length), 'content-language': 'en', 'content-location': '/drafts/1', 'content-encoding': 'identity', authorization: 'Bearer secret' });
  });

  it('a hop to another origin goes without Authorization, Cookie and Proxy-Authorization; other headers and the body go on', async () => {
    const got = await hop(307, 'POST', other);
    expect(['authorization', 'cookie', 'proxy-authorization'].filter((h) => h in got.headers)).toEqual([]);
    expect(got.headers).toMatchObject({ 'x-trace': 't-1', 'content-type': 'application/json' });
    expect(got.text).toBe(BODY);
    const turned = await hop(303, 'POST', other);
    expect(['authorization', 'cookie', 'proxy-authorization', ...bodyHeaderNames].filter((h) => h in turned.headers)).toEqual([]);
    expect(turned).toMatchObject({ method: 'GET', text: '', headers: { 'x-trace': 't-1' } });
  });

  it('another origin is another scheme too (https to http on the default ports), not only another host', () => {
    const init = { method: 'GET', headers: { Authorization: 'Bearer secret', 'X-Trace': 't-1' } };
    const at = (from: string, to: string) => redirectedInit(init, 302, new URL(from), new URL(to)).headers;
    expect(at('https://api.weft.example/a', 'http://api.weft.example/b')).toEqual({ 'X-Trace': 't-1' });
    expect(at('https://api.weft.example/a', 'https://api.weft.example:8443/b')).toEqual({ 'X-Trace': 't-1' });
    expect(at('https://api.weft.example/a', 'https://API.weft.example:443/b')).toEqual(init.headers);
  });
});
