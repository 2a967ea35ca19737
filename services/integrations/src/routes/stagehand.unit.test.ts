import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import { createAnthropicFake, createFakeServer, createOpenAIFake, type FakeModelServer, type FakeServer, type OpenAIFake } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import type { registry, runner } from '@weft/contracts';
import { createToolExecutor } from '../tools/runtime/executeTool.js';
import { createBaseUrls } from '../tools/runtime/baseUrls.js';
import { modelConfigFromEnv } from '../models/config.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { createRouter } from './router.js';
import { concealer, STAGEHAND_AGENT_MAX_STEPS, STAGEHAND_AGENT_MODEL, STAGEHAND_EXTRACT_MODEL, stagehandRoutes, withScheme } from './stagehand.routes.js';
import { workflowRoutes, type WorkflowSource } from './workflow.routes.js';

const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const context: CallContext = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };
const logger = createLogger('integrations', 'silent');

let site: FakeServer;
let openai: OpenAIFake;
let anthropic: FakeModelServer;
let routes: ReturnType<typeof createRouter>;

const workflow: registry.WorkflowEntry = {
  id: 'wf1',
  workspaceId: 'ws1',
  name: 'Lead intake',
  description: 'Scores leads',
  color: '#3972F6',
  marketplaceDataJson: '',
  isDeployed: true,
  deployedAt: '2026-11-01T10:00:00.000Z',
  createdAt: '2026-10-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  needsRedeployment: false,
  hasActiveWebhook: false,
};
const YAML = 'version: "1.0"\nblocks:\n  start:\n    type: starter\n';
const started: runner.StartRunRequest[] = [];
const cancelled: string[] = [];
/** Children waiting for their cancellation, by execution id. */
const waiting = new Map<string, () => void>();
/** The registry's access check and the editor's export: u1 reads wf1; anyone else is refused. */
const source: WorkflowSource = {
  getWorkflow: (req) => (req.actor.userId === 'u1' && req.workflowId === 'wf1' ? Promise.resolve({ workflow }) : Promise.reject(new AppError('forbidden', 'You do not have access to this workflow'))),
  exportYaml: () => Promise.resolve({ version: 7, yamlContent: YAML }),
  cancelRun: (req) => {
    cancelled.push(req.executionId);
    waiting.get(req.executionId)?.();
    return Promise.resolve({});
  },
  startRun: (req) => {
    started.push(req);
    const input = JSON.parse(req.inputJson) as { n?: number; hang?: boolean };
    // A child that runs until it is cancelled.
    if (input.hang) {
      return new Promise((resolve) => {
        waiting.set(req.executionId ?? '', () => resolve({ execution: { executionId: req.executionId ?? '', workflowId: req.workflowId, status: 'cancelled', error: 'Execution cancelled' } as runner.Execution }));
      });
    }
    const failed = input.n === undefined;
    return Promise.resolve({
      execution: {
        executionId: `ex${started.length}`,
        workflowId: req.workflowId,
        workspaceId: req.workspaceId,
        status: failed ? 'failed' : 'succeeded',
        trigger: req.trigger,
        inputJson: req.inputJson,
        outputJson: failed ? '' : JSON.stringify({ doubled: (input.n ?? 0) * 2 }),
        ...(failed ? { error: 'n is missing' } : {}),
        durationMs: 12,
      } as runner.Execution,
    });
  },
};

const route = (path: string, body: unknown, ctx: CallContext = context) => routes.handle({ method: 'POST', path, query: {}, body, context: ctx, envVars: {} });
const tools = () =>
  createToolExecutor({
    policy: ALLOW_FAKES,
    baseUrls: createBaseUrls({}, {}),
    credentials: { accessToken: () => Promise.reject(new Error('unused')) },
    customTools: { list: () => Promise.resolve([]) },
    internal: routes,
    serviceTools: {},
    logger,
    runCode: () => Promise.reject(new Error('unused')),
  });
const runTool = (toolId: string, params: Record<string, unknown>, signal?: AbortSignal) => tools().execute({ toolId, params, context }, 'answer', signal);

beforeAll(async () => {
  site = await createFakeServer();
  openai = await createOpenAIFake();
  anthropic = await createAnthropicFake();
  const models = { config: modelConfigFromEnv({ WEFT_OPENAI_BASE_URL: openai.baseUrl, WEFT_ANTHROPIC_BASE_URL: anthropic.url }), logger };
  // The text mode (no browser); the browser mode is stagehandBrowser.int.test.ts.
  routes = createRouter([...stagehandRoutes({ policy: ALLOW_FAKES, models, browser: null }), ...workflowRoutes(source)], logger);
});
afterAll(async () => {
  await site.close();
  await openai.close();
  await anthropic.close();
});
beforeEach(() => {
  site.reset();
  openai.reset();
  anthropic.reset();
  site.on('GET', '/shop', { text: '<html><head><title>Shop</title></head><body><h1>Widget</h1><p>Price: 12 EUR</p><a href="/shop/reviews">Reviews</a></body></html>', headers: { 'content-type': 'text/html' } });
  site.on('GET', '/shop/reviews', { text: '<html><head><title>Reviews</title></head><body><p>4.5 stars from 80 reviews</p></body></html>', headers: { 'content-type': 'text/html' } });
});

describe('POST /api/tools/stagehand/extract', () => {
  const schema = { type: 'object', properties: { product: { type: 'string' }, price: { type: 'number' } } };

  it('closes its page request when the caller gives up (a cancelled run)', async () => {
    site.on('GET', '/slow', { hang: true });
    const abort = new AbortController();
    const answer = routes.handle({ method: 'POST', path: '/tools/stagehand/extract', query: {}, body: { url: `${site.url}/slow`, instruction: 'Get it', schema: JSON.stringify(schema), apiKey: 'k' }, context, envVars: {}, signal: abort.signal });
    await expect.poll(() => site.received('GET', '/slow').length).toBe(1);
    abort.abort();
    // Well inside the page's own 30 s timeout, which would close it too.
    await expect.poll(() => site.received('GET', '/slow')[0]?.abandoned, { timeout: 10_000 }).toBe(true);
    await answer;
    expect(openai.chatRequests()).toEqual([]);
  });

  it('loads the page, asks the extraction model for JSON of the schema and answers {data}', async () => {
    openai.reply({ content: JSON.stringify({ product: 'Widget', price: 12 }) });
    const answer = await route('/tools/stagehand/extract', { url: `${site.url}/shop`, instruction: 'Get the product and its price', schema: JSON.stringify(schema), apiKey: 'sk-extract-secret' });
    expect(answer).toEqual({ status: 200, body: { data: { product: 'Widget', price: 12 } } });
    const [req] = openai.chatRequests();
    expect(req?.headers.authorization).toBe('Bearer sk-extract-secret');
    const body = req?.body as { model: string; response_format: { type: string; json_schema: { schema: unknown } }; messages: Array<{ content: string }> };
    expect(body.model).toBe(STAGEHAND_EXTRACT_MODEL);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
    const prompt = JSON.stringify(body.messages);
    expect(prompt).toContain('Get the product and its price');
    expect(prompt).toContain('Price: 12 EUR');
    expect(prompt).not.toContain('<h1>');
  });

  it('answers {error} naming the field for bad input, and nothing is loaded', async () => {
    expect(await route('/tools/stagehand/extract', { instruction: 'x', schema })).toEqual({ status: 400, body: { success: false, error: 'url is required' } });
    expect(await route('/tools/stagehand/extract', { url: site.url, schema })).toEqual({ status: 400, body: { success: false, error: 'instruction is required' } });
    expect(await route('/tools/stagehand/extract', { url: site.url, instruction: 'x', schema: '{not json' })).toEqual({ status: 400, body: { success: false, error: 'schema must be a JSON schema object' } });
    expect(await route('/tools/stagehand/extract', { url: site.url, instruction: 'x' })).toEqual({ status: 400, body: { success: false, error: 'schema is required' } });
    expect(site.requests).toHaveLength(0);
  });

  it('answers the model provider error, a page that fails to load, and a refused private address', async () => {
    openai.reply({ error: { status: 401, message: 'Incorrect API key provided' } });
    const refused = await route('/tools/stagehand/extract', { url: `${site.url}/shop`, instruction: 'x', schema, apiKey: 'bad' });
    expect(refused.status).toBe(401);
    expect((refused.body as { error: string }).error).toContain('Incorrect API key provided');
    const missing = await route('/tools/stagehand/extract', { url: `${site.url}/gone`, instruction: 'x', schema, apiKey: 'k' });
    expect(missing).toMatchObject({ status: 502, body: { error: `Failed to load ${site.url}/gone: HTTP error 404: Not Found` } });
    const strict = createRouter(stagehandRoutes({ policy: { allowPrivateNetwork: false, allowlist: [] }, models: { config: modelConfigFromEnv({}), logger }, browser: null }), logger);
    const metadata = await strict.handle({ method: 'POST', path: '/tools/stagehand/extract', query: {}, body: { url: 'http://169.254.169.254/latest', instruction: 'x', schema }, context, envVars: {} });
    expect(metadata).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^Outbound request refused/) } });
  });

  it('runs end to end as the stagehand_extract tool', async () => {
    openai.reply({ content: '{"product":"Widget","price":12}' });
    const res = await runTool('stagehand_extract', { url: `${site.url}/shop`, instruction: 'Get the product', schema, apiKey: 'sk-extract-secret' });
    expect(res).toMatchObject({ success: true, output: { data: { product: 'Widget', price: 12 } } });
    expect(JSON.stringify(res)).not.toContain('sk-extract-secret');
  });
});

describe('POST /api/tools/stagehand/agent', () => {
  const outputSchema = { type: 'object', properties: { rating: { type: 'number' } } };

  it('prefixes https:// to a start URL without a scheme', async () => {
    expect(withScheme('shop.example/start')).toBe('https://shop.example/start');
    expect(withScheme(' http://a.example ')).toBe('http://a.example');
    // The fake speaks plain HTTP, so the https:// request fails, naming the prefixed URL.
    const host = site.url.replace(/^http:\/\//, '');
    const res = await route('/tools/stagehand/agent', { task: 't', startUrl: `${host}/shop`, apiKey: 'k' });
    expect((res.body as { error: string }).error).toContain(`Failed to load https://${host}/shop`);
    expect(site.requests).toHaveLength(0);
  });

  it('navigates with the model, substitutes %variables% and answers agentResult and structuredOutput', async () => {
    anthropic.reply(
      { content: 'Open the reviews.', toolCalls: [{ name: 'goto', arguments: { url: `${site.url}/shop/reviews` }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Rated 4.5', output: { rating: 4.5 } }, id: 'toolu_2' }] },
    );
    const res = await route('/tools/stagehand/agent', {
      task: 'Find the rating of %product%',
      startUrl: `${site.url}/shop`,
      variables: [{ id: 'r1', cells: { Key: 'product', Value: 'Widget' } }],
      outputSchema: JSON.stringify(outputSchema),
      apiKey: 'sk-ant-agent-secret',
    });
    expect(res).toEqual({
      status: 200,
      body: {
        agentResult: {
          success: true,
          completed: true,
          message: 'Rated 4.5',
          actions: [
            { type: 'goto', url: `${site.url}/shop`, title: 'Shop' },
            { type: 'goto', url: `${site.url}/shop/reviews`, title: 'Reviews', reasoning: 'Open the reviews.' },
          ],
        },
        structuredOutput: { rating: 4.5 },
      },
    });
    const [first, second] = anthropic.chatRequests();
    expect(first?.headers['x-api-key']).toBe('sk-ant-agent-secret');
    expect(first?.body).toMatchObject({ model: STAGEHAND_AGENT_MODEL, tools: [{ name: 'goto' }, { name: 'done', input_schema: { properties: { output: outputSchema } } }] });
    expect(JSON.stringify(first?.body)).toContain('Find the rating of Widget');
    expect(JSON.stringify(second?.body)).toContain('4.5 stars from 80 reviews');
  });

  it(`stops an agent that has not finished after ${STAGEHAND_AGENT_MAX_STEPS} model turns`, async () => {
    anthropic.fallback({ toolCalls: [{ name: 'goto', arguments: { url: `${site.url}/shop` } }] });
    const res = await route('/tools/stagehand/agent', { task: 'loop', startUrl: `${site.url}/shop`, apiKey: 'k' });
    expect(res.body).toMatchObject({ agentResult: { success: false, completed: false, message: `The agent did not finish within ${STAGEHAND_AGENT_MAX_STEPS} steps` }, structuredOutput: null });
    expect(anthropic.chatRequests()).toHaveLength(STAGEHAND_AGENT_MAX_STEPS);
  });

  it('a failed agent answers success false, completed false and no actions (§8), also as the stagehand_agent tool', async () => {
    anthropic.reply({ error: { status: 401, message: 'invalid x-api-key' } });
    const res = await route('/tools/stagehand/agent', { task: 't', startUrl: `${site.url}/shop`, apiKey: 'bad' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: expect.stringContaining('invalid x-api-key'), agentResult: { success: false, completed: false, actions: [] }, structuredOutput: null });
    anthropic.reply({ error: { status: 401, message: 'invalid x-api-key' } });
    const tool = await runTool('stagehand_agent', { task: 't', startUrl: `${site.url}/shop`, apiKey: 'sk-ant-bad-secret' });
    expect(tool).toMatchObject({ success: false, error: expect.stringContaining('invalid x-api-key'), output: { agentResult: { success: false, completed: false, actions: [] }, structuredOutput: null } });
    expect(await route('/tools/stagehand/agent', { startUrl: site.url })).toMatchObject({ status: 400, body: { error: 'task is required', agentResult: { completed: false } } });
  });

  it('runs end to end as the stagehand_agent tool', async () => {
    anthropic.reply({ toolCalls: [{ name: 'done', arguments: { success: true, message: 'Widget costs 12 EUR' } }] });
    const res = await runTool('stagehand_agent', { task: 'What does it cost?', startUrl: `${site.url}/shop`, apiKey: 'sk-ant-agent-secret' });
    expect(res).toMatchObject({ success: true, output: { agentResult: { success: true, completed: true, message: 'Widget costs 12 EUR' }, structuredOutput: null } });
  });

  it('keeps %key% for a variable’s value in the action log: as given, percent- or form-encoded, in one pass; values under three characters are left', () => {
    const conceal = concealer({ token: 'Sup3r s3cret/1', pin: '42', name: 'token' });
    expect(conceal('/a/Sup3r s3cret/1?x=Sup3r%20s3cret%2F1&y=Sup3r+s3cret%2F1#Sup3r%20s3cret/1')).toBe('/a/%token%?x=%token%&y=%token%#%token%');
    // "token" is a value too: the %token% put in for the first one is not replaced again; 42 is too short to look for.
    expect(conceal('http://127.0.0.1:4242/p?pin=42&who=token&t=Sup3r s3cret/1')).toBe('http://127.0.0.1:4242/p?pin=42&who=%name%&t=%token%');
    expect(concealer({})('unchanged')).toBe('unchanged');
  });

  it('in the text mode too, a page a redirect moved a value into is logged with its %key%', async () => {
    site.on('GET', '/login', (req) => ({ status: 302, headers: { location: `/shop?session=${encodeURIComponent(req.query.token ?? '')}` } }));
    anthropic.reply(
      { toolCalls: [{ name: 'goto', arguments: { url: `${site.url}/login?token=t0ken-value` }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'In' }, id: 'toolu_2' }] },
    );
    const res = await route('/tools/stagehand/agent', { task: 'Sign in with %token%', startUrl: `${site.url}/shop`, variables: [{ id: 'r1', cells: { Key: 'token', Value: 't0ken-value' } }], apiKey: 'k' });
    expect((res.body as { agentResult: { actions: unknown[] } }).agentResult.actions).toEqual([
      { type: 'goto', url: `${site.url}/shop`, title: 'Shop' },
      { type: 'goto', url: `${site.url}/shop?session=%token%`, title: 'Shop' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('t0ken-value');
    expect(site.received('GET', '/shop')[1]?.query).toEqual({ session: 't0ken-value' });
  });

  it('a redirect to a scheme no request is made for answers 400 naming the scheme, a variable’s value as its %key%', async () => {
    // The start page redirects to a scheme made of the value: the guard's refusal names it.
    site.on('GET', '/login', { status: 302, headers: { location: 't0ken-value://home' } });
    const res = await route('/tools/stagehand/agent', { task: 'Sign in with %token%', startUrl: `${site.url}/login`, variables: [{ id: 'r1', cells: { Key: 'token', Value: 't0ken-value' } }], apiKey: 'k' });
    expect(res).toMatchObject({ status: 400, body: { error: 'Unsupported URL protocol: %token%:', agentResult: { success: false, completed: false, message: 'Unsupported URL protocol: %token%:', actions: [] } } });
    expect(JSON.stringify(res.body)).not.toContain('t0ken-value');
    expect(anthropic.chatRequests()).toEqual([]);
  });
});

describe('POST /api/tools/get-user-workflow', () => {
  it('answers the workflow as YAML, by default the one the call runs for', async () => {
    expect(await route('/tools/get-user-workflow', {})).toEqual({ status: 200, body: { success: true, output: { workflowId: 'wf1', yaml: YAML, version: 7 } } });
  });

  it('adds the metadata when includeMetadata is true', async () => {
    const res = await route('/tools/get-user-workflow', { workflowId: 'wf1', includeMetadata: true });
    expect(res.body).toEqual({
      success: true,
      output: {
        workflowId: 'wf1',
        yaml: YAML,
        version: 7,
        metadata: { name: 'Lead intake', description: 'Scores leads', color: '#3972F6', workspaceId: 'ws1', folderId: null, isDeployed: true, deployedAt: '2026-11-01T10:00:00.000Z', createdAt: '2026-10-01T10:00:00.000Z', updatedAt: '2026-11-02T10:00:00.000Z' },
      },
    });
  });

  it('refuses a workflow the user cannot read, and bad input names the field', async () => {
    expect(await route('/tools/get-user-workflow', { workflowId: 'wf-other' })).toMatchObject({ status: 403, body: { error: 'You do not have access to this workflow' } });
    expect(await route('/tools/get-user-workflow', {}, { ...context, workflowId: '' })).toEqual({ status: 400, body: { success: false, error: 'workflowId is required' } });
    expect(await route('/tools/get-user-workflow', { includeMetadata: 'yes' })).toEqual({ status: 400, body: { success: false, error: 'includeMetadata must be true or false' } });
    expect(await route('/tools/get-user-workflow', {}, { ...context, actorId: '' })).toMatchObject({ status: 401 });
  });
});

describe('POST /api/tools/workflow-executor', () => {
  beforeEach(() => {
    started.length = 0;
  });

  it('runs the workflow through the runner as the caller, waits for its end and answers its result (also as the workflow_executor tool)', async () => {
    const res = await route('/tools/workflow-executor', { workflowId: 'wf1', inputMapping: '{"n": 21}' }, { ...context, workflowId: 'other' });
    expect(res).toEqual({ status: 200, body: { success: true, duration: 12, childWorkflowId: 'wf1', childWorkflowName: 'Lead intake', executionId: 'ex1', result: { doubled: 42 } } });
    expect(started[0]).toMatchObject({ workflowId: 'wf1', actorId: 'u1', trigger: 'workflow', workspaceId: 'ws1', wait: true, inputJson: '{"n":21}' });
    const tool = await runTool('workflow_executor', { workflowId: 'wf1', inputMapping: { n: 4 } });
    expect(tool).toMatchObject({ success: true, output: { success: true, childWorkflowId: 'wf1', result: { doubled: 8 } } });
  });

  it('cancels the child run when the calling run is cancelled (the tool call aborted)', async () => {
    cancelled.length = 0;
    const abort = new AbortController();
    const call = runTool('workflow_executor', { workflowId: 'wf1', inputMapping: { hang: true } }, abort.signal);
    await expect.poll(() => started.length).toBe(1);
    expect(cancelled).toEqual([]);
    abort.abort();
    const childId = started[0]?.executionId;
    expect(childId).toMatch(/^[0-9a-f-]{36}$/);
    await call;
    expect(cancelled).toEqual([childId]);
  });

  it('answers a failed child run as success false with its error', async () => {
    expect(await route('/tools/workflow-executor', { workflowId: 'wf1' })).toMatchObject({ status: 200, body: { success: false, error: 'n is missing', executionId: 'ex1' } });
  });

  it('refuses bad input naming the field, a workflow the caller may not run, and a run calling its own workflow', async () => {
    expect(await route('/tools/workflow-executor', {})).toEqual({ status: 400, body: { success: false, error: 'workflowId is required' } });
    expect(await route('/tools/workflow-executor', { workflowId: 'wf1', inputMapping: '{n' })).toEqual({ status: 400, body: { success: false, error: 'inputMapping must be JSON' } });
    expect(await route('/tools/workflow-executor', { workflowId: 'wf-other' })).toMatchObject({ status: 403 });
    expect(await route('/tools/workflow-executor', { workflowId: 'wf1' }, { ...context, executionId: 'run1' })).toEqual({
      status: 400,
      body: { success: false, error: 'A workflow cannot run itself through the workflow executor' },
    });
    expect(started).toEqual([]);
  });
});
