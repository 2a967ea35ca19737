import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig, type Database } from '@weft/platform';
import { createFakeServer, createTestDatabase, type FakeServer } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { migrations } from '../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../runtime.js';
import { SandboxPool } from '../function/sandbox.js';
import type { IntegrationsDB } from '../db.js';
import type { RouteAnswer } from '../tools/runtime/types.js';

/** A URL field that is not a usable http(s) URL is a 400 naming the field, never a 500, and nothing is fetched. */

const context: CallContext = { workspaceId: 'ws-urls', workflowId: 'wf-urls', actorId: 'user-urls' };
const BAD_URLS = ['http://', 'http://[::1', 'https://exa mple.com/page', 'ftp://files.example/a.png'];

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let site: FakeServer;
let rt: ToolRuntime;
const sandbox = new SandboxPool({ size: 1 });

function call(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<RouteAnswer> {
  return rt.routes.handle({ method, path, query, body, context, envVars: {} });
}

beforeAll(async () => {
  database = await createTestDatabase<IntegrationsDB>('integrations_urls', migrations);
  site = await createFakeServer();
  const registry = { getOAuthToken: () => Promise.reject(new Error('unused')), listCustomTools: () => Promise.resolve({ toolsJson: '[]' }) };
  rt = createToolRuntime({ db: database.db, logger: createLogger('integrations', 'silent'), config: loadConfig({ ...process.env, WEFT_INSTANCE: 'turls' }), env: {}, registry, policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] }, docsDir: null, sandbox });
});
afterAll(async () => {
  await rt?.close();
  await sandbox.close();
  await site?.close();
  await database?.drop();
});

describe.each(BAD_URLS)('the URL %s', (url) => {
  it('is refused by the image proxy, file parsing and Stagehand, naming the field', async () => {
    expect(await call('GET', '/proxy/image', undefined, { url })).toEqual({ status: 400, body: { success: false, error: 'url must be an http(s) URL' } });
    expect(await call('POST', '/files/parse', { filePath: url })).toEqual({ status: 400, body: { success: false, error: 'filePath must be an http(s) URL or a data: link' } });
    expect(await call('POST', '/tools/stagehand/extract', { url, instruction: 'x', schema: { type: 'object' } })).toEqual({ status: 400, body: { success: false, error: 'url must be an http(s) URL' } });
    const agent = 'startUrl must be an http(s) URL';
    expect(await call('POST', '/tools/stagehand/agent', { startUrl: url, task: 'x' })).toEqual({ status: 400, body: { error: agent, agentResult: { success: false, completed: false, message: agent, actions: [] }, structuredOutput: null } });
  });

  it('is refused as a knowledge document’s fileUrl, naming the document', async () => {
    const created = await call('POST', '/knowledge', { name: `URLs ${url}` });
    const baseId = (created.body as { knowledgeBase: { id: string } }).knowledgeBase.id;
    const res = await call('POST', `/knowledge/${baseId}/documents`, { documents: [{ filename: 'ok.txt', fileUrl: 'data:text/plain,enough%20text%20here' }, { filename: 'bad.txt', fileUrl: url }] });
    expect(res).toEqual({ status: 400, body: { success: false, error: 'documents[1].fileUrl must be an http(s) URL or a data: link' } });
  });
});

describe('URLs that are fine', () => {
  it('a start URL without a scheme still gets https://, and a data: link still parses', async () => {
    const agent = await call('POST', '/tools/stagehand/agent', { startUrl: `${site.url.replace('http://', '')}/shop`, task: 'x' });
    expect((agent.body as { error: string }).error).toMatch(/^Failed to load https:\/\/127\.0\.0\.1:\d+\/shop: /);
    expect(await call('POST', '/files/parse', { filePath: 'data:text/plain,hello', fileType: 'txt' })).toMatchObject({ status: 200, body: { output: { combinedContent: 'hello' } } });
    expect(site.requests).toEqual([]);
  });
});
