import { createLogger } from '@weft/platform';
import { createFakeAi, createFakeAutomation, createFakeGmail, createFakeCrm, createFakeMicrosoft, createFakeSearch, createFakeSlack, type FakeServer } from '@weft/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBaseUrls } from '../runtime/baseUrls.js';
import { createToolExecutor } from '../runtime/executeTool.js';
import { serviceTools } from './index.js';

/**
 * Service tools run through the real execution layer: the catalogue's required-parameter check,
 * OAuth credentials turned into access tokens, the guarded client and base URLs taken from the
 * operator's variables (`WEFT_<SERVICE>_BASE_URL`) — here pointing at the fakes.
 */
const fakes: Record<string, FakeServer> = {};
let env: Record<string, string> = {};

beforeAll(async () => {
  [fakes.slack, fakes.search, fakes.ai, fakes.microsoft, fakes.crm, fakes.automation, fakes.gmail] = await Promise.all([
    createFakeSlack(),
    createFakeSearch(),
    createFakeAi(),
    createFakeMicrosoft(),
    createFakeCrm(),
    createFakeAutomation(),
    createFakeGmail(),
  ]);
  env = {
    WEFT_SLACK_BASE_URL: fakes.slack.url,
    WEFT_EXA_BASE_URL: `${fakes.search.url}/exa`,
    WEFT_TAVILY_BASE_URL: `${fakes.search.url}/tavily/`,
    WEFT_MISTRAL_BASE_URL: `${fakes.ai.url}/mistral`,
    WEFT_MICROSOFT_GRAPH_BASE_URL: fakes.microsoft.url,
    WEFT_WEALTHBOX_BASE_URL: `${fakes.crm.url}/wealthbox`,
    WEFT_S3_BASE_URL: `${fakes.automation.url}/s3`,
    WEFT_GMAIL_BASE_URL: `${fakes.gmail.url}/gmail/v1/users/me`,
  };
});
afterAll(() => Promise.all(Object.values(fakes).map((f) => f.close())));

const context = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'user1' };

function executor() {
  return createToolExecutor({
    policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
    baseUrls: createBaseUrls({}, env),
    credentials: { accessToken: (_ctx, id) => (id === 'cred-ms' ? Promise.resolve('graph-token-1') : Promise.reject(new Error('Credential not found'))) },
    customTools: { list: () => Promise.resolve([]) },
    internal: { handle: () => Promise.reject(new Error('no internal routes in this test')) },
    serviceTools,
    logger: createLogger('integrations', 'silent'),
    runCode: () => Promise.reject(new Error('no code in this test')),
  });
}
const run = (toolId: string, params: Record<string, unknown>) => executor().execute({ toolId, params, context }, 'answer');

describe('service tools through the execution layer', () => {
  it('slack_message: a credential becomes the bearer token, the base URL comes from WEFT_SLACK_BASE_URL', async () => {
    fakes.slack!.requests.length = 0;
    const res = await run('slack_message', { credential: 'cred-ms', channel: 'C0123', text: 'hi' });
    expect(res).toMatchObject({ success: true, output: { ts: '1712345678.000100', channel: 'C0123' } });
    expect(fakes.slack!.received('POST', '/chat.postMessage')[0]?.headers.authorization).toBe('Bearer graph-token-1');
  });

  it('exa_search: the catalogue check names a missing parameter before any request; an answered 401 keeps its §8 message', async () => {
    fakes.search!.requests.length = 0;
    expect(await run('exa_search', { apiKey: 'exa-key-1' })).toMatchObject({ success: false, error: 'Parameter "query" is required for exa_search but was not provided.' });
    expect(fakes.search!.requests).toHaveLength(0);
    fakes.search!.once('POST', '/exa/search', { status: 401, json: {} });
    expect(await run('exa_search', { apiKey: 'exa-key-1', query: 'weft' })).toMatchObject({ success: false, output: {}, error: 'Invalid API key. Please check your Exa AI API key.' });
  });

  it('tavily_search: a trailing slash in the variable is ignored', async () => {
    fakes.search!.requests.length = 0;
    expect(await run('tavily_search', { apiKey: 'tvly-key-1', query: 'weft' })).toMatchObject({ success: true, output: { query: 'weft' } });
    expect(fakes.search!.received('POST', '/tavily/search')).toHaveLength(1);
  });

  it('outlook_read and wealthbox_read_note answer §3 shapes through the layer', async () => {
    expect(await run('outlook_read', { credential: 'cred-ms' })).toMatchObject({ success: true, output: { message: 'Successfully read 1 email(s)' } });
    expect(fakes.microsoft!.received('GET', '/me/mailFolders/inbox/messages')[0]?.headers.authorization).toBe('Bearer graph-token-1');
    expect(await run('wealthbox_read_note', { credential: 'cred-ms', noteId: '201' })).toMatchObject({ success: true, output: { note: { id: 201 } } });
  });

  it('a 429 with a §8 message answers it; a 429 without one stays a retryable failure of the layer', async () => {
    fakes.search!.once('POST', '/exa/answer', { status: 429, json: {} });
    expect(await run('exa_answer', { apiKey: 'exa-key-1', query: 'q' })).toMatchObject({ success: false, error: 'Rate limit exceeded. Please try again later.' });
    fakes.search!.once('POST', '/tavily/search', { status: 429, json: {} });
    expect(await run('tavily_search', { apiKey: 'tvly-key-1', query: 'q' })).toMatchObject({ success: false, error: 'HTTP error 429: Too Many Requests' });
    fakes.microsoft!.once('GET', '/me/mailFolders/:folder/messages', { status: 429, json: {} });
    expect(await run('outlook_read', { credential: 'cred-ms' })).toMatchObject({ success: false, error: 'Outlook API quota exceeded. Please try again later.' });
  });

  it('mistral_parser: 5xx of its status table answer the table message', async () => {
    fakes.ai!.once('POST', '/mistral/ocr', { status: 503, json: {} });
    expect(await run('mistral_parser', { apiKey: 'mistral-key-1', filePath: 'https://files.weft.example/a.pdf' })).toMatchObject({
      success: false,
      error: 'Mistral OCR Error: Service temporarily unavailable - please try again later',
    });
  });

  it('mistral_parser: a 4xx from the service answers its table message, not a retry', async () => {
    fakes.ai!.once('POST', '/mistral/ocr', { status: 401, json: { message: 'Unauthorized' } });
    expect(await run('mistral_parser', { apiKey: 'mistral-key-1', filePath: 'https://files.weft.example/a.pdf' })).toMatchObject({
      success: false,
      error: 'Mistral OCR Error: Invalid API key - please check your Mistral API key',
    });
  });

  it('s3_get_object: the presigned link keeps the access key id (an identifier) while the secret key never appears', async () => {
    const secretAccessKey = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
    const res = await run('s3_get_object', { accessKeyId: 'AKIDEXAMPLE', secretAccessKey, region: 'eu-central-1', bucketName: 'weft-files', objectKey: 'reports/q3 plan.pdf' });
    expect(res.success).toBe(true);
    const url = new URL(String((res.output as { url: string }).url));
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request$/);
    expect(JSON.stringify(res)).not.toContain(secretAccessKey);
  });

  it('gmail_read: a detail that fails at Gmail (503) is noted, the read still succeeds', async () => {
    fakes.gmail!.once('GET', '/gmail/v1/users/me/messages/m2', { status: 503, json: { error: { message: 'backend' } } });
    const res = await run('gmail_read', { credential: 'cred-ms', maxResults: 2 });
    expect(res.success).toBe(true);
    expect((res.output as { content: string }).content).toContain('Details could not be retrieved for 1 message(s): m2');
  });
});
