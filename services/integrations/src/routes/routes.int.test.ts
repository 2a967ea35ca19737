import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, loadConfig, type Database } from '@weft/platform';
import { createFakeServer, createSmtpFake, createTestDatabase, type FakeServer, type SmtpFake } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { migrations } from '../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../runtime.js';
import { integrationsHandlers } from '../adapters/grpc.js';
import { SandboxPool } from '../function/sandbox.js';
import type { RegistryPort } from '../adapters/registry.js';
import type { IntegrationsDB } from '../db.js';
import type { RouteRequest } from '../tools/runtime/types.js';
import { createRouter } from './router.js';
import { memoryRoutes } from './memory.routes.js';

const context: CallContext = { workspaceId: 'ws1', workflowId: 'wf-routes', actorId: 'user1' };
const ALLOW_FAKES = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const DENY_PRIVATE = { allowPrivateNetwork: false, allowlist: [] };

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let fake: FakeServer;
let smtp: SmtpFake;
let docsDir: string;
let rt: ToolRuntime;
let strict: ToolRuntime;
const sandbox = new SandboxPool({ size: 1 });
let tokenCalls = 0;

const registry: RegistryPort = {
  getOAuthToken: ({ credentialId }) => {
    tokenCalls += 1;
    return Promise.resolve({ accessToken: `token-${credentialId}-${tokenCalls}` });
  },
  listCustomTools: () =>
    Promise.resolve({
      toolsJson: JSON.stringify([
        { id: 'greet', title: 'Greet', schema: { type: 'function', function: { name: 'greet', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, code: 'return `hello ${name}, key {{GREETING_KEY}}`' },
        { id: 'broken-entry', title: 3, schema: {} },
      ]),
    }),
};

function call(runtime: ToolRuntime, method: string, p: string, body?: unknown, query: Record<string, string> = {}, ctx: CallContext = context) {
  const req: RouteRequest = { method, path: p, query, body, context: ctx, envVars: {} };
  return runtime.routes.handle(req);
}

beforeAll(async () => {
  database = await createTestDatabase<IntegrationsDB>('integrations_routes', migrations);
  fake = await createFakeServer();
  smtp = await createSmtpFake({ credentials: { username: 'mailer', password: 'smtp-pass-123' } });
  docsDir = mkdtempSync(path.join(tmpdir(), 'weft-docs-'));
  writeFileSync(path.join(docsDir, 'tools.md'), '# Tools\n\nThe HTTP request tool sends requests.\n\n## Memory\n\nAgent memories are kept per workflow.\n');
  writeFileSync(path.join(docsDir, 'runs.md'), '# Runs\n\nA run executes a workflow from its starter block.\n');
  const config = loadConfig({ ...process.env, WEFT_INSTANCE: 'troutes' });
  const logger = createLogger('integrations', 'silent');
  const env = { WEFT_ELEVENLABS_BASE_URL: fake.url, WEFT_FIRECRAWL_BASE_URL: `${fake.url}/fc`, WEFT_ATLASSIAN_BASE_URL: `${fake.url}/atl` };
  rt = createToolRuntime({ db: database.db, logger, config, env, registry, policy: ALLOW_FAKES, docsDir, sandbox });
  strict = createToolRuntime({ db: database.db, logger, config, env, registry, policy: DENY_PRIVATE, docsDir, sandbox });
});
afterAll(async () => {
  await rt?.close();
  await strict?.close();
  await sandbox.close();
  await fake?.close();
  await smtp?.close();
  await database?.drop();
  if (docsDir) rmSync(docsDir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  smtp.mails.length = 0;
});

describe('memory routes (Postgres)', () => {
  it('adds, appends, lists, reads and deletes agent memories scoped by workflow', async () => {
    expect(await call(rt, 'POST', '/memory', { key: 'chat', type: 'agent', data: { role: 'user', content: 'hi' } })).toMatchObject({ status: 200, body: { success: true, output: { id: 'chat', memories: [{ role: 'user', content: 'hi' }] } } });
    const appended = await call(rt, 'POST', '/memory', { key: 'chat', type: 'agent', data: { role: 'assistant', content: 'hello' } });
    expect(appended.body).toMatchObject({ output: { memories: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] } });
    const other = { ...context, workflowId: 'wf-other' };
    expect(await call(rt, 'GET', '/memory', undefined, {}, other)).toMatchObject({ status: 200, body: { output: { memories: [] } } });
    const list = await call(rt, 'GET', '/memory');
    expect(list.body).toMatchObject({ success: true, output: { memories: [{ key: 'chat', workflowId: 'wf-routes' }] } });
    expect(await call(rt, 'GET', '/memory/chat')).toMatchObject({ status: 200, body: { output: { id: 'chat' } } });
    expect(await call(rt, 'GET', '/memory/chat', undefined, {}, other)).toMatchObject({ status: 404, body: { error: 'Memory not found' } });
    expect(await call(rt, 'DELETE', '/memory/chat')).toMatchObject({ status: 200, body: { output: { message: 'Memory deleted successfully' } } });
    expect(await call(rt, 'GET', '/memory/chat')).toMatchObject({ status: 404 });
  });

  it('answers the spec messages for a missing workflow or role and content', async () => {
    const noWorkflow = { ...context, workflowId: '' };
    expect(await call(rt, 'GET', '/memory', undefined, {}, noWorkflow)).toMatchObject({ status: 400, body: { error: 'workflowId is required and must be provided in execution context' } });
    expect(await call(rt, 'POST', '/memory', { key: 'k', data: { role: 'user' } })).toMatchObject({ status: 400, body: { error: 'Role and content are required for agent memory' } });
    expect(await call(rt, 'POST', '/memory', 'text')).toMatchObject({ status: 400, body: { error: 'body must be a JSON object' } });
  });

  it('refuses fields of the wrong type or size naming them (a huge key is no 500 from the index)', async () => {
    const agent = { role: 'user', content: 'hi' };
    expect(await call(rt, 'POST', '/memory', { key: ['k'], data: agent })).toMatchObject({ status: 400, body: { error: 'key must be a string' } });
    expect(await call(rt, 'POST', '/memory', { key: 'x'.repeat(100_000), data: agent })).toMatchObject({ status: 400, body: { error: 'key must be at most 255 characters' } });
    expect(await call(rt, 'POST', '/memory', { key: 'k', type: 7, data: agent })).toMatchObject({ status: 400, body: { error: 'type must be a string' } });
    expect(await call(rt, 'POST', '/memory', { key: 'k', data: 'hi' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('data must be an object') } });
    // A number as the key is its text (a key resolved from a block output).
    expect(await call(rt, 'POST', '/memory', { key: 42, data: agent })).toMatchObject({ status: 200, body: { output: { id: '42' } } });
  });

  it('the memory tools reach the same routes through the execution layer', async () => {
    const add = await rt.tools.execute({ toolId: 'memory_add', params: { id: 'notes', role: 'user', content: 'remember me' }, context }, 'answer');
    expect(add).toMatchObject({ success: true });
    const got = await rt.tools.execute({ toolId: 'memory_get', params: { id: 'notes' }, context }, 'answer');
    expect(got).toMatchObject({ success: true, output: { memories: [{ role: 'user', content: 'remember me' }] } });
    expect(got.timing.duration).toBeGreaterThanOrEqual(0);
  });

  it('reaches only the call’s own workflow: another workflowId in the body, query or a tool’s params is refused naming the field', async () => {
    const victim = { ...context, workflowId: 'wf-victim' };
    expect(await call(rt, 'POST', '/memory', { key: 'secret', data: { role: 'user', content: 'victim note' } }, {}, victim)).toMatchObject({ status: 200 });
    // Repeating the call's own workflow is fine.
    expect(await call(rt, 'POST', '/memory', { workflowId: 'wf-routes', key: 'mine', data: { role: 'user', content: 'x' } })).toMatchObject({ status: 200 });
    expect(await call(rt, 'POST', '/memory', { workflowId: 'wf-victim', key: 'secret', data: { role: 'user', content: 'planted' } })).toEqual({ status: 400, body: { success: false, error: 'workflowId in the body (wf-victim) is not the workflow this call runs for (wf-routes)' } });
    expect(await call(rt, 'GET', '/memory', undefined, { workflowId: 'wf-victim' })).toEqual({ status: 400, body: { success: false, error: 'workflowId in the query (wf-victim) is not the workflow this call runs for (wf-routes)' } });
    expect(await call(rt, 'GET', '/memory/secret', undefined, { workflowId: 'wf-victim' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('workflowId in the query (wf-victim)') } });
    expect(await call(rt, 'DELETE', '/memory/secret', undefined, { workflowId: 'wf-victim' })).toMatchObject({ status: 400 });
    // The memory tools (a proxy call's params, a model's tool arguments in a run) cannot name another workflow either.
    for (const [toolId, params] of [['memory_get_all', {}], ['memory_get', { id: 'secret' }], ['memory_add', { id: 'secret', role: 'user', content: 'planted' }], ['memory_delete', { id: 'secret' }]] as const) {
      const res = await rt.tools.execute({ toolId, params: { ...params, workflowId: 'wf-victim' }, context }, 'answer');
      expect(res, toolId).toMatchObject({ success: false, output: {}, error: 'params.workflowId (wf-victim) is not the workflow this tool runs for (wf-routes)' });
    }
    expect((await rt.tools.execute({ toolId: 'memory_get_all', params: { workflowId: 'wf-routes' }, context }, 'answer')).success).toBe(true);
    // The victim's memory is as it was.
    expect(await call(rt, 'GET', '/memory/secret', undefined, {}, victim)).toMatchObject({ status: 200, body: { output: { memories: [{ role: 'user', content: 'victim note' }] } } });
  });

  it('a database failure answers the spec messages: Memory operation failed (add, delete), Failed to retrieve memory (get, list)', async () => {
    const logger = createLogger('integrations', 'silent');
    // A schema without the memories table: every statement fails in Postgres.
    const broken = createRouter(memoryRoutes(database.db.withSchema('weft_no_such_schema'), logger), logger);
    const ask = (method: string, p: string, body?: unknown) => broken.handle({ method, path: p, query: {}, body, context, envVars: {} });
    expect(await ask('POST', '/memory', { key: 'k', data: { role: 'user', content: 'x' } })).toEqual({ status: 500, body: { success: false, error: 'Memory operation failed' } });
    expect(await ask('DELETE', '/memory/k')).toEqual({ status: 500, body: { success: false, error: 'Memory operation failed' } });
    expect(await ask('GET', '/memory/k')).toEqual({ status: 500, body: { success: false, error: 'Failed to retrieve memory' } });
    expect(await ask('GET', '/memory')).toEqual({ status: 500, body: { success: false, error: 'Failed to retrieve memory' } });
  });
});

describe('files parse', () => {
  it('parses CSV, JSON, HTML and text from URLs and data links', async () => {
    fake.on('GET', '/people.csv', { headers: { 'content-type': 'text/csv' }, text: 'name,age\nAda,36\nAlan,41\n' });
    const csv = await call(rt, 'POST', '/files/parse', { filePath: `${fake.url}/people.csv` });
    expect(csv).toMatchObject({ status: 200, body: { success: true, output: { files: [{ name: 'people.csv', fileType: 'csv', metadata: { headers: ['name', 'age'], rowCount: 2 } }] } } });
    const data = `data:application/json;base64,${Buffer.from('{"a":[1,2]}').toString('base64')}`;
    expect(await call(rt, 'POST', '/files/parse', { filePath: data, fileType: 'json' })).toMatchObject({ body: { output: { files: [{ metadata: { data: { a: [1, 2] } } }] } } });
    const html = `data:text/html,${encodeURIComponent('<h1>Title</h1><script>x()</script><p>Body &amp; more</p>')}`;
    const parsed = await call(rt, 'POST', '/files/parse', { filePath: [html], fileType: 'html' });
    expect(parsed.body).toMatchObject({ output: { combinedContent: 'Title\nBody & more' }, results: [{ success: true }] });
  });

  it('refuses a missing path, a local path, an unknown type and a private address', async () => {
    expect(await call(rt, 'POST', '/files/parse', {})).toMatchObject({ status: 400, body: { error: 'Missing required parameter: filePath' } });
    expect(await call(rt, 'POST', '/files/parse', { filePath: '/etc/passwd' })).toMatchObject({ status: 400, body: { error: 'filePath must be an http(s) URL or a data: link' } });
    expect(await call(rt, 'POST', '/files/parse', { filePath: 'data:,x', fileType: 'exe' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('Unsupported file type: exe') } });
    expect(await call(strict, 'POST', '/files/parse', { filePath: `${fake.url}/people.csv` })).toMatchObject({ status: 400, body: { error: expect.stringContaining('Outbound request refused') } });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('email over SMTP', () => {
  it('sends through a real SMTP server with login and answers the message id', async () => {
    const res = await call(rt, 'POST', '/tools/email/send', { host: smtp.host, port: smtp.port, username: 'mailer', password: 'smtp-pass-123', to: 'ada@example.com', subject: 'Report', body: 'All green.' });
    expect(res).toMatchObject({ status: 200, body: { success: true, output: { messageId: expect.any(String), sentAt: expect.any(String) } } });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ to: ['ada@example.com'], username: 'mailer' });
    expect(smtp.mails[0]?.raw).toContain('Subject: Report');
    expect(smtp.mails[0]?.raw).toContain('All green.');
  });

  it('a refused login is an error without the password; missing fields are named; private hosts refused unless allowed', async () => {
    const res = await call(rt, 'POST', '/tools/email/send', { host: smtp.host, port: smtp.port, username: 'mailer', password: 'wrong-password-9', to: 'a@example.com', subject: 's', body: 'b' });
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).toContain('Failed to send email');
    expect(JSON.stringify(res.body)).not.toContain('wrong-password-9');
    expect(await call(rt, 'POST', '/tools/email/send', { host: smtp.host, to: 'a@example.com' })).toMatchObject({ status: 400, body: { error: 'subject is required' } });
    expect(await call(rt, 'POST', '/tools/email/send', { host: smtp.host, port: 70000, to: 'a@example.com', subject: 's' })).toMatchObject({ status: 400, body: { error: 'port must be a number from 1 to 65535' } });
    expect(await call(strict, 'POST', '/tools/email/send', { host: smtp.host, port: smtp.port, to: 'a@example.com', subject: 's' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('Outbound request refused') } });
    expect(smtp.mails).toHaveLength(0);
  });
});

describe('proxy image and speech', () => {
  it('passes images through and refuses what is not one', async () => {
    fake.on('GET', '/cat.png', { headers: { 'content-type': 'image/png' }, text: 'PNGDATA' });
    fake.on('GET', '/page', { headers: { 'content-type': 'text/html' }, text: '<html></html>' });
    const img = await call(rt, 'GET', '/proxy/image', undefined, { url: `${fake.url}/cat.png` });
    expect(img.status).toBe(200);
    expect(img.contentType).toBe('image/png');
    expect(Buffer.from(img.bytes ?? []).toString()).toBe('PNGDATA');
    expect(await call(rt, 'GET', '/proxy/image', undefined, { url: `${fake.url}/page` })).toMatchObject({ status: 415 });
    expect(await call(rt, 'GET', '/proxy/image', undefined, { url: 'file:///etc/passwd' })).toMatchObject({ status: 400 });
    expect(await call(strict, 'GET', '/proxy/image', undefined, { url: 'http://169.254.169.254/latest/meta-data' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('Outbound request refused') } });
  });

  it('asks ElevenLabs (at its configured base URL) with the default model and answers the audio', async () => {
    fake.on('POST', '/v1/text-to-speech/:voice', { headers: { 'content-type': 'audio/mpeg' }, text: 'MP3' });
    const res = await call(rt, 'POST', '/proxy/tts', { apiKey: 'el-key-1234', text: 'Hello', voiceId: 'v1' });
    expect(res).toMatchObject({ status: 200, body: { success: true, audioUrl: `data:audio/mpeg;base64,${Buffer.from('MP3').toString('base64')}` } });
    const sent = fake.received('POST', '/v1/text-to-speech/:voice')[0];
    expect(sent?.body).toEqual({ text: 'Hello', model_id: 'eleven_monolingual_v1' });
    expect(sent?.headers['xi-api-key']).toBe('el-key-1234');
    expect(await call(rt, 'POST', '/proxy/tts', { apiKey: 'k', voiceId: 'v' })).toMatchObject({ status: 400, body: { error: 'text is required' } });
  });
});

describe('firecrawl crawl status', () => {
  it('answers the crawl status with the key from the query or the caller environment, and the spec messages', async () => {
    fake.on('GET', '/fc/crawl/job-1', (r) => ({ json: { status: 'completed', total: 2, completed: 2, creditsUsed: 2, data: [{ markdown: '# A' }], auth: r.headers.authorization } }));
    fake.on('GET', '/fc/crawl/job-bad', { json: { status: 'failed' } });
    fake.on('GET', '/fc/crawl/job-401', { status: 401, json: { error: 'Unauthorized' } });
    fake.on('GET', '/fc/crawl/job-402', { status: 402, json: {} });
    const viaEnv = await rt.routes.handle({ method: 'GET', path: '/tools/firecrawl/crawl/job-1', query: {}, body: undefined, context, envVars: { FIRECRAWL_API_KEY: 'fc-env-key' } });
    expect(viaEnv).toMatchObject({ status: 200, body: { success: true, output: { status: 'completed', total: 2, data: [{ markdown: '# A' }] } } });
    expect(fake.received('GET', '/fc/crawl/job-1')[0]?.headers.authorization).toBe('Bearer fc-env-key');
    expect(await call(rt, 'GET', '/tools/firecrawl/crawl/job-bad', undefined, { apiKey: 'k' })).toMatchObject({ status: 200, body: { success: false, error: 'Crawl job failed' } });
    expect(await call(rt, 'GET', '/tools/firecrawl/crawl/job-401', undefined, { apiKey: 'k' })).toMatchObject({ status: 401, body: { error: 'Invalid API key. Please check your Firecrawl API key.' } });
    expect(await call(rt, 'GET', '/tools/firecrawl/crawl/job-402', undefined, { apiKey: 'k' })).toMatchObject({ status: 402, body: { error: 'Insufficient credits. Please check your Firecrawl plan and usage.' } });
    expect(await call(rt, 'GET', '/tools/firecrawl/crawl/job-1')).toMatchObject({ status: 400, body: { error: expect.stringContaining('apiKey is required') } });
  });
});

describe('confluence page', () => {
  const page = { id: '42', title: 'Runbook', version: { number: 3 }, body: { storage: { value: '<p>Step <b>one</b></p>' } } };

  it('reads a page, finding the site by domain, and updates it with the next version', async () => {
    fake.on('GET', '/atl/oauth/token/accessible-resources', { json: [{ id: 'other', url: 'https://other.atlassian.example' }, { id: 'site-1', url: 'https://acme.atlassian.example' }] });
    fake.on('GET', '/atl/ex/confluence/site-1/wiki/api/v2/pages/42', { json: page });
    fake.on('PUT', '/atl/ex/confluence/site-1/wiki/api/v2/pages/42', (r) => ({ json: { ...page, ...(r.body as object) } }));
    const read = await call(rt, 'POST', '/tools/confluence/page', { domain: 'acme.atlassian.example', accessToken: 'atl-token', pageId: ' 42 ' });
    expect(read).toMatchObject({ status: 200, body: { success: true, output: { pageId: '42', title: 'Runbook', content: 'Step one' } } });
    expect(fake.received('GET', '/atl/ex/confluence/site-1/wiki/api/v2/pages/42')[0]?.headers.authorization).toBe('Bearer atl-token');
    const updated = await call(rt, 'PUT', '/tools/confluence/page', { domain: 'acme.atlassian.example', cloudId: 'site-1', accessToken: 'atl-token', pageId: '42', title: 'Runbook v2', content: '<p>Two</p>' });
    expect(updated).toMatchObject({ status: 200, body: { success: true, output: { title: 'Runbook v2' } } });
    expect(fake.received('PUT', '/atl/ex/confluence/site-1/wiki/api/v2/pages/42')[0]?.body).toMatchObject({ title: 'Runbook v2', body: { representation: 'storage', value: '<p>Two</p>' }, version: { number: 4 } });
    // the confluence_retrieve tool reaches the same route through the execution layer
    const viaTool = await rt.tools.execute({ toolId: 'confluence_retrieve', params: { domain: 'acme.atlassian.example', accessToken: 'atl-token', pageId: '42', cloudId: 'site-1' }, context }, 'answer');
    expect(viaTool).toMatchObject({ success: true, output: { title: 'Runbook', content: 'Step one' } });
    expect(JSON.stringify(viaTool)).not.toContain('atl-token');
  });

  it('answers the spec messages: page id required, invalid response format; a 5xx is a 502', async () => {
    expect(await call(rt, 'POST', '/tools/confluence/page', { cloudId: 's', accessToken: 't', pageId: ' ' })).toMatchObject({ status: 400, body: { error: 'Page ID is required. Please select a page or enter a page ID manually.' } });
    fake.on('GET', '/atl/ex/confluence/s/wiki/api/v2/pages/7', { json: { unexpected: true } });
    expect(await call(rt, 'POST', '/tools/confluence/page', { cloudId: 's', accessToken: 't', pageId: '7' })).toMatchObject({ status: 502, body: { error: 'Invalid response format from Confluence API - missing required fields' } });
    fake.on('GET', '/atl/ex/confluence/s/wiki/api/v2/pages/8', { status: 503, json: {} });
    expect(await call(rt, 'POST', '/tools/confluence/page', { cloudId: 's', accessToken: 't', pageId: '8' })).toMatchObject({ status: 502, body: { error: 'HTTP error 503: Service Unavailable' } });
  });

  it("passes Confluence v2's error title and detail ({errors: [{title, detail}]}), which carry no message", async () => {
    const page = { id: '9', title: 'Runbook', version: { number: 3 }, body: { storage: { value: '<p>x</p>' } } };
    fake.on('GET', '/atl/ex/confluence/s/wiki/api/v2/pages/404', { status: 404, json: { errors: [{ status: 404, code: 'NOT_FOUND', title: 'Not Found', detail: null }] } });
    expect(await call(rt, 'POST', '/tools/confluence/page', { cloudId: 's', accessToken: 't', pageId: '404' })).toMatchObject({ status: 404, body: { error: 'Failed to retrieve Confluence page: Not Found' } });
    fake.on('GET', '/atl/ex/confluence/s/wiki/api/v2/pages/9', { json: page });
    fake.on('PUT', '/atl/ex/confluence/s/wiki/api/v2/pages/9', {
      status: 400,
      json: { errors: [{ status: 400, code: 'INVALID_REQUEST_PARAMETER', title: 'Provided value is invalid', detail: 'Title cannot be longer than 255 characters' }] },
    });
    expect(await call(rt, 'PUT', '/tools/confluence/page', { cloudId: 's', accessToken: 't', pageId: '9', title: 'T'.repeat(300) })).toMatchObject({
      status: 400,
      body: { error: 'Failed to update Confluence page: Provided value is invalid: Title cannot be longer than 255 characters' },
    });
  });
});

describe('docs search', () => {
  it('finds sections of the docs and bounds topK', async () => {
    const res = await call(rt, 'POST', '/docs/search', { query: 'agent memories workflow', topK: 50 });
    expect(res.status).toBe(200);
    const body = res.body as { results: Array<{ title?: string; content?: string }>; searchTime: number };
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(20);
    expect(JSON.stringify(body.results[0])).toContain('Agent memories');
    expect(typeof body.searchTime).toBe('number');
    expect(await call(rt, 'POST', '/docs/search', { query: ' ' })).toMatchObject({ status: 400, body: { error: 'query is required' } });
    expect(await call(rt, 'POST', '/docs/search', { query: 42 })).toMatchObject({ status: 400, body: { error: 'query must be a string' } });
    for (const topK of ['many', true, [3], {}]) expect(await call(rt, 'POST', '/docs/search', { query: 'agent', topK })).toMatchObject({ status: 400, body: { error: 'topK must be a number from 1 to 20' } });
    expect((await call(rt, 'POST', '/docs/search', { query: 'agent', topK: '2' })).status).toBe(200);
  });

  it('answers unknown routes and methods clearly', async () => {
    expect(await call(rt, 'GET', '/nothing')).toMatchObject({ status: 404, body: { error: 'No route for GET /api/nothing' } });
    expect(await call(rt, 'PUT', '/memory')).toMatchObject({ status: 405 });
  });
});

describe('gRPC handlers', () => {
  const grpcCtx = {} as Parameters<ReturnType<typeof integrationsHandlers>['executeTool']>[1];

  it('executeFunction answers result, stdout and debug; bad JSON fields are named', async () => {
    const h = integrationsHandlers(rt);
    const ok = await h.executeFunction({ code: 'console.log("x"); return params.a + environmentVariables.B', timeoutMs: 0, paramsJson: '{"a":"1"}', envVarsJson: '{"B":"2"}', blockDataJson: '', blockNameMappingJson: '', workflowId: 'wf', isCustomTool: false, schemaJson: '' }, grpcCtx);
    expect(ok).toMatchObject({ success: true, resultJson: '"12"', stdout: 'x\n' });
    const bad = await h.executeFunction({ code: 'null.x', timeoutMs: 0, paramsJson: '', envVarsJson: '', blockDataJson: '', blockNameMappingJson: '', workflowId: '', isCustomTool: false, schemaJson: '' }, grpcCtx);
    expect(bad.success).toBe(false);
    expect(JSON.parse(bad.debugJson ?? '{}')).toMatchObject({ errorType: 'TypeError', line: 1 });
    await expect(h.executeFunction({ code: '1', timeoutMs: 0, paramsJson: '[', envVarsJson: '', blockDataJson: '', blockNameMappingJson: '', workflowId: '', isCustomTool: false, schemaJson: '' }, grpcCtx)).rejects.toThrow('params must be JSON');
  });

  it('executeTool runs custom tools from the registry with the environment, and answers failures as results', async () => {
    const h = integrationsHandlers(rt);
    const ctx = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'user1' };
    const res = await h.executeTool({ toolId: 'custom_greet', paramsJson: '{"name":"Ada"}', context: ctx, envVars: { GREETING_KEY: 'gk' }, skipPostProcess: false }, grpcCtx);
    expect(JSON.parse(res.resultJson)).toMatchObject({ success: true, output: 'hello Ada, key gk' });
    const unknown = await h.executeTool({ toolId: 'custom_broken-entry', paramsJson: '{}', context: ctx, envVars: {}, skipPostProcess: false }, grpcCtx);
    expect(JSON.parse(unknown.resultJson)).toMatchObject({ success: false, error: 'Tool not found: custom_broken-entry', timing: { duration: expect.any(Number) } });
    await expect(h.executeTool({ toolId: '', paramsJson: '', context: ctx, envVars: {}, skipPostProcess: false }, grpcCtx)).rejects.toThrow('toolId is required');
  });

  it('a custom tool answers the same messages through function execute (isCustomTool) and by id (the proxy, an agent)', async () => {
    const h = integrationsHandlers(rt);
    const ctx = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'user1' };
    const schema = { type: 'function', function: { name: 'greet', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } };
    const viaFunction = async (code: string, params: unknown) =>
      (await h.executeFunction({ code, timeoutMs: 0, paramsJson: JSON.stringify(params), envVarsJson: '', blockDataJson: '', blockNameMappingJson: '', workflowId: '', isCustomTool: true, schemaJson: JSON.stringify(schema) }, grpcCtx)).error;
    const viaId = async (params: unknown) => (JSON.parse((await h.executeTool({ toolId: 'custom_greet', paramsJson: JSON.stringify(params), context: ctx, envVars: {}, skipPostProcess: false }, grpcCtx)).resultJson) as { error?: string }).error;
    // Spec 000 §5's checks, word for word on both paths.
    expect(await viaFunction('return 1', {})).toBe('Required parameter missing: name');
    expect(await viaId({})).toBe('Required parameter missing: name');
    expect(await viaFunction('return 1', { name: 1 })).toBe(await viaId({ name: 1 }));
    expect(await viaId({ name: 1 })).toBe('Parameter name should be a string');
    // What the code threw: 'Custom tool execution error: {msg}' (§8), the message without the error's name.
    expect(await viaFunction('throw new Error("boom")', { name: 'x' })).toBe('Custom tool execution error: boom');
  });

  it('callRoute answers JSON and binary routes as their HTTP routes would', async () => {
    const h = integrationsHandlers(rt);
    fake.on('GET', '/dog.gif', { headers: { 'content-type': 'image/gif' }, text: 'GIF' });
    const img = await h.callRoute({ method: 'GET', path: '/proxy/image', query: { url: `${fake.url}/dog.gif` }, bodyJson: '', context: undefined, envVars: {} }, grpcCtx);
    expect(img).toMatchObject({ status: 200, contentType: 'image/gif', bodyJson: '' });
    expect(Buffer.from(img.body).toString()).toBe('GIF');
    const missing = await h.callRoute({ method: 'POST', path: '/files/parse', query: {}, bodyJson: '{}', context: undefined, envVars: {} }, grpcCtx);
    expect(missing).toMatchObject({ status: 400, contentType: 'application/json' });
    expect(JSON.parse(missing.bodyJson)).toMatchObject({ error: 'Missing required parameter: filePath' });
  });
});
