import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import type { ExecuteToolInput } from '@weft/contracts';
import { createToolExecutor } from './executeTool.js';
import { createBaseUrls } from './baseUrls.js';
import { SERVICE_BASE_URLS } from '../services/baseUrls.js';
import { forLog, TransientToolError } from './errors.js';
import { SandboxPool } from '../../function/sandbox.js';
import type { CustomTool, RouteRequest, ToolRuntimeDeps } from './types.js';
import type { AddressPolicy } from '../../net/addressPolicy.js';
import type { ServiceTool } from '../serviceTool.js';
import { registryCustomTools } from '../../adapters/registry.js';

const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const context = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'user1' };

let fake: FakeServer;
const sandbox = new SandboxPool({ size: 1 });
const routeCalls: RouteRequest[] = [];
let tokens: Record<string, string>;
let customTools: CustomTool[];
let tokenFailure: Error | null;

function executor(overrides: Partial<ToolRuntimeDeps> = {}) {
  return createToolExecutor({
    policy: ALLOW_FAKES,
    // keyed by the host of Firecrawl's default base URL (a host-keyed override), never naming it here
    baseUrls: createBaseUrls({ [new URL(SERVICE_BASE_URLS.firecrawl).host]: fake.url }, {}),
    credentials: {
      accessToken(_ctx, id) {
        if (tokenFailure) return Promise.reject(tokenFailure);
        const t = tokens[id];
        return t ? Promise.resolve(t) : Promise.reject(new AppError('not_found', 'Credential not found'));
      },
    },
    customTools: { list: () => Promise.resolve(customTools) },
    internal: {
      handle(req) {
        routeCalls.push(req);
        if (req.path === '/memory') return Promise.resolve({ status: 400, body: { error: 'Role and content are required for agent memory' } });
        if (req.path === '/memory/down') return Promise.resolve({ status: 500, body: { success: false, error: 'Internal server error' } });
        if (req.path === '/memory/busy') return Promise.resolve({ status: 429, body: { success: false, error: 'Rate limit exceeded', output: { retryAfter: 2 } } });
        return Promise.resolve({ status: 200, body: { success: true, output: { memories: [{ role: 'user', content: 'hi' }], id: 'k' } } });
      },
    },
    serviceTools: {},
    logger: createLogger('integrations', 'silent'),
    runCode: (run) => sandbox.run(run),
    ...overrides,
  });
}

const call = (toolId: string, params: Record<string, unknown>, extra: Partial<ExecuteToolInput> = {}) => executor().execute({ toolId, params, context, ...extra }, 'answer');

beforeAll(async () => {
  fake = await createFakeServer();
});
afterAll(async () => {
  await fake.close();
  await sandbox.close();
});
beforeEach(() => {
  fake.reset();
  routeCalls.length = 0;
  tokens = { cred1: 'tok-abcdef123' };
  customTools = [];
  tokenFailure = null;
});

describe('execution layer', () => {
  it('answers Tool not found for an unknown id, as a value with timing', async () => {
    const res = await call('nope_tool', {});
    expect(res).toMatchObject({ success: false, error: 'Tool not found: nope_tool' });
    expect(res.timing.duration).toBeGreaterThanOrEqual(0);
    expect(Date.parse(res.timing.endTime)).toBeGreaterThanOrEqual(Date.parse(res.timing.startTime));
    // The tool is resolved before its credential: no token is fetched for an unknown tool.
    tokenFailure = new AppError('not_found', 'Credential not found');
    expect(await call('nope_tool', { credential: 'cred1' })).toMatchObject({ success: false, error: 'Tool not found: nope_tool' });
  });

  it('cuts error text in logs to 200 characters', () => {
    expect(forLog('x'.repeat(200))).toBe('x'.repeat(200));
    expect(forLog('x'.repeat(500))).toHaveLength(200);
    expect(forLog('x'.repeat(500)).endsWith('…')).toBe(true);
  });

  it('logs a failed answer (a tool error, an answered failure) with its text redacted and cut to 200 characters, the logged record itself', async () => {
    const lines: string[] = [];
    const logged = executor({ logger: createLogger('integrations', 'debug', { write: (line: string) => lines.push(line) }) });
    const records = () => lines.map((l) => JSON.parse(l) as { msg: string; toolId?: string; error?: string });
    customTools = [{ id: 'loud', title: 'Loud', schema: { type: 'object', properties: {} }, code: `throw new Error('refused for ' + {{TOKEN}} + ': ' + 'x'.repeat(400))` }];
    const res = await logged.execute({ toolId: 'custom_loud', params: {}, context, envVars: { TOKEN: 'tok-logged-secret-9' } }, 'answer');
    expect(res.error).toMatch(/^Custom tool execution error: refused for \[REDACTED\]: x{400}$/);
    const [failure, ...more] = records().filter((r) => r.msg === 'tool call answered an error');
    expect(more).toEqual([]);
    expect(failure).toMatchObject({ toolId: 'custom_loud', error: `${(res.error ?? '').slice(0, 199)}…` });
    expect(failure?.error).toHaveLength(200);
    // A failure the tool answers as a value (an HTTP 404) is logged the same way.
    fake.on('GET', '/gone', { status: 404, json: { error: 'gone' } });
    await logged.execute({ toolId: 'http_request', params: { url: `${fake.url}/gone` }, context }, 'answer');
    expect(records().filter((r) => r.msg === 'tool call answered an error').at(-1)).toMatchObject({ toolId: 'http_request', error: 'HTTP error 404: Not Found' });
  });

  it('checks required user-or-llm parameters', async () => {
    expect(await call('http_request', {})).toMatchObject({ success: false, error: 'Parameter "url" is required for http_request but was not provided.' });
  });

  it('fetches the access token for a credential, passes it as accessToken and drops the credential', async () => {
    let seen: Record<string, unknown> = {};
    const tool: ServiceTool = { id: 'slack_message', execute: (p) => { seen = p; return Promise.resolve({ ok: true }); } };
    const res = await executor({ serviceTools: { slack_message: tool } }).execute({ toolId: 'slack_message', params: { credential: 'cred1', channel: 'C1', text: 'hi' }, context }, 'answer');
    expect(res).toMatchObject({ success: true, output: { ok: true } });
    expect(seen).toEqual({ accessToken: 'tok-abcdef123', channel: 'C1', text: 'hi' });
  });

  it('says which credential failed and why', async () => {
    const res = await call('slack_message', { credential: 'missing', channel: 'C1', text: 'hi' });
    expect(res).toMatchObject({ success: false, error: 'Failed to obtain credential for tool slack_message: Failed to fetch access token: 404 Credential not found' });
  });

  it("a provider's refusal (a revoked grant) is permanent: answered, not thrown for a retry, with the registry's message once", async () => {
    tokenFailure = new AppError('unauthenticated', 'Failed to fetch access token: 400 {"error":"invalid_grant"}');
    const input = { toolId: 'slack_message', params: { credential: 'cred1', channel: 'C1', text: 'x' }, context };
    expect(await executor().execute(input, 'throw')).toMatchObject({
      success: false,
      error: 'Failed to obtain credential for tool slack_message: Failed to fetch access token: 400 {"error":"invalid_grant"}',
    });
  });

  it('an unreachable registry is transient: thrown in activity mode, answered otherwise', async () => {
    tokenFailure = new AppError('unavailable', 'registry unavailable');
    const input = { toolId: 'slack_message', params: { credential: 'cred1', channel: 'C1', text: 'x' }, context };
    await expect(executor().execute(input, 'throw')).rejects.toBeInstanceOf(TransientToolError);
    expect(await executor().execute(input, 'answer')).toMatchObject({ success: false, error: expect.stringContaining('Failed to obtain credential for tool slack_message') });
  });

  it('an unreachable registry while loading custom tools is transient too (thrown in activity mode); a refusal is the answer; both in spec 000 §8 words', async () => {
    const input = { toolId: 'custom_weather', params: { city: 'x' }, context };
    const failing = (err: Error) => executor({ customTools: { list: () => Promise.reject(err) } });
    await expect(failing(new AppError('unavailable', 'connect ECONNREFUSED')).execute(input, 'throw')).rejects.toThrow(new TransientToolError('Failed to load custom tools: Service Unavailable'));
    await expect(failing(new AppError('timeout', 'deadline exceeded')).execute(input, 'throw')).rejects.toBeInstanceOf(TransientToolError);
    expect(await failing(new AppError('unavailable', 'connect ECONNREFUSED')).execute(input, 'answer')).toMatchObject({ success: false, error: 'Failed to load custom tools: Service Unavailable' });
    expect(await failing(new AppError('forbidden', 'Access denied')).execute(input, 'throw')).toMatchObject({ success: false, error: 'Failed to load custom tools: Forbidden' });
  });

  it("custom tools the registry gives as something other than a list answer spec 000 §8's 'Invalid response format' (was: no tools, so 'Tool not found')", async () => {
    const input = { toolId: 'custom_weather', params: { city: 'x' }, context };
    const fromRegistry = (toolsJson: string) =>
      executor({ customTools: registryCustomTools({ getOAuthToken: () => Promise.reject(new Error('unused')), listCustomTools: () => Promise.resolve({ toolsJson }) }) });
    for (const toolsJson of ['{"tools":[]}', '"weather"', 'null', '{not json']) {
      expect(await fromRegistry(toolsJson).execute(input, 'answer'), toolsJson).toMatchObject({ success: false, error: 'Invalid response format' });
      expect(await fromRegistry(toolsJson).execute(input, 'throw'), toolsJson).toMatchObject({ success: false, error: 'Invalid response format' });
    }
    const weather = { id: 'weather', title: 'Weather', schema: { type: 'function', function: { name: 'w', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }, code: 'return 21' };
    expect(await fromRegistry(JSON.stringify([weather, { id: 1 }])).execute(input, 'answer')).toMatchObject({ success: true, output: 21 });
    expect(await fromRegistry('').execute(input, 'answer')).toMatchObject({ success: false, error: 'Tool not found: custom_weather' });
  });

  it('calls internal tools through their route code with the context workflowId', async () => {
    const res = await call('memory_get', { id: 'k' });
    expect(res).toMatchObject({ success: true, output: { memories: [{ role: 'user', content: 'hi' }], id: 'k' } });
    expect(routeCalls[0]).toMatchObject({ method: 'GET', path: '/memory/k', query: { workflowId: 'wf1' } });
    expect(await call('memory_add', { id: 'k', role: 'user', content: '' })).toMatchObject({ success: false, error: 'Parameter "content" is required for memory_add but was not provided.' });
  });

  it('a 5xx or 429 from an internal route is transient: thrown for a run to try again, answered otherwise; a 4xx is the answer', async () => {
    const input = (id: string) => ({ toolId: 'memory_get', params: { id }, context });
    await expect(executor().execute(input('down'), 'throw')).rejects.toMatchObject({ name: 'TransientToolError', message: 'Internal server error', status: 500 });
    await expect(executor().execute(input('busy'), 'throw')).rejects.toMatchObject({ name: 'TransientToolError', status: 429 });
    expect(await executor().execute(input('down'), 'answer')).toMatchObject({ success: false, error: 'Internal server error' });
    expect(await executor().execute(input('busy'), 'answer')).toMatchObject({ success: false, error: 'Rate limit exceeded', output: { retryAfter: 2 } });
    expect(await executor().execute({ toolId: 'memory_add', params: { id: 'k', role: 'user', content: 'x' }, context }, 'throw')).toMatchObject({ success: false, error: 'Role and content are required for agent memory' });
  });

  it('builds other tools from their metadata against the configured base URL', async () => {
    fake.on('POST', '/v1/scrape', { json: { success: true, data: { markdown: '# hi' } } });
    const res = await call('firecrawl_scrape', { apiKey: 'fc-secret-key', url: 'https://example.com' });
    expect(res).toMatchObject({ success: true, output: { success: true, data: { markdown: '# hi' } } });
    const [req] = fake.received('POST', '/v1/scrape');
    expect(req?.headers.authorization).toBe('Bearer fc-secret-key');
    expect(req?.body).toEqual({ url: 'https://example.com' });
  });

  it('maps answered errors: API Error with detail, Request failed with status, Failed to parse response', async () => {
    fake.once('POST', '/v1/scrape', { status: 400, json: { error: 'bad url' } });
    expect(await call('firecrawl_scrape', { apiKey: 'k-123456', url: 'x' })).toMatchObject({ success: false, error: 'API Error: Bad Request - bad url' });
    fake.once('POST', '/v1/scrape', { status: 403, text: '' });
    expect(await call('firecrawl_scrape', { apiKey: 'k-123456', url: 'x' })).toMatchObject({ success: false, error: 'Request failed with status 403' });
    fake.once('POST', '/v1/scrape', { status: 200, text: 'not json' });
    expect(await call('firecrawl_scrape', { apiKey: 'k-123456', url: 'x' })).toMatchObject({ success: false, error: 'Failed to parse response from firecrawl_scrape' });
  });

  it('5xx and 429 from a service are transient in activity mode', async () => {
    fake.once('POST', '/v1/scrape', { status: 503, json: {} });
    await expect(executor().execute({ toolId: 'firecrawl_scrape', params: { apiKey: 'k-123456', url: 'x' }, context }, 'throw')).rejects.toThrow('HTTP error 503: Service Unavailable');
    fake.once('POST', '/v1/scrape', { status: 429, json: {} });
    expect(await call('firecrawl_scrape', { apiKey: 'k-123456', url: 'x' })).toMatchObject({ success: false, error: 'HTTP error 429: Too Many Requests' });
  });

  it('never puts secrets in results or errors', async () => {
    fake.on('POST', '/v1/scrape', (r) => ({ status: 400, json: { error: `key ${String(r.headers.authorization)} is invalid`, echo: r.headers.authorization } }));
    const res = await call('firecrawl_scrape', { apiKey: 'fc-very-secret-9', url: 'x' });
    expect(JSON.stringify(res)).not.toContain('fc-very-secret-9');
    expect(res.error).toContain('[REDACTED]');
    fake.on('GET', '/echo', (r) => ({ json: { auth: r.headers.authorization } }));
    const viaEnv = await executor().execute({ toolId: 'http_request', params: { url: `${fake.url}/echo`, headers: { Authorization: 'Bearer env-secret-77' } }, context, envVars: { TOKEN: 'env-secret-77' } }, 'answer');
    expect(JSON.stringify(viaEnv)).not.toContain('env-secret-77');
    // A secret with characters JSON escapes is found in the answer too, and the answer keeps its shape.
    fake.on('GET', '/echo-quoted', (r) => ({ json: { auth: r.headers['x-key'], n: 1 } }));
    const quoted = 'q"uo\\ted-secret';
    const viaQuoted = await executor().execute({ toolId: 'http_request', params: { url: `${fake.url}/echo-quoted`, headers: { 'X-Key': quoted } }, context, envVars: { Q: quoted } }, 'answer');
    expect(viaQuoted.output).toMatchObject({ data: { auth: '[REDACTED]', n: 1 } });
  });

  it('never puts a secret in results or errors encoded either: in a URL, a form body or JSON an answer echoes', async () => {
    const secret = 'a b/c+d?é';
    const logged = executor();
    fake.on('GET', '/items', (r) => ({ status: 401, json: { error: `bad key in ${r.path}${r.search}`, asForm: new URLSearchParams({ api_key: r.query.api_key ?? '' }).toString() } }));
    const url = `${fake.url}/items?api_key=${encodeURIComponent(secret)}`;
    const res = await logged.execute({ toolId: 'http_request', params: { url }, context, envVars: { API_KEY: secret } }, 'answer');
    expect(res).toMatchObject({ success: false, output: { status: 401, data: { error: 'bad key in /items?api_key=[REDACTED]', asForm: 'api_key=[REDACTED]' } } });
    // A provider's error quoting the request's JSON body, written ASCII-only, in the failure's message.
    fake.on('POST', '/v1/scrape', (r) => ({ status: 400, json: { error: `upstream refused ${JSON.stringify(r.body).replace(/é/g, '\\u00e9')}` } }));
    const scraped = await logged.execute({ toolId: 'firecrawl_scrape', params: { apiKey: 'fc-key-1234', url: `https://example.com/?q=${secret}` }, context, envVars: { API_KEY: secret } }, 'answer');
    expect(scraped.error).toContain('upstream refused {"url":"https://example.com/?q=[REDACTED]"');
    const everything = JSON.stringify(res) + JSON.stringify(scraped);
    for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2), 'u00e9']) expect(everything).not.toContain(form);
    expect(everything).toContain('[REDACTED]');
  });

  it('never writes secrets to the logs either (warnings of failed and transient calls, grepped)', async () => {
    const lines: string[] = [];
    const logger = createLogger('integrations', 'debug', { write: (line: string) => lines.push(line) });
    const logged = executor({ logger });
    fake.on('POST', '/v1/scrape', (r) => ({ status: 503, json: { error: `bad ${String(r.headers.authorization)}` } }));
    await logged.execute({ toolId: 'firecrawl_scrape', params: { apiKey: 'fc-log-secret-1', url: 'x' }, context }, 'answer');
    tokenFailure = new Error('refused token tk-log-secret-2');
    await logged.execute({ toolId: 'firecrawl_scrape', params: { credential: 'cred-1', url: 'x' }, context, envVars: { K: 'tk-log-secret-2' } }, 'answer');
    tokenFailure = null;
    await logged.execute({ toolId: 'http_request', params: { url: 'http://127.0.0.1:1/x', headers: { Authorization: 'env-log-secret-3' } }, context, envVars: { T: 'env-log-secret-3' } }, 'answer');
    expect(lines.length).toBeGreaterThan(0);
    const text = lines.join('');
    for (const secret of ['fc-log-secret-1', 'tk-log-secret-2', 'env-log-secret-3']) expect(text).not.toContain(secret);
  });
});

describe('http_request', () => {
  it('sends method, query, table headers and JSON body; answers {data, status, headers}', async () => {
    fake.on('POST', '/items', { status: 201, json: { id: 7 }, headers: { 'x-answer': 'yes' } });
    const res = await call('http_request', {
      url: `${fake.url}/items`,
      method: 'POST',
      params: [{ id: 'r1', cells: { Key: 'q', Value: 'a b' } }],
      headers: [{ id: 'r2', cells: { Key: 'X-Test', Value: '1' } }, { id: 'r3', cells: { Key: '', Value: 'ignored' } }],
      body: { name: 'n' },
    });
    expect(res).toMatchObject({ success: true, output: { data: { id: 7 }, status: 201, headers: { 'x-answer': 'yes' } } });
    const [req] = fake.received('POST', '/items');
    expect(req?.query).toEqual({ q: 'a b' });
    expect(req?.headers['x-test']).toBe('1');
    expect(req?.body).toEqual({ name: 'n' });
  });

  it("sends a JSON text body (the API block's body field) as application/json unless a header says otherwise", async () => {
    fake.on('POST', '/json-text', (r) => ({ json: { type: r.headers['content-type'] ?? null, body: r.body } }));
    const sent = (body: string, headers?: unknown) => call('http_request', { url: `${fake.url}/json-text`, method: 'POST', body, ...(headers ? { headers } : {}) });
    expect(await sent('{"items": [1, 2], "name": "x"}')).toMatchObject({ success: true, output: { data: { type: 'application/json', body: { items: [1, 2], name: 'x' } } } });
    expect(await sent('[1, 2]')).toMatchObject({ output: { data: { type: 'application/json' } } });
    expect(await sent('{"a": 1}', [{ id: 'r1', cells: { Key: 'content-type', Value: 'text/plain' } }])).toMatchObject({ output: { data: { type: 'text/plain' } } });
    // Text that is not a JSON object or array is sent as the fetch sends text.
    expect((await sent('plain words')).output).not.toMatchObject({ data: { type: 'application/json' } });
    expect((await sent('{not json')).output).not.toMatchObject({ data: { type: 'application/json' } });
  });

  it('answers HTTP error {status}: {statusText} with the response', async () => {
    fake.on('GET', '/missing', { status: 404, json: { error: 'no' } });
    expect(await call('http_request', { url: `${fake.url}/missing` })).toMatchObject({ success: false, error: 'HTTP error 404: Not Found', output: { status: 404, data: { error: 'no' } } });
  });

  it('times out with the spec message', async () => {
    fake.on('GET', '/slow', { delayMs: 10_000, json: {} });
    expect(await call('http_request', { url: `${fake.url}/slow`, timeout: 100 })).toMatchObject({ success: false, error: 'Request timeout after 100ms' });
  });

  it('a dropped connection is transient', async () => {
    fake.on('GET', '/drop', { destroy: true });
    await expect(executor().execute({ toolId: 'http_request', params: { url: `${fake.url}/drop` }, context }, 'throw')).rejects.toBeInstanceOf(TransientToolError);
  });

  it('429, 5xx and a timeout are transient for a run (tried again); answered, they keep the response; other statuses are the answer', async () => {
    fake.on('GET', '/busy', { status: 503, json: { retry: 'later' } });
    fake.on('GET', '/limited', { status: 429, json: {} });
    fake.on('GET', '/late', { delayMs: 10_000, json: {} });
    fake.on('GET', '/gone', { status: 404, json: {} });
    const inRun = (path: string, extra: Record<string, unknown> = {}) => executor().execute({ toolId: 'http_request', params: { url: `${fake.url}${path}`, ...extra }, context }, 'throw');
    await expect(inRun('/busy')).rejects.toBeInstanceOf(TransientToolError);
    await expect(inRun('/busy')).rejects.toThrow('HTTP error 503: Service Unavailable');
    // Thrown with the response, so the run keeps the last try's answer as it keeps a 404's.
    await expect(inRun('/busy')).rejects.toMatchObject({ status: 503, output: { status: 503, data: { retry: 'later' }, headers: expect.objectContaining({ 'content-type': expect.stringContaining('application/json') }) } });
    await expect(inRun('/limited')).rejects.toThrow('HTTP error 429: Too Many Requests');
    await expect(inRun('/late', { timeout: 100 })).rejects.toBeInstanceOf(TransientToolError);
    await expect(inRun('/late', { timeout: 100 })).rejects.toThrow('Request timeout after 100ms');
    expect(await inRun('/gone')).toMatchObject({ success: false, error: 'HTTP error 404: Not Found', output: { status: 404 } });
    expect(await call('http_request', { url: `${fake.url}/busy` })).toMatchObject({ success: false, error: 'HTTP error 503: Service Unavailable', output: { status: 503, data: { retry: 'later' } } });
  });

  it('a thrown 5xx answer has the run’s secrets [REDACTED], as an answered one', async () => {
    fake.on('GET', '/echo-busy', { status: 502, json: { echoed: 'token sk-live-9f8e7d' } });
    const thrown = executor().execute({ toolId: 'http_request', params: { url: `${fake.url}/echo-busy` }, context, envVars: { API_KEY: 'sk-live-9f8e7d' } }, 'throw');
    await expect(thrown).rejects.toMatchObject({ output: { status: 502, data: { echoed: 'token [REDACTED]' } } });
  });
});

describe('outbound address guard', () => {
  const strict = () => executor({ policy: { allowPrivateNetwork: false, allowlist: [] } });
  const run = (url: string) => strict().execute({ toolId: 'http_request', params: { url }, context }, 'answer');

  it.each(['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://10.0.0.1/x', 'http://192.168.1.1/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]:9/', 'http://0.0.0.0:9/', 'http://100.100.100.200/'])('refuses %s', async (url) => {
    const res = await run(url);
    expect(res).toMatchObject({ success: false, error: expect.stringContaining('Outbound request refused') });
  });

  it('refuses a redirect from an allowed address to a refused one', async () => {
    fake.on('GET', '/hop', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
    const res = await call('http_request', { url: `${fake.url}/hop` });
    expect(res).toMatchObject({ success: false, error: expect.stringContaining('169.254.169.254') });
  });

  it('follows redirects between allowed addresses', async () => {
    fake.on('GET', '/a', { status: 302, headers: { location: '/b' } });
    fake.on('GET', '/b', { json: { at: 'b' } });
    expect(await call('http_request', { url: `${fake.url}/a` })).toMatchObject({ success: true, output: { data: { at: 'b' } } });
  });

  it('WEFT_ALLOW_PRIVATE_NETWORK lets every address through', async () => {
    fake.on('GET', '/ok', { json: { ok: 1 } });
    const res = await executor({ policy: { allowPrivateNetwork: true, allowlist: [] } }).execute({ toolId: 'http_request', params: { url: `${fake.url}/ok` }, context }, 'answer');
    expect(res).toMatchObject({ success: true });
  });

  it('guards service tools through ToolIO.fetch too', async () => {
    const tool: ServiceTool = { id: 'slack_message', execute: async (_p, io) => (await io.fetch('http://127.0.0.1:9/x')).status };
    const res = await strict().execute({ toolId: 'slack_message', params: { accessToken: 't', channel: 'c', text: 'x' }, context }, 'answer');
    expect(res.success).toBe(false);
    const guarded = await executor({ policy: { allowPrivateNetwork: false, allowlist: [] }, serviceTools: { slack_message: tool } }).execute({ toolId: 'slack_message', params: { channel: 'c', text: 'x' }, context }, 'answer');
    expect(guarded).toMatchObject({ success: false, error: expect.stringContaining('Outbound request refused') });
  });
});

describe('custom tools', () => {
  const weather: CustomTool = {
    id: 'weather',
    title: 'Weather',
    schema: { type: 'function', function: { name: 'get_weather', description: 'd', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } }, required: ['city'] } } },
    code: 'return { city, days: <days>, key: {{API_KEY}}, viaParams: params.city }',
  };

  it('runs the code with params and substituted placeholders', async () => {
    customTools = [weather];
    const res = await executor().execute({ toolId: 'custom_weather', params: { city: 'Oslo', days: 3, workflowId: 'wf1', _context: {} }, context, envVars: { API_KEY: 'k1' } }, 'answer');
    expect(res).toMatchObject({ success: true, output: { city: 'Oslo', days: 3, key: 'k1', viaParams: 'Oslo' } });
  });

  it.each([
    [{ days: 1 }, 'Required parameter missing: city'],
    [{ city: 'x', extra: 1 }, 'Unknown parameter: extra'],
    [{ city: 1 }, 'Parameter city should be a string'],
    [{ city: 'x', days: '2' }, 'Parameter days should be a number'],
  ])('checks %j against the schema, answering spec 000 §5’s message as it is', async (params, error) => {
    customTools = [weather];
    expect(await call('custom_weather', params)).toMatchObject({ success: false, error });
  });

  it('refuses a schema that is not an object, code-less tools, unknown ids and failing code', async () => {
    customTools = [
      { ...weather, id: 'bad', schema: { function: { parameters: { type: 'array' } } } },
      { ...weather, id: 'empty', code: '  ' },
      { ...weather, id: 'throws', code: 'throw new Error("boom")' },
    ];
    expect(await call('custom_bad', { city: 'x' })).toMatchObject({ error: 'Invalid schema format' });
    expect(await call('custom_empty', { city: 'x' })).toMatchObject({ error: 'No code provided for tool execution' });
    expect(await call('custom_none', {})).toMatchObject({ error: 'Tool not found: custom_none' });
    // What the code threw, by its message (not 'Error: boom'), and a limit it hit, in spec 000 §8's words.
    expect(await call('custom_throws', { city: 'x' })).toMatchObject({ success: false, error: 'Custom tool execution error: boom' });
    customTools = [{ ...weather, id: 'typed', code: 'null.x' }, { ...weather, id: 'silent', code: 'throw new Error("")' }];
    expect(await call('custom_typed', { city: 'x' })).toMatchObject({ success: false, error: "Custom tool execution error: cannot read property 'x' of null" });
    expect(await call('custom_silent', { city: 'x' })).toMatchObject({ success: false, error: 'Custom tool execution failed' });
  });
});
