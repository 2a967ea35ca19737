import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createFakeServer, createSmtpFake, uniqueSuffix, type FakeServer, type SmtpFake } from '@weft/testkit';
import { api, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { answerOnce, receivedBy } from './support/serviceFakes.js';
import { startSecondGateway } from './support/gateway.js';
import { workflowWith, workspaceId } from './support/runStream.js';
import { modelChats, scriptModel } from './support/modelScripts.js';

// The stack allows 127.0.0.1 as an outbound address (globalSetup: WEFT_OUTBOUND_ALLOWLIST) so tools
// reach these fakes; every other private, loopback-by-name or metadata address stays refused.
let fake: FakeServer;
let smtp: SmtpFake;

interface ToolResult {
  success: boolean;
  output: unknown;
  error?: string;
  timing: { startTime: string; endTime: string; duration: number };
}

/** A new workflow of the default account with `commands` after its starter; answers its id. */
async function newWorkflow(commands?: (starter: string) => unknown[]): Promise<string> {
  return (await workflowWith(commands)).id;
}

beforeAll(async () => {
  fake = await createFakeServer();
  smtp = await createSmtpFake({ credentials: { username: 'mailer', password: 'smtp-secret-42' } });
});
afterAll(async () => {
  await fake?.close();
  await smtp?.close();
});

describe('function execute through the gateway', () => {
  it('runs code in the sandbox: result, stdout, env vars, block references; errors with debug', async () => {
    const ok = await api('POST', '/api/function/execute', {
      code: 'console.log("hi"); return { sum: <source.n> + 1, key: "{{KEY}}", p: params.x }',
      envVars: { KEY: 'k-1' },
      blockData: { b1: { n: 41 } },
      blockNameMapping: { Source: 'b1' },
      params: { x: 'y' },
    });
    expect(ok).toEqual({ status: 200, body: { success: true, output: { result: { sum: 42, key: 'k-1', p: 'y' }, stdout: 'hi\n' } } });
    const failed = await api<{ success: boolean; error: string; debug: { line: number; errorType: string } }>('POST', '/api/function/execute', { code: 'const a = 1;\nnull.x' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ success: false, debug: { line: 2, errorType: 'TypeError' } });
    const slow = await api('POST', '/api/function/execute', { code: 'while (true) {}', timeout: 300 });
    expect(slow.body).toMatchObject({ success: false, error: 'Function execution timed out after 300 ms' });
  });

  it('checks custom tool params against the schema', async () => {
    const schema = { type: 'function', function: { name: 't', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
    expect((await api('POST', '/api/function/execute', { code: 'return <city>', isCustomTool: true, schema, params: { city: 'Oslo' } })).body).toMatchObject({ success: true, output: { result: 'Oslo' } });
    expect((await api('POST', '/api/function/execute', { code: 'return 1', isCustomTool: true, schema, params: {} })).body).toMatchObject({ success: false, error: 'Required parameter missing: city' });
    expect((await api('POST', '/api/function/execute', { code: ' ', isCustomTool: true, schema, params: { city: 'x' } })).body).toMatchObject({ success: false, error: 'No code provided for tool execution' });
  });

  it('refuses bad input naming the field, anonymous callers and other people’s workflows', async () => {
    expect(await api('POST', '/api/function/execute', { timeout: 5 })).toEqual({ status: 400, body: { error: expect.stringContaining('code') } });
    expect(await api('POST', '/api/function/execute', { code: '1', timeout: 'soon' })).toEqual({ status: 400, body: { error: expect.stringContaining('timeout') } });
    expect((await api('POST', '/api/function/execute', { code: '1' }, { cookie: '' })).status).toBe(401);
    const id = await newWorkflow();
    const stranger = await createAccount('Stranger');
    expect([403, 404]).toContain((await api('POST', '/api/function/execute', { code: '1', workflowId: id }, { cookie: stranger.cookie })).status);
  });
});

describe('the proxy', () => {
  it('GET /api/proxy makes the HTTP request with method, body and header.* and answers the tool result', async () => {
    fake.on('POST', '/echo', (req) => ({ json: { got: req.body, auth: req.headers.authorization } }));
    const q = new URLSearchParams({ url: `${fake.url}/echo`, method: 'POST', body: '{"a":1}', 'header.Authorization': 'Bearer t', 'header.Content-Type': 'application/json' });
    const res = await api<ToolResult>('GET', `/api/proxy?${q.toString()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, output: { status: 200, data: { got: { a: 1 }, auth: 'Bearer t' } }, timing: { duration: expect.any(Number) } });
  });

  it('refuses metadata, private and loopback addresses other than the allowed 127.0.0.1 as a failed tool result', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/', `http://[::1]:${new URL(fake.url).port}/echo`]) {
      const res = await api<ToolResult>('GET', `/api/proxy?url=${encodeURIComponent(url)}`);
      expect(res.body, url).toMatchObject({ success: false, error: expect.stringContaining('Outbound request refused') });
    }
    expect(await api('GET', '/api/proxy')).toEqual({ status: 400, body: { error: 'url is required' } });
  });

  it('POST /api/proxy runs a tool by id: unknown ids, required params, and a custom tool with the caller’s environment', async () => {
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'no_such_tool', params: {} })).body).toMatchObject({ success: false, error: 'Tool not found: no_such_tool' });
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'http_request', params: {} })).body).toMatchObject({ success: false, error: 'Parameter "url" is required for http_request but was not provided.' });
    expect(await api('POST', '/api/proxy', { params: {} })).toEqual({ status: 400, body: { error: expect.stringContaining('toolId is required') } });
    const user = await createAccount('Tool Maker');
    const as = { cookie: user.cookie };
    expect((await api('POST', '/api/environment', { variables: { GREETING: 'hello-secret' } }, as)).status).toBe(200);
    const tool = { id: 'greeter', title: 'Greeter', schema: { type: 'function', function: { name: 'greeter', description: 'greets', parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } }, code: 'return <name> === "leak" ? "{{GREETING}}" : "{{GREETING}}".toUpperCase() + ", " + <name> + "!"' };
    expect((await api('POST', '/api/tools/custom', { tools: [tool] }, as)).status).toBe(200);
    const res = await api<ToolResult>('POST', '/api/proxy', { toolId: 'custom_greeter', params: { name: 'Ada' } }, as);
    expect(res.body).toMatchObject({ success: true, output: 'HELLO-SECRET, Ada!' });
    // an environment value is a secret: a tool that answers it as is gets it redacted
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'custom_greeter', params: { name: 'leak' } }, as)).body).toMatchObject({ success: true, output: '[REDACTED]' });
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'custom_greeter', params: { name: 1 } }, as)).body).toMatchObject({ success: false, error: 'Parameter name should be a string' });
    // another account does not have this custom tool
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'custom_greeter', params: { name: 'x' } })).body).toMatchObject({ success: false, error: 'Tool not found: custom_greeter' });
  });
});

describe('internal routes', () => {
  it('memory: add, list, read, delete in a workflow the caller can reach; strangers refused', async () => {
    const workflowId = await newWorkflow();
    const add = await api('POST', '/api/memory', { workflowId, key: 'chat', type: 'agent', data: { role: 'user', content: 'hi' } });
    expect(add).toMatchObject({ status: 200, body: { success: true, output: { id: 'chat' } } });
    expect((await api('GET', `/api/memory?workflowId=${workflowId}`)).body).toMatchObject({ output: { memories: [{ key: 'chat' }] } });
    expect((await api('GET', `/api/memory/chat?workflowId=${workflowId}`)).body).toMatchObject({ output: { memories: [{ role: 'user', content: 'hi' }] } });
    expect(await api('GET', '/api/memory')).toMatchObject({ status: 400, body: { error: 'workflowId is required and must be provided in execution context' } });
    expect(await api('POST', '/api/memory', { workflowId, key: 'x', data: { role: 'user' } })).toMatchObject({ status: 400, body: { error: 'Role and content are required for agent memory' } });
    const stranger = await createAccount('Memory Stranger');
    expect([403, 404]).toContain((await api('GET', `/api/memory?workflowId=${workflowId}`, undefined, { cookie: stranger.cookie })).status);
    expect([403, 404]).toContain((await api('DELETE', `/api/memory/chat?workflowId=${workflowId}`, undefined, { cookie: stranger.cookie })).status);
    expect((await api('DELETE', `/api/memory/chat?workflowId=${workflowId}`)).status).toBe(200);
    expect((await api('GET', `/api/memory/chat?workflowId=${workflowId}`)).status).toBe(404);
  });

  it('files parse, docs search and email over SMTP', async () => {
    fake.on('GET', '/data.csv', { headers: { 'content-type': 'text/csv' }, text: 'a,b\n1,2\n' });
    expect((await api('POST', '/api/files/parse', { filePath: `${fake.url}/data.csv` })).body).toMatchObject({ success: true, output: { files: [{ fileType: 'csv', metadata: { rowCount: 1 } }] } });
    expect(await api('POST', '/api/files/parse', {})).toMatchObject({ status: 400, body: { error: 'Missing required parameter: filePath' } });
    const docs = await api<{ results: unknown[]; searchTime: number }>('POST', '/api/docs/search', { query: 'architecture services', topK: 3 });
    expect(docs.status).toBe(200);
    expect(docs.body.results.length).toBeGreaterThan(0);
    expect(docs.body.results.length).toBeLessThanOrEqual(3);
    const sent = await api('POST', '/api/tools/email/send', { host: smtp.host, port: smtp.port, username: 'mailer', password: 'smtp-secret-42', to: 'ada@example.com', subject: 'From Weft', body: 'It works.' });
    expect(sent).toMatchObject({ status: 200, body: { success: true, output: { messageId: expect.any(String) } } });
    await expect.poll(() => smtp.mails.length).toBe(1);
    expect(smtp.mails[0]?.raw).toContain('It works.');
    expect((await api('POST', '/api/tools/email/send', { to: 'a@example.com' })).body).toMatchObject({ error: 'host is required' });
    expect((await api('POST', '/api/tools/email/send', {}, { cookie: '' })).status).toBe(401);
    // the crawl status route is reached; without a key (query or the caller's FIRECRAWL_API_KEY) nothing goes out
    expect(await api('GET', '/api/tools/firecrawl/crawl/job-1')).toMatchObject({ status: 400, body: { error: expect.stringContaining('apiKey is required') } });
  });
});

describe('the workflow a call reaches', () => {
  /** Another account's workflow with one memory in it: its id and the owner's credentials. */
  async function victimWorkflow(): Promise<{ id: string; as: { cookie: string } }> {
    const owner = await createAccount('Memory Victim');
    const as = { cookie: owner.cookie };
    const ws = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, as);
    const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: ws.body.workspaces[0]?.id }, as);
    expect(created.status).toBe(201);
    expect((await api('POST', '/api/memory', { workflowId: created.body.id, key: 'diary', data: { role: 'user', content: 'the victim’s secret' } }, as)).status).toBe(200);
    return { id: created.body.id, as };
  }
  const untouched = async (victim: { id: string; as: { cookie: string } }) =>
    expect((await api('GET', `/api/memory?workflowId=${victim.id}`, undefined, victim.as)).body).toMatchObject({ output: { memories: [{ key: 'diary', data: [{ role: 'user', content: 'the victim’s secret' }] }] } });

  it('another workflow’s memories are out of reach: the query’s and body’s ids must agree, a tool’s params.workflowId must be the checked one', async () => {
    const victim = await victimWorkflow();
    const mine = await newWorkflow();
    // The access check was on the query's workflow: a different one in the body is refused, naming both.
    expect(await api('POST', `/api/memory?workflowId=${mine}`, { workflowId: victim.id, key: 'diary', data: { role: 'user', content: 'planted' } })).toEqual({
      status: 400,
      body: { error: `workflowId in the body (${victim.id}) does not match workflowId in the query (${mine})` },
    });
    expect(await api('POST', '/api/proxy', { workflowId: mine, toolId: 'memory_get_all', params: { _context: { workflowId: victim.id } } })).toEqual({
      status: 400,
      body: { error: `workflowId in params._context (${victim.id}) does not match workflowId in the body (${mine})` },
    });
    // The proxy runs a memory tool in the checked workflow; a params.workflowId naming another is refused.
    for (const [toolId, params] of [['memory_get_all', {}], ['memory_get', { id: 'diary' }], ['memory_add', { id: 'diary', role: 'user', content: 'planted' }], ['memory_delete', { id: 'diary' }]] as const) {
      const res = await api<ToolResult>('POST', '/api/proxy', { workflowId: mine, toolId, params: { ...params, workflowId: victim.id } });
      expect(res.body, toolId).toMatchObject({ success: false, error: `params.workflowId (${victim.id}) is not the workflow this tool runs for (${mine})` });
    }
    // Named only in the params, the victim's workflow is the one checked — and refused.
    expect([403, 404]).toContain((await api('POST', '/api/proxy', { toolId: 'memory_get_all', params: { workflowId: victim.id } })).status);
    // The same ids work for the victim's owner, and the caller's own memories are reachable as before.
    expect((await api<ToolResult>('POST', '/api/proxy', { toolId: 'memory_get_all', params: { workflowId: victim.id } }, victim.as)).body).toMatchObject({ success: true, output: { memories: [{ key: 'diary' }] } });
    expect((await api<ToolResult>('POST', '/api/proxy', { workflowId: mine, toolId: 'memory_get_all', params: { workflowId: mine } })).body).toMatchObject({ success: true, output: { memories: [] } });
    await untouched(victim);
  });

  it('inside a run, a model that names another workflow in a memory tool’s arguments gets a refusal, not its memories', async () => {
    const victim = await victimWorkflow();
    const marker = `[memory-idor-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ toolCalls: [{ name: 'memory_get_all', arguments: { workflowId: victim.id } }] }, { content: 'Nothing to see.' }]);
    const id = await newWorkflow((starter) => [
      { type: 'addBlock', id: 'agent', blockType: 'agent', name: 'Agent 1', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'model', value: 'gpt-4o' },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'apiKey', value: 'sk-e2e' },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'userPrompt', value: `${marker} read the notes` },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'tools', value: [{ type: 'memory', operation: 'getAll', params: {}, usageControl: 'auto' }] },
      { type: 'addEdge', source: starter, target: 'agent' },
    ]);
    const res = await api<{ success: boolean; logs: Array<{ blockId: string; output?: { content?: string; toolCalls?: Array<{ name: string; success: boolean }> } }> }>('POST', `/api/workflows/${id}/execute`, {});
    expect(res.status).toBe(200);
    const agent = res.body.logs.find((l) => l.blockId === 'agent');
    expect(agent?.output?.toolCalls?.map((c) => [c.name, c.success])).toEqual([['memory_get_all', false]]);
    const chats = await modelChats<{ body: { messages: Array<{ role: string; content: unknown }> } }>();
    const ours = chats.filter((c) => c.body.messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(marker)));
    expect(ours).toHaveLength(2);
    const toolAnswer = JSON.stringify(ours[1]?.body.messages.filter((m) => m.role === 'tool'));
    expect(toolAnswer).toContain(`params.workflowId (${victim.id}) is not the workflow this tool runs for (${id})`);
    expect(JSON.stringify(ours)).not.toContain('the victim’s secret');
    await untouched(victim);
  });

  it('a reader of the workspace may run reading tools through the proxy but not writing ones', async () => {
    const reader = await createAccount('Proxy Reader');
    const as = { cookie: reader.cookie };
    expect((await api('POST', `/api/workspaces/${await workspaceId()}/members`, { email: reader.email, permission: 'read' })).status).toBe(201);
    const wf = await newWorkflow();
    expect((await api<ToolResult>('POST', '/api/proxy', { workflowId: wf, toolId: 'memory_add', params: { id: 'notes', role: 'user', content: 'by the owner' } })).body).toMatchObject({ success: true });
    expect((await api<ToolResult>('POST', '/api/proxy', { workflowId: wf, toolId: 'memory_get_all', params: {} }, as)).body).toMatchObject({ success: true, output: { memories: [{ key: 'notes' }] } });
    const refused = { status: 403, body: { error: 'This action needs write permission in the workspace' } };
    expect(await api('POST', '/api/proxy', { workflowId: wf, toolId: 'memory_add', params: { id: 'notes', role: 'user', content: 'by the reader' } }, as)).toMatchObject(refused);
    expect(await api('POST', '/api/proxy', { workflowId: wf, toolId: 'memory_delete', params: { id: 'notes' } }, as)).toMatchObject(refused);
    expect(await api('POST', '/api/proxy', { workflowId: wf, toolId: 'knowledge_create_document', params: { knowledgeBaseId: 'kb', name: 'x', content: 'long enough content' } }, as)).toMatchObject(refused);
    expect(await api('POST', '/api/proxy', { workflowId: wf, toolId: 'knowledge_upload_chunk', params: { knowledgeBaseId: 'kb', documentId: 'd', content: 'chunk' } }, as)).toMatchObject(refused);
    // Its direct routes answer the reader the same.
    expect(await api('POST', '/api/memory', { workflowId: wf, key: 'notes', data: { role: 'user', content: 'by the reader' } }, as)).toMatchObject(refused);
    expect((await api('GET', `/api/memory/notes?workflowId=${wf}`)).body).toMatchObject({ output: { memories: [{ role: 'user', content: 'by the owner' }] } });
  });
});

describe('an agent’s memories', () => {
  it('a memory block’s "get all" gives the agent every stored message, in order, before its prompt', async () => {
    const marker = `[memories-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ content: 'You said hello twice.' }]);
    const id = await newWorkflow((starter) => [
      { type: 'addBlock', id: 'mem', blockType: 'memory', name: 'Notes', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'mem', subBlockId: 'operation', value: 'getAll' },
      { type: 'addEdge', source: starter, target: 'mem' },
      { type: 'addBlock', id: 'agent', blockType: 'agent', name: 'Agent 1', position: { x: 700, y: 100 } },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'model', value: 'gpt-4o' },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'apiKey', value: 'sk-e2e' },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'memories', value: '<notes.memories>' },
      { type: 'setSubBlockValue', id: 'agent', subBlockId: 'userPrompt', value: `${marker} what did I say?` },
      { type: 'addEdge', source: 'mem', target: 'agent' },
    ]);
    for (const [key, role, content] of [['chat', 'user', 'hello'], ['chat', 'assistant', 'hi there'], ['later', 'user', 'hello again']] as const) {
      expect((await api('POST', '/api/memory', { workflowId: id, key, data: { role, content } })).status).toBe(200);
    }
    const res = await api<{ success: boolean }>('POST', `/api/workflows/${id}/execute`, {});
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const chats = await modelChats<{ body: { messages: Array<{ role: string; content: unknown }> } }>();
    const ours = chats.filter((c) => c.body.messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(marker)));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.body.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi there' },
      { role: 'user', content: 'hello again' },
      { role: 'user', content: `${marker} what did I say?` },
    ]);
  });
});

describe('synchronous calls that take longer than a gRPC call’s default deadline', () => {
  it('answer their own result through the gateway: function execute, the HTTP tool (GET and POST proxy), file parsing', async () => {
    // A second gateway whose default deadline is 1.5 s stands for the 10 s default at a fraction of the wait;
    // one call on the stack's own gateway takes longer than the real 10 s.
    const short = await startSecondGateway({ GRPC_DEADLINE_MS: '1500' });
    try {
      const cookie = await defaultCookie();
      const at = async <T>(method: string, path: string, body?: unknown) => {
        const res = await fetch(`${short.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        return { status: res.status, body: (await res.json()) as T };
      };
      fake.on('GET', '/slow-data', { delayMs: 3_000, json: { slow: true } });
      fake.on('GET', '/slow.csv', { delayMs: 3_000, headers: { 'content-type': 'text/csv' }, text: 'a,b\n1,2\n' });
      fake.on('GET', '/slower-data', { delayMs: 10_500, json: { slower: true } });
      const [busy, timedOut, viaGet, viaPost, parsed, overTen] = await Promise.all([
        // The function's own work (a busy loop: CPU, not a wait) and its own time limit.
        at('POST', '/api/function/execute', { code: 'const end = Date.now() + 3000; while (Date.now() < end) {} return "done"', timeout: 8_000 }),
        at('POST', '/api/function/execute', { code: 'while (true) {}', timeout: 4_000 }),
        at('GET', `/api/proxy?url=${encodeURIComponent(`${fake.url}/slow-data`)}`),
        at('POST', '/api/proxy', { toolId: 'http_request', params: { url: `${fake.url}/slow-data`, method: 'GET', timeout: 8_000 } }),
        at('POST', '/api/files/parse', { filePath: `${fake.url}/slow.csv` }),
        api<ToolResult>('POST', '/api/proxy', { toolId: 'http_request', params: { url: `${fake.url}/slower-data`, method: 'GET', timeout: 20_000 } }),
      ]);
      expect(busy).toEqual({ status: 200, body: { success: true, output: { result: 'done', stdout: '' } } });
      expect(timedOut).toMatchObject({ status: 200, body: { success: false, error: 'Function execution timed out after 4000 ms' } });
      expect(viaGet).toMatchObject({ status: 200, body: { success: true, output: { status: 200, data: { slow: true } } } });
      expect(viaPost).toMatchObject({ status: 200, body: { success: true, output: { status: 200, data: { slow: true } } } });
      expect(parsed).toMatchObject({ status: 200, body: { success: true, output: { files: [{ fileType: 'csv' }] } } });
      expect(overTen).toMatchObject({ status: 200, body: { success: true, output: { status: 200, data: { slower: true } } } });
      expect(overTen.body.timing.duration).toBeGreaterThanOrEqual(10_500);
    } finally {
      short.stop();
    }
  });
});

describe('get-user-workflow and Stagehand through the gateway', () => {
  it('get-user-workflow answers the YAML (and metadata) of a workflow the caller can read; strangers refused', async () => {
    const workflowId = await newWorkflow();
    const res = await api<{ success: boolean; output: { workflowId: string; yaml: string; version: number; metadata: { name: string; isDeployed: boolean } } }>('POST', '/api/tools/get-user-workflow', { workflowId, includeMetadata: true });
    expect(res.status).toBe(200);
    expect(res.body.output).toMatchObject({ workflowId, metadata: { isDeployed: false } });
    expect(res.body.output.yaml).toContain('starter');
    expect(res.body.output.metadata.name).toEqual(expect.any(String));
    expect((await api<{ output: object }>('POST', '/api/tools/get-user-workflow', { workflowId })).body.output).not.toHaveProperty('metadata');
    expect(await api('POST', '/api/tools/get-user-workflow', {})).toMatchObject({ status: 400, body: { error: 'workflowId is required' } });
    const stranger = await createAccount('Workflow Reader Stranger');
    expect([403, 404]).toContain((await api('POST', '/api/tools/get-user-workflow', { workflowId }, { cookie: stranger.cookie })).status);
  });

  it('stagehand extract loads the page and answers the model’s JSON as {data}', async () => {
    fake.on('GET', '/product', { headers: { 'content-type': 'text/html' }, text: '<html><body><h1>Widget</h1><p>Price 12 EUR</p></body></html>' });
    const marker = `[stagehand-${Date.now()}]`;
    await scriptModel(marker, [{ content: '{"price":12}' }]);
    const res = await api('POST', '/api/tools/stagehand/extract', { url: `${fake.url}/product`, instruction: `Get the price ${marker}`, schema: { type: 'object', properties: { price: { type: 'number' } } }, apiKey: 'sk-e2e' });
    expect(res).toMatchObject({ status: 200, body: { data: { price: 12 } } });
    expect(fake.received('GET', '/product')).toHaveLength(1);
    expect(await api('POST', '/api/tools/stagehand/extract', { url: `${fake.url}/product`, schema: {} })).toMatchObject({ status: 400, body: { error: 'instruction is required' } });
  });
});

describe('a run through the runner', () => {
  it('starter → API block (HTTP tool) → function → response', async () => {
    fake.on('GET', '/price', (req) => ({ json: { item: req.query.item, price: 40 } }));
    const id = await newWorkflow((starter) => [
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${fake.url}/price` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'params', value: [{ id: 'p1', cells: { Key: 'item', Value: 'tea' } }] },
      { type: 'addEdge', source: starter, target: 'fetch' },
      { type: 'addBlock', id: 'calc', blockType: 'function', name: 'Calc', position: { x: 700, y: 100 } },
      { type: 'setSubBlockValue', id: 'calc', subBlockId: 'code', value: 'return { item: <fetch.data.item>, total: <fetch.data.price> + 2 }' },
      { type: 'addEdge', source: 'fetch', target: 'calc' },
      { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 1000, y: 100 } },
      { type: 'setSubBlockValue', id: 'answer', subBlockId: 'dataMode', value: 'json' },
      { type: 'setSubBlockValue', id: 'answer', subBlockId: 'data', value: '{"total": <calc.result.total>, "item": <calc.result.item>}' },
      { type: 'addEdge', source: 'calc', target: 'answer' },
    ]);
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, { method: 'POST', headers: { cookie: await defaultCookie(), 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ total: 42, item: 'tea' });
    expect(fake.received('GET', '/price')[0]?.query).toEqual({ item: 'tea' });
  });

  it('an API block whose server answers 503 is tried again after a backoff and goes on once it answers; the log counts the tries', async () => {
    let calls = 0;
    fake.on('GET', '/flaky', () => (++calls < 3 ? { status: 503, json: { busy: true } } : { json: { ok: 1 } }));
    const id = await newWorkflow((starter) => [
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${fake.url}/flaky` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'addEdge', source: starter, target: 'fetch' },
    ]);
    type Log = { blockId: string; success: boolean; attempts?: number; output?: unknown; attemptLog?: Array<{ attempt: number; startedAt: string; durationMs: number; error?: string }> };
    const res = await api<{ success: boolean; logs: Log[]; metadata: { executionId: string } }>('POST', `/api/workflows/${id}/execute`, {});
    expect(res.body.success).toBe(true);
    expect(res.body.logs.find((l) => l.blockId === 'fetch')).toMatchObject({ success: true, attempts: 3, output: { data: { ok: 1 }, status: 200 } });
    expect(calls).toBe(3);
    // The log shows each attempt, in the answer and in the stored execution alike.
    const tries = [
      { attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), error: 'HTTP error 503: Service Unavailable' },
      { attempt: 2, startedAt: expect.any(String), durationMs: expect.any(Number), error: 'HTTP error 503: Service Unavailable' },
      { attempt: 3, startedAt: expect.any(String), durationMs: expect.any(Number) },
    ];
    expect(res.body.logs.find((l) => l.blockId === 'fetch')?.attemptLog).toEqual(tries);
    const stored = await api<{ logs: Log[] }>('GET', `/api/executions/${res.body.metadata.executionId}`);
    expect(stored.body.logs.find((l) => l.blockId === 'fetch')?.attemptLog).toEqual(tries);
  });

  it('the workflow executor route runs another workflow through the runner and answers when it ends', async () => {
    const child = await newWorkflow((starter) => [
      { type: 'addBlock', id: 'double', blockType: 'function', name: 'Double', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'double', subBlockId: 'code', value: 'return <start.input.n> * 2' },
      { type: 'addEdge', source: starter, target: 'double' },
    ]);
    const res = await api<{ success: boolean; duration: number; childWorkflowId: string; childWorkflowName: string; result: unknown }>('POST', '/api/tools/workflow-executor', { workflowId: child, inputMapping: '{"n": 21}' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, childWorkflowId: child, childWorkflowName: expect.any(String), duration: expect.any(Number) });
    expect(JSON.stringify(res.body.result)).toContain('42');
    expect(await api('POST', '/api/tools/workflow-executor', {})).toMatchObject({ status: 400, body: { error: expect.stringContaining('workflowId is required') } });
    const stranger = await createAccount('Executor Stranger');
    expect([403, 404]).toContain((await api('POST', '/api/tools/workflow-executor', { workflowId: child }, { cookie: stranger.cookie })).status);
    // The same tool by id through the proxy (and so from an agent): the integrations service runs it.
    const viaProxy = await api<{ success: boolean; output: { success: boolean; childWorkflowId: string; result: unknown } }>('POST', '/api/proxy', { toolId: 'workflow_executor', params: { workflowId: child, inputMapping: { n: 5 } } });
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.body).toMatchObject({ success: true, output: { success: true, childWorkflowId: child } });
    expect(JSON.stringify(viaProxy.body.output.result)).toContain('10');
  });

  it('a credentialed tool gets its token refreshed mid-run: starter → API → function → Slack (OAuth) → response', async () => {
    const { oauth, slack } = inject('serviceFakeUrls');
    const user = await createAccount('Slack Connector');
    const as = { cookie: user.cookie };
    // Connect Slack: the code exchange answers a token that expires within the registry's refresh window.
    const started = await fetch(`${inject('weftUrl')}/api/auth/oauth/authorize/slack`, { headers: as, redirect: 'manual' });
    expect(started.status).toBe(302);
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    await answerOnce(oauth, 'POST', '/token/slack', { json: { access_token: 'slack-first-token', refresh_token: 'refresh-slack', expires_in: 60, token_type: 'Bearer' } });
    const connected = await api<{ credential: { id: string } }>('GET', `/api/auth/oauth/callback?state=${encodeURIComponent(state)}&code=c1`, undefined, as);
    expect(connected.status).toBe(200);
    const credentialId = connected.body.credential.id;
    const ws = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, as);
    const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: ws.body.workspaces[0]?.id }, as);
    const got = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${created.body.id}`, undefined, as);
    const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter')?.id ?? '';
    fake.on('GET', '/stock', { json: { count: 5 } });
    const commands = [
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${fake.url}/stock` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'addEdge', source: starter, target: 'fetch' },
      { type: 'addBlock', id: 'calc', blockType: 'function', name: 'Calc', position: { x: 700, y: 100 } },
      { type: 'setSubBlockValue', id: 'calc', subBlockId: 'code', value: 'return "stock is " + (<fetch.data.count> * 2)' },
      { type: 'addEdge', source: 'fetch', target: 'calc' },
      { type: 'addBlock', id: 'post', blockType: 'slack', name: 'Post', position: { x: 1000, y: 100 } },
      { type: 'setSubBlockValue', id: 'post', subBlockId: 'operation', value: 'send' },
      { type: 'setSubBlockValue', id: 'post', subBlockId: 'authMethod', value: 'oauth' },
      { type: 'setSubBlockValue', id: 'post', subBlockId: 'credential', value: credentialId },
      { type: 'setSubBlockValue', id: 'post', subBlockId: 'manualChannel', value: 'C0123' },
      { type: 'setSubBlockValue', id: 'post', subBlockId: 'text', value: '<calc.result>' },
      { type: 'addEdge', source: 'calc', target: 'post' },
      { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 1300, y: 100 } },
      { type: 'setSubBlockValue', id: 'answer', subBlockId: 'dataMode', value: 'json' },
      { type: 'setSubBlockValue', id: 'answer', subBlockId: 'data', value: '{"ts": <post.ts>, "said": <calc.result>}' },
      { type: 'addEdge', source: 'post', target: 'answer' },
    ];
    expect((await api('POST', `/api/workflows/${created.body.id}/commands`, { commands }, as)).status).toBe(200);
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${created.body.id}/execute`, { method: 'POST', headers: { ...as, 'content-type': 'application/json' }, body: '{}' });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(JSON.parse(body)).toEqual({ ts: '1712345678.000100', said: 'stock is 10' });
    // The run refreshed the expiring token and Slack saw the new one, never the first.
    const refreshes = (await receivedBy(oauth)).filter((r) => r.path === '/token/slack' && (r.body as { grant_type?: string }).grant_type === 'refresh_token');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    const posts = (await receivedBy(slack)).filter((r) => r.path === '/chat.postMessage' && (r.body as { text?: string }).text === 'stock is 10');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers.authorization).toBe('Bearer token-slack');
    expect(body).not.toContain('token-slack');
  });
});
