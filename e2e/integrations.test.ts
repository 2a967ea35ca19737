import { describe, expect, inject, it } from 'vitest';
import { S3_URL_EXAMPLE } from '@weft/catalog';
import {
  AIRTABLE_FIXTURES,
  AUTOMATION_FIXTURES,
  CRM_FIXTURES,
  GMAIL_FIXTURES,
  GOOGLE_FIXTURES,
  MESSAGING_FIXTURES,
  NOTION_FIXTURES,
  SLACK_FIXTURES,
  SUPABASE_FIXTURES,
  VECTOR_FIXTURES,
  uniqueSuffix,
  type RecordedRequest,
} from '@weft/testkit';
import { api, defaultCookie } from './support/http.js';
import { answerOnce, receivedBy, type ServiceFakeName } from './support/serviceFakes.js';
import { oneBlock, workflowWith } from './support/runStream.js';
import { modelChats, scriptModel } from './support/modelScripts.js';

/**
 * One run per integration family through the gateway: a workflow starter → the family's tool block,
 * run with POST /api/workflows/{id}/execute; the stack's integrations service reaches the family's
 * protocol fake (e2e/support/serviceFakes.ts, started by the global setup) through the
 * WEFT_<SERVICE>_BASE_URL variables. OAuth tools use a credential connected through the registry's
 * real authorize/callback flow against the fakes' token endpoint.
 */

interface LogEntry {
  blockId: string;
  blockType: string;
  success: boolean;
  output?: Record<string, unknown>;
  error?: string;
}
interface RunAnswer {
  success: boolean;
  output: Record<string, unknown>;
  error?: string;
  logs: LogEntry[];
}

const fakeUrl = (name: ServiceFakeName): string => inject('serviceFakeUrls')[name];

/** A workflow: starter → block "tool" of `blockType` with the given sub-block values. */
async function toolWorkflow(blockType: string, values: Record<string, unknown>): Promise<string> {
  return (await workflowWith(oneBlock('tool', blockType, 'Tool', values))).id;
}

/** Runs a workflow synchronously and answers the run and the tool block's log entry. */
async function run(workflowId: string): Promise<{ run: RunAnswer; log: LogEntry }> {
  const res = await api<RunAnswer>('POST', `/api/workflows/${workflowId}/execute`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const log = res.body.logs?.find((l) => l.blockId === 'tool');
  if (!log) throw new Error(`no log of the tool block: ${JSON.stringify(res.body)}`);
  return { run: res.body, log };
}

/** The requests a fake receives while `action` runs (the fakes serve this file only; its tests run one at a time). */
async function during<T>(fake: ServiceFakeName, action: () => Promise<T>): Promise<{ result: T; requests: RecordedRequest[] }> {
  const before = (await receivedBy(fakeUrl(fake))).length;
  const result = await action();
  return { result, requests: (await receivedBy(fakeUrl(fake))).slice(before) };
}

/** The single request to `method path` among `requests` (path as received, before decoding). */
function only(requests: RecordedRequest[], method: string, path: string): RecordedRequest {
  const found = requests.filter((r) => r.method === method && r.path === path);
  expect(found, `${method} ${path} among ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

const credentials = new Map<string, Promise<string>>();

/** An OAuth credential of the default account for `provider`, connected through the gateway once per file. */
function credential(provider: string): Promise<string> {
  let pending = credentials.get(provider);
  if (!pending) {
    pending = connect(provider);
    credentials.set(provider, pending);
  }
  return pending;
}

async function connect(provider: string): Promise<string> {
  const started = await fetch(`${inject('weftUrl')}/api/auth/oauth/authorize/${provider}`, { headers: { cookie: await defaultCookie() }, redirect: 'manual' });
  expect(started.status).toBe(302);
  const location = new URL(started.headers.get('location') ?? '');
  expect(`${location.origin}${location.pathname}`).toBe(`${fakeUrl('oauth')}/authorize/${provider}`);
  const state = location.searchParams.get('state') ?? '';
  const code = `code-${provider}-${uniqueSuffix()}`;
  const { result: done, requests } = await during('oauth', () => api<{ credential: { id: string } }>('GET', `/api/auth/oauth/callback?state=${encodeURIComponent(state)}&code=${code}`));
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  // The registry exchanged the code at the provider's token endpoint.
  expect(only(requests, 'POST', `/token/${provider}`).body).toMatchObject({ grant_type: 'authorization_code', code, client_id: `client-${provider}` });
  return done.body.credential.id;
}

/** Runs starter → `blockType` and answers what `fake` received meanwhile with the tool block's log. */
async function runBlock(fake: ServiceFakeName, blockType: string, values: Record<string, unknown>) {
  const id = await toolWorkflow(blockType, values);
  const { result, requests } = await during(fake, () => run(id));
  return { ...result, requests };
}

function expectSucceeded(log: LogEntry): Record<string, unknown> {
  expect(log, JSON.stringify(log)).toMatchObject({ success: true });
  return log.output ?? {};
}

const NOTION_RAW = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d';
const NOTION_ID = '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d';

describe('one run per integration family through the gateway, against its fake', () => {
  it('ai (perplexity): chat request with the key; content and model answered', async () => {
    const { log, requests } = await runBlock('ai', 'perplexity', { systemPrompt: 'Be brief', content: 'What is Weft?', model: 'sonar', apiKey: 'pplx-e2e' });
    const req = only(requests, 'POST', '/perplexity/chat/completions');
    expect(req.headers.authorization).toBe('Bearer pplx-e2e');
    expect(req.body).toMatchObject({ model: 'sonar', messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'What is Weft?' }] });
    expect(expectSucceeded(log)).toMatchObject({ content: 'Weft is a workflow builder.', model: 'sonar' });
  });

  it('airtable: lists records with an OAuth credential turned into the bearer token', async () => {
    const cred = await credential('airtable');
    const { log, requests } = await runBlock('airtable', 'airtable', { operation: 'list', credential: cred, baseId: 'appB', tableId: 'Tasks', maxRecords: '5' });
    const req = only(requests, 'GET', '/v0/appB/Tasks');
    expect(req.headers.authorization).toBe('Bearer token-airtable');
    expect(req.query).toMatchObject({ maxRecords: '5' });
    expect(expectSucceeded(log)).toMatchObject({ records: AIRTABLE_FIXTURES.list.records });
  });

  it('clay: posts {data} to the webhook with the token', async () => {
    const { log, requests } = await runBlock('automation', 'clay', { webhookURL: `${fakeUrl('automation')}/clay/webhook`, data: '{"company":"Weft","size":12}', authToken: 'clay-e2e' });
    const req = only(requests, 'POST', '/clay/webhook');
    expect(req.headers.authorization).toBe('Bearer clay-e2e');
    expect(req.body).toEqual({ data: { company: 'Weft', size: 12 } });
    expect(expectSucceeded(log)).toEqual({ data: AUTOMATION_FIXTURES.clay });
  });

  it('discord: sends a message with the bot token', async () => {
    const { log, requests } = await runBlock('messaging', 'discord', { operation: 'discord_send_message', botToken: 'MTIz.e2e', serverId: 'g1', channelId: 'chan-1', content: 'hello from a run' });
    const req = only(requests, 'POST', '/discord/channels/chan-1/messages');
    expect(req.headers.authorization).toBe('Bot MTIz.e2e');
    expect(req.body).toEqual({ content: 'hello from a run' });
    expect(expectSucceeded(log)).toEqual({ message: 'Discord message sent successfully', data: MESSAGING_FIXTURES.discordMessage });
  });

  it('github: repository info with the API version header; a 401 fails the block with the §8 message', async () => {
    const values = { operation: 'github_repo_info', owner: 'acme', repo: 'app', apiKey: 'ghp_e2e' };
    const { log, requests } = await runBlock('github', 'github', values);
    const req = only(requests, 'GET', '/repos/acme/app');
    expect(req.headers.authorization).toBe('Bearer ghp_e2e');
    expect(req.headers['x-github-api-version']).toBe('2022-11-28');
    expect(expectSucceeded(log)).toMatchObject({ metadata: { name: 'app', description: 'The app', stars: 120, forks: 7, language: 'TypeScript' } });

    await answerOnce(fakeUrl('github'), 'GET', '/repos/acme/app', { status: 401, json: {} });
    const failed = await runBlock('github', 'github', values);
    expect(failed.requests).toHaveLength(1);
    expect(failed.log).toMatchObject({ success: false, error: expect.stringContaining('Authentication failed. Please check your GitHub token.') });
    expect(failed.run.success).toBe(false);
  });

  it('gmail: sends the message as base64url raw with the credential’s token', async () => {
    const cred = await credential('google-email');
    const { log, requests } = await runBlock('gmail', 'gmail', { operation: 'send_gmail', credential: cred, to: 'bob@acme.dev', subject: 'Hi', body: 'Hello Bob' });
    const req = only(requests, 'POST', '/gmail/v1/users/me/messages/send');
    expect(req.headers.authorization).toBe('Bearer token-google-email');
    const raw = Buffer.from(String((req.body as { raw: string }).raw), 'base64url').toString('utf8');
    expect(raw).toContain('To: bob@acme.dev\r\nSubject: Hi\r\n');
    expect(raw.endsWith('\r\n\r\nHello Bob')).toBe(true);
    expect(expectSucceeded(log)).toEqual({ content: 'Email sent successfully', metadata: GMAIL_FIXTURES.sent });
  });

  it('google calendar: lists single events ordered by start time', async () => {
    const cred = await credential('google-calendar');
    const { log, requests } = await runBlock('google', 'google_calendar', { operation: 'list', credential: cred, manualCalendarId: 'primary', timeMin: '2025-06-01T00:00:00Z' });
    const req = only(requests, 'GET', '/calendar/v3/calendars/primary/events');
    expect(req.headers.authorization).toBe('Bearer token-google-calendar');
    expect(req.query).toMatchObject({ singleEvents: 'true', orderBy: 'startTime', timeMin: '2025-06-01T00:00:00Z' });
    expect(expectSucceeded(log)).toMatchObject({ content: 'Found 2 events', metadata: { events: [{ id: 'ev-1' }, { id: 'ev-2', summary: 'Retro' }] } });
  });

  it('google docs: reads a document and joins its text runs', async () => {
    const cred = await credential('google-docs');
    const { log, requests } = await runBlock('google', 'google_docs', { operation: 'read', credential: cred, manualDocumentId: 'doc-1' });
    expect(only(requests, 'GET', '/v1/documents/doc-1').headers.authorization).toBe('Bearer token-google-docs');
    expect(expectSucceeded(log)).toMatchObject({ content: 'Hello world\nSecond line\n', metadata: { documentId: 'doc-1', title: 'Spec' } });
  });

  it('google drive: lists a folder’s files', async () => {
    const cred = await credential('google-drive');
    const { log, requests } = await runBlock('google', 'google_drive', { operation: 'list', credential: cred, folderId: 'fold', pageSize: '5' });
    const req = only(requests, 'GET', '/drive/v3/files');
    expect(req.headers.authorization).toBe('Bearer token-google-drive');
    expect(req.query).toMatchObject({ q: "trashed = false and 'fold' in parents", pageSize: '5' });
    expect(expectSucceeded(log)).toMatchObject({ nextPageToken: 'next-2', files: [{ id: 'f1', name: 'a.txt' }, { id: 'f2' }] });
  });

  it('google sheets: reads a range', async () => {
    const cred = await credential('google-sheets');
    const { log, requests } = await runBlock('google', 'google_sheets', { operation: 'read', credential: cred, manualSpreadsheetId: 'sheet-1', range: 'Sheet1!A1:B2' });
    const req = requests.find((r) => r.method === 'GET' && decodeURIComponent(r.path) === '/v4/spreadsheets/sheet-1/values/Sheet1!A1:B2');
    expect(req?.headers.authorization).toBe('Bearer token-google-sheets');
    expect(expectSucceeded(log)).toMatchObject({ data: { range: 'Sheet1!A1:B2', values: GOOGLE_FIXTURES.sheetValues.values } });
  });

  it('jira: finds the cloud id of the domain, then reads the issue', async () => {
    const cred = await credential('jira');
    const { log, requests } = await runBlock('jira', 'jira', { operation: 'read', credential: cred, domain: 'acme.atlassian.example', manualProjectId: 'PROJ', manualIssueKey: 'PROJ-7' });
    expect(only(requests, 'GET', '/oauth/token/accessible-resources').headers.authorization).toBe('Bearer token-jira');
    expect(only(requests, 'GET', '/ex/jira/cloud-1/rest/api/3/issue/PROJ-7').headers.authorization).toBe('Bearer token-jira');
    expect(expectSucceeded(log)).toMatchObject({ issueKey: 'PROJ-7', summary: 'Login fails', description: 'Details of PROJ-7' });
  });

  it('linear: reads the team’s issues over GraphQL', async () => {
    const cred = await credential('linear');
    const { log, requests } = await runBlock('linear', 'linear', { operation: 'read', credential: cred, teamId: 'team-1', projectId: 'proj-1' });
    const req = only(requests, 'POST', '/graphql');
    expect(req.headers.authorization).toBe('Bearer token-linear');
    expect(req.body).toMatchObject({ variables: { teamId: 'team-1', projectId: 'proj-1' } });
    expect(expectSucceeded(log)).toMatchObject({ issues: [{ id: 'iss-1', title: 'Fix login' }, { id: 'iss-2', title: 'Add SSO' }] });
  });

  it('mem0: searches a user’s memories', async () => {
    const { log, requests } = await runBlock('crm', 'mem0', { operation: 'search', userId: 'u1', query: 'drinks', limit: 5, apiKey: 'm0-e2e' });
    const req = only(requests, 'POST', '/mem0/v2/memories/search/');
    expect(String(req.headers.authorization)).toContain('m0-e2e');
    expect(req.body).toEqual({ query: 'drinks', filters: { user_id: 'u1' }, top_k: 5 });
    expect(expectSucceeded(log)).toMatchObject({ ids: ['mem-1'] });
  });

  it('microsoft (outlook): reads a folder newest first', async () => {
    const cred = await credential('outlook');
    const { log, requests } = await runBlock('microsoft', 'outlook', { operation: 'read_outlook', credential: cred, folder: 'SentItems', maxResults: '3' });
    const req = only(requests, 'GET', '/me/mailFolders/sentitems/messages');
    expect(req.headers.authorization).toBe('Bearer token-outlook');
    expect(req.query).toEqual({ $top: '3', $orderby: 'receivedDateTime desc' });
    expect(expectSucceeded(log)).toMatchObject({ message: 'Successfully read 1 email(s)', results: [{ subject: 'Hello' }] });
  });

  it('notion: formats the page id and reads the page with the API version header', async () => {
    const cred = await credential('notion');
    const { log, requests } = await runBlock('notion', 'notion', { operation: 'notion_read', credential: cred, pageId: NOTION_RAW });
    const page = only(requests, 'GET', `/v1/pages/${NOTION_ID}`);
    expect(page.headers.authorization).toBe('Bearer token-notion');
    expect(page.headers['notion-version']).toBe('2022-06-28');
    only(requests, 'GET', `/v1/blocks/${NOTION_ID}/children`);
    expect(expectSucceeded(log)).toEqual({
      content: '# Q3\n\nShip the builder.\n\n- Tools',
      metadata: { title: 'Roadmap', lastEditedTime: '2025-04-02T09:00:00.000Z', createdTime: '2025-04-01T09:00:00.000Z', url: NOTION_FIXTURES.page.url },
    });
  });

  it('pinecone: fetches vectors from the index host with the API version', async () => {
    const { log, requests } = await runBlock('vectors', 'pinecone', { operation: 'fetch', indexHost: fakeUrl('vectors'), namespace: 'ns1', ids: '["vec1","vec2"]', apiKey: 'pc-e2e' });
    const req = only(requests, 'GET', '/vectors/fetch');
    expect(req.headers['api-key']).toBe('pc-e2e');
    expect(req.headers['x-pinecone-api-version']).toBe('2025-01');
    expect(req.query).toMatchObject({ namespace: 'ns1' });
    expect(expectSucceeded(log)).toEqual({ matches: [{ id: 'vec1', values: [0.1, 0.2], metadata: { genre: 'docs' } }], namespace: 'ns1' });
  });

  it('qdrant: searches a collection at the given URL', async () => {
    const { log, requests } = await runBlock('vectors', 'qdrant', { operation: 'search', url: fakeUrl('vectors'), apiKey: 'qd-e2e', collection: 'docs', vector: '[0.1,0.2]', limit: '3' });
    const req = only(requests, 'POST', '/collections/docs/points/query');
    expect(req.headers['api-key']).toBe('qd-e2e');
    expect(req.body).toMatchObject({ query: [0.1, 0.2], limit: 3 });
    expect(expectSucceeded(log)).toEqual({ status: 'ok', data: VECTOR_FIXTURES.qdrantQuery.result.points });
  });

  it('reddit: strips r/ and reads the newest posts', async () => {
    const cred = await credential('reddit');
    const { log, requests } = await runBlock('reddit', 'reddit', { operation: 'get_posts', credential: cred, subreddit: 'r/typescript', sort: 'new', limit: '5' });
    const req = only(requests, 'GET', '/r/typescript/new');
    expect(req.headers.authorization).toBe('Bearer token-reddit');
    expect(req.query).toMatchObject({ limit: '5' });
    expect(expectSucceeded(log)).toMatchObject({ subreddit: 'typescript', posts: [{ id: 'p1', title: 'TS 6 is out' }, { id: 'p2' }] });
  });

  it('s3: a signed HEAD of the object; metadata and a presigned link valid 3600 s', async () => {
    const { log, requests } = await runBlock('automation', 's3', {
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      // the catalogue's placeholder object URL (bucket `bucket-name`, region `region`) with the fake's key
      s3Uri: new URL('/reports/q3%20plan.pdf', S3_URL_EXAMPLE).href,
    });
    const req = only(requests, 'HEAD', '/s3/reports/q3%20plan.pdf');
    expect(String(req.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/region\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
    const out = expectSucceeded(log) as { url: string; metadata: Record<string, unknown> };
    expect(out.metadata).toMatchObject({ fileType: 'application/pdf', size: 52311, name: 'q3 plan.pdf' });
    const link = new URL(out.url);
    expect(`${link.origin}${link.pathname}`).toBe(`${fakeUrl('automation')}/s3/reports/q3%20plan.pdf`);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-Expires': '3600' });
    expect(JSON.stringify(log.output)).not.toContain('wJalrXUtnFEMI');
  });

  it('search (exa): posts the query with the key header', async () => {
    const { log, requests } = await runBlock('search', 'exa', { operation: 'exa_search', query: 'weft', numResults: '3', apiKey: 'exa-e2e' });
    const req = only(requests, 'POST', '/exa/search');
    expect(req.headers['x-api-key']).toBe('exa-e2e');
    expect(req.body).toMatchObject({ query: 'weft', numResults: 3 });
    expect(expectSucceeded(log)).toMatchObject({ results: [{ title: 'Workflows', url: 'https://weft.example/a', score: 0.91 }] });
  });

  it('slack: posts a message with a custom bot token', async () => {
    const { log, requests } = await runBlock('slack', 'slack', { operation: 'send', authMethod: 'bot_token', botToken: 'xoxb-e2e', manualChannel: 'C0123', text: 'hello from a run' });
    const req = only(requests, 'POST', '/chat.postMessage');
    expect(req.headers.authorization).toBe('Bearer xoxb-e2e');
    expect(req.body).toEqual({ channel: 'C0123', text: 'hello from a run' });
    expect(expectSucceeded(log)).toEqual({ ts: SLACK_FIXTURES.postMessage.ts, channel: 'C0123' });
  });

  it('supabase: queries the project’s table with a filter and the key', async () => {
    const { log, requests } = await runBlock('supabase', 'supabase', { operation: 'query', projectId: 'proj1', table: 'people', apiKey: 'srk-e2e', filter: 'age=gt.30', limit: '5' });
    const req = only(requests, 'GET', '/proj1/rest/v1/people');
    expect(req.headers.apikey).toBe('srk-e2e');
    expect(req.query).toMatchObject({ select: '*', limit: '5', age: 'gt.30' });
    expect(expectSucceeded(log)).toEqual({ message: 'Successfully queried 2 row(s) from people', results: SUPABASE_FIXTURES.rows });
  });

  it('telegram: sends HTML text to the chat', async () => {
    const { log, requests } = await runBlock('messaging', 'telegram', { botToken: '123:E2E', chatId: '-100123', text: '<b>Hello</b>' });
    expect(only(requests, 'POST', '/telegram/bot123:E2E/sendMessage').body).toEqual({ chat_id: '-100123', text: '<b>Hello</b>', parse_mode: 'HTML' });
    expect(expectSucceeded(log)).toEqual({ ok: true, result: MESSAGING_FIXTURES.telegram.result });
  });

  it('twilio: posts a form with basic auth', async () => {
    const { log, requests } = await runBlock('messaging', 'twilio_sms', { phoneNumbers: '+4915112345678', message: 'Hi', accountSid: 'AC1', authToken: 'tok-e2e', fromNumber: '+15005550006' });
    const req = only(requests, 'POST', '/twilio/Accounts/AC1/Messages.json');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('AC1:tok-e2e').toString('base64')}`);
    expect(req.body).toEqual({ To: '+4915112345678', From: '+15005550006', Body: 'Hi' });
    expect(expectSucceeded(log)).toEqual({ success: true, messageId: 'SM123', status: 'queued' });
  });

  it('typeform: pages a form’s responses', async () => {
    const { log, requests } = await runBlock('crm', 'typeform', { operation: 'responses', formId: 'form1', apiKey: 'tfp-e2e', pageSize: '25' });
    const req = only(requests, 'GET', '/typeform/forms/form1/responses');
    expect(req.headers.authorization).toBe('Bearer tfp-e2e');
    expect(req.query).toEqual({ page_size: '25' });
    expect(expectSucceeded(log)).toEqual(CRM_FIXTURES.typeformResponses);
  });

  it('wealthbox: reads a note', async () => {
    const cred = await credential('wealthbox');
    const { log, requests } = await runBlock('crm', 'wealthbox', { operation: 'read_note', credential: cred, noteId: '201' });
    expect(only(requests, 'GET', '/wealthbox/notes/201').headers.authorization).toBe('Bearer token-wealthbox');
    expect(expectSucceeded(log)).toMatchObject({ note: CRM_FIXTURES.note });
  });

  it('whatsapp: posts a text message without the leading +', async () => {
    const { log, requests } = await runBlock('messaging', 'whatsapp', { phoneNumber: '+4915112345678', message: 'Hi there', phoneNumberId: '10987', accessToken: 'EAAG-e2e' });
    const req = only(requests, 'POST', '/whatsapp/10987/messages');
    expect(req.headers.authorization).toBe('Bearer EAAG-e2e');
    expect(req.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '4915112345678', type: 'text', text: { body: 'Hi there' } });
    expect(expectSucceeded(log)).toEqual({ success: true, messageId: 'wamid.HBgM' });
  });

  it('x: posts a tweet', async () => {
    const cred = await credential('x');
    const { log, requests } = await runBlock('x', 'x', { operation: 'x_write', credential: cred, text: 'Hello X' });
    const req = only(requests, 'POST', '/2/tweets');
    expect(req.headers.authorization).toBe('Bearer token-x');
    expect(req.body).toEqual({ text: 'Hello X' });
    expect(expectSucceeded(log)).toMatchObject({ tweet: { id: 'tw-new', text: 'Hello X' } });
  });
});

describe('an agent using a tool block as its tool', () => {
  it('the model calls the Slack block; the service receives the block’s channel and token with the model’s text; the answer follows', async () => {
    const nonce = uniqueSuffix();
    const marker = `[slack-agent-${nonce}]`;
    const text = `Launch moved to Friday (${nonce})`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'slack_message', arguments: { text } }], usage: { prompt: 10, completion: 5 } },
      { content: 'Posted it to the channel.', usage: { prompt: 20, completion: 6 } },
    ]);
    const id = await toolWorkflow('agent', {
      model: 'gpt-4o',
      apiKey: 'sk-e2e',
      userPrompt: `${marker} tell the team the launch moved`,
      tools: [{ type: 'slack', operation: 'send', params: { authMethod: 'bot_token', botToken: 'xoxb-agent', manualChannel: 'C0AGENT' }, usageControl: 'auto' }],
    });
    const { result, requests } = await during('slack', () => run(id));
    const req = only(requests, 'POST', '/chat.postMessage');
    expect(req.headers.authorization).toBe('Bearer xoxb-agent');
    expect(req.body).toEqual({ channel: 'C0AGENT', text });
    const out = expectSucceeded(result.log) as { content: string; toolCalls: Array<{ name: string; success: boolean }> };
    expect(out.content).toBe('Posted it to the channel.');
    expect(out.toolCalls.map((c) => [c.name, c.success])).toEqual([['slack_message', true]]);

    // The model was offered the block's tool with only what the block left open, and got the service's answer back.
    const chats = await modelChats<{
      body: { messages: Array<{ role: string; content: string }>; tools?: Array<{ function: { name: string; parameters: { properties: Record<string, unknown> } } }> };
    }>();
    const ours = chats.filter((c) => c.body.messages.some((m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes(marker)));
    expect(ours).toHaveLength(2);
    const offered = ours[0]?.body.tools?.find((t) => t.function.name === 'slack_message');
    expect(Object.keys(offered?.function.parameters.properties ?? {})).toContain('text');
    expect(Object.keys(offered?.function.parameters.properties ?? {})).not.toContain('channel');
    expect(ours[1]?.body.messages.find((m) => m.role === 'tool')?.content).toContain(SLACK_FIXTURES.postMessage.ts);
  });
});
