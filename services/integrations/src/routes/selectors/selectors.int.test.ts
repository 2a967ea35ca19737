import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALLER, createSelectorHarness, tokenOf, type SelectorHarness } from './selectorTestSupport.js';

// POST /api/tools/selectors/list (the selectors contract): its checks, the credential's owner, the
// provider's refusals, and Slack's channels by OAuth account or bot token. Each provider's listing:
// selectorProviders.int.test.ts.

let h: SelectorHarness;
const slack = (values: Record<string, unknown>, extra: Record<string, unknown> = {}) => h.list({ blockType: 'slack', fieldId: 'channel', values, ...extra });

beforeAll(async () => {
  h = await createSelectorHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.reset());

describe('the request’s checks', () => {
  it('names each bad field with a 400, before any provider or the registry is asked', async () => {
    const cases: Array<[unknown, string]> = [
      ['text', 'body must be a JSON object'],
      [{ workflowId: '', blockType: 'slack', fieldId: 'channel' }, 'workflowId is required'],
      [{ fieldId: 'channel' }, 'blockType is required'],
      [{ blockType: 'slack' }, 'fieldId is required'],
      [{ blockType: 'slack', fieldId: 'channel', values: ['x'] }, 'values must be an object of field values'],
      [{ blockType: 'slack', fieldId: 'channel', search: 3 }, 'search must be a string'],
      [{ blockType: 'slack', fieldId: 'channel', search: 'x'.repeat(201) }, 'search must be at most 200 characters'],
      [{ blockType: 'nope', fieldId: 'channel' }, 'blockType "nope" is not a block'],
      [{ blockType: 'slack', fieldId: 'text' }, 'fieldId "text" is not a selector field of Slack'],
      [{ blockType: 'knowledge', fieldId: 'knowledgeBaseIds' }, 'fieldId "knowledgeBaseIds" is not a selector field of Knowledge'],
      [{ blockType: 'slack', fieldId: 'channel', values: { credential: 'mine-slack' }, cursor: 'garbage' }, 'cursor is not a nextCursor this list answered'],
      [{ blockType: 'google_drive', fieldId: 'folderSelector', values: {} }, 'Select an account in "Google Drive Account" first'],
      [{ blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential: 42 } }, 'Select an account in "Google Account" first'],
      [{ blockType: 'slack', fieldId: 'channel', values: { authMethod: 'bot_token', botToken: '  ' } }, 'Enter a bot token in "Bot Token" first'],
      [{ blockType: 'jira', fieldId: 'projectId', values: { credential: 'mine-jira' } }, 'domain is required to list Jira projects'],
      [{ blockType: 'jira', fieldId: 'issueKey', values: { credential: 'mine-jira', domain: 'acme.atlassian.example' } }, 'projectId is required to list Jira issues'],
      [{ blockType: 'confluence', fieldId: 'pageId', values: { credential: 'mine-conf' } }, 'domain is required to list Confluence pages'],
      [{ blockType: 'linear', fieldId: 'projectId', values: { credential: 'mine-linear' } }, 'teamId is required to list Linear projects'],
      [{ blockType: 'microsoft_teams', fieldId: 'channelId', values: { credential: 'mine-ms' } }, 'teamId is required to list Microsoft Teams channels'],
      [{ blockType: 'microsoft_teams', fieldId: 'channelId', values: { credential: 'mine-ms', teamId: '<start.input>' } }, 'teamId refers to <start.input>, which is only known when the workflow runs; enter it directly to list choices'],
    ];
    for (const [body, error] of cases) {
      expect(await h.list(body), JSON.stringify(body)).toEqual({ status: 400, body: { success: false, error } });
    }
    expect(h.tokenRequests).toEqual([]);
    expect(Object.values(h.fakes).flatMap((f) => f.requests)).toEqual([]);
  });

  it('lists only for the workflow the call was checked for', async () => {
    expect(await h.list({ workflowId: 'wf-other', blockType: 'slack', fieldId: 'channel', values: { credential: 'mine-slack' } })).toEqual({ status: 400, body: { success: false, error: 'workflowId (wf-other) is not the workflow this call runs for (wf-sel)' } });
    expect(await h.list({ blockType: 'slack', fieldId: 'channel', values: { credential: 'mine-slack' } }, { context: { ...CALLER, workflowId: '' } })).toMatchObject({ status: 400 });
    expect(h.tokenRequests).toEqual([]);
  });
});

describe('the account', () => {
  it('gets the token of the caller’s own credential from the registry, and answers 404 for another user’s (nothing sent)', async () => {
    expect(await slack({ credential: 'mine-slack' })).toMatchObject({ status: 200 });
    expect(h.tokenRequests).toEqual([{ userId: 'user1', credentialId: 'mine-slack' }]);
    h.reset();
    expect(await slack({ credential: 'theirs-slack' })).toEqual({ status: 404, body: { success: false, error: 'Credential theirs-slack not found' } });
    // The caller's credential asked for by another user: the registry's owner check refuses it too.
    const asOther = await h.list({ blockType: 'slack', fieldId: 'channel', values: { credential: 'mine-slack' } }, { context: { ...CALLER, actorId: 'user2' } });
    expect(asOther).toEqual({ status: 404, body: { success: false, error: 'Credential mine-slack not found' } });
    expect(h.tokenRequests.map((r) => `${r.userId}:${r.credentialId}`)).toEqual(['user1:theirs-slack', 'user2:mine-slack']);
    expect(h.fakes.slack.requests).toEqual([]);
  });

  it('a Slack bot token, also from the caller’s environment ({{KEY}}), is sent as the bearer and the registry is not asked', async () => {
    expect((await slack({ authMethod: 'bot_token', botToken: 'xoxb-direct-1', credential: 'ignored' })).status).toBe(200);
    const fromEnv = await h.list({ blockType: 'slack', fieldId: 'channel', values: { authMethod: 'bot_token', botToken: '{{SLACK_BOT_TOKEN}}' } }, { envVars: { SLACK_BOT_TOKEN: 'xoxb-env-2' } });
    expect(fromEnv.status).toBe(200);
    expect(h.fakes.slack.requests.map((r) => r.headers.authorization)).toEqual(['Bearer xoxb-direct-1', 'Bearer xoxb-env-2']);
    expect(await slack({ authMethod: 'bot_token', botToken: '{{SLACK_BOT_TOKEN}}' })).toEqual({ status: 400, body: { success: false, error: 'botToken uses {{SLACK_BOT_TOKEN}}, which is not one of your environment variables' } });
    expect(h.tokenRequests).toEqual([]);
  });
});

describe('environment values', () => {
  it('fill {{KEY}} in the inputs a list needs, and never show in its errors', async () => {
    const envVars = { JIRA_SITE: 'acme.atlassian.example', OTHER_SITE: 'hidden-site.example' };
    const projects = await h.list({ blockType: 'jira', fieldId: 'projectId', values: { credential: 'mine-jira', domain: '{{JIRA_SITE}}' } }, { envVars });
    expect(projects).toMatchObject({ status: 200, body: { items: [{ id: '10000' }, { id: '10001' }] } });
    const pages = await h.list({ blockType: 'confluence', fieldId: 'pageId', values: { credential: 'mine-conf', domain: '{{OTHER_SITE}}' } }, { envVars });
    expect(pages).toEqual({ status: 400, body: { success: false, error: 'domain "[REDACTED]" is not a Confluence site this account can reach' } });
  });
});

describe('Slack channels', () => {
  it('lists public and private channels with conversations.list, names as #name', async () => {
    const res = await slack({ credential: 'mine-slack' });
    expect(res).toEqual({
      status: 200,
      body: {
        items: [
          { id: 'C024BE91L', name: '#general' },
          { id: 'C024BE92M', name: '#random' },
          { id: 'G0PRIVATE1', name: '#eng-private', detail: 'Private channel' },
          { id: 'C024BE93N', name: '#design' },
          { id: 'C024BE94P', name: '#general-announcements' },
        ],
      },
    });
    const [sent] = h.fakes.slack.received('GET', '/conversations.list');
    expect(sent?.headers.authorization).toBe(`Bearer ${tokenOf('mine-slack')}`);
    expect(sent?.query).toEqual({ types: 'public_channel,private_channel', exclude_archived: 'true', limit: '100' });
  });

  it('pages by Slack’s cursor: the answer’s nextCursor brings the next page', async () => {
    h.fakes.slack.once('GET', '/conversations.list', { json: { ok: true, channels: [{ id: 'C1', name: 'one' }], response_metadata: { next_cursor: 'dGVhbTpDMDYx' } } });
    const first = await slack({ credential: 'mine-slack' });
    expect(first.body).toEqual({ items: [{ id: 'C1', name: '#one' }], nextCursor: expect.any(String) });
    h.fakes.slack.once('GET', '/conversations.list', { json: { ok: true, channels: [{ id: 'C2', name: 'two' }], response_metadata: { next_cursor: '' } } });
    const second = await slack({ credential: 'mine-slack' }, { cursor: (first.body as { nextCursor: string }).nextCursor });
    expect(second.body).toEqual({ items: [{ id: 'C2', name: '#two' }] });
    expect(h.fakes.slack.requests.map((r) => r.query.cursor)).toEqual([undefined, 'dGVhbTpDMDYx']);
  });

  it('searches by name here (Slack cannot), reading on through pages to find matches', async () => {
    h.fakes.slack.once('GET', '/conversations.list', { json: { ok: true, channels: [{ id: 'C9', name: 'random-stuff' }], response_metadata: { next_cursor: 'next:0' } } });
    const res = await slack({ credential: 'mine-slack' }, { search: ' GEN ' });
    expect(res.body).toEqual({ items: [{ id: 'C024BE91L', name: '#general' }, { id: 'C024BE94P', name: '#general-announcements' }] });
    expect(h.fakes.slack.requests).toHaveLength(2);
  });
});

describe('provider refusals', () => {
  it('answer 502 with the provider’s status and message, never the token', async () => {
    h.fakes.slack.once('GET', '/conversations.list', { json: { ok: false, error: 'invalid_auth' } });
    expect(await slack({ credential: 'mine-slack' })).toEqual({ status: 502, body: { success: false, error: 'Slack answered 200: invalid_auth' } });
    h.fakes.google.once('GET', '/drive/v3/files', { status: 403, json: { error: { code: 403, message: `Insufficient Permission for ${tokenOf('mine-google')}` } } });
    const refused = await h.list({ blockType: 'google_drive', fieldId: 'folderSelector', values: { credential: 'mine-google' } });
    expect(refused).toEqual({ status: 502, body: { success: false, error: 'Google Drive answered 403: Insufficient Permission for [REDACTED]' } });
    h.fakes.microsoft.once('GET', '/me/joinedTeams', { status: 503, json: { error: { code: 'serviceNotAvailable', message: 'Service unavailable' } } });
    expect(await h.list({ blockType: 'microsoft_teams', fieldId: 'teamId', values: { credential: 'mine-ms' } })).toEqual({ status: 502, body: { success: false, error: 'Microsoft Teams answered 503: Service unavailable' } });
    h.fakes.crm.once('GET', '/wealthbox/contacts', { status: 401, text: 'Unauthorized' });
    expect(await h.list({ blockType: 'wealthbox', fieldId: 'contactId', values: { credential: 'mine-wb' } })).toEqual({ status: 502, body: { success: false, error: 'Wealthbox answered 401: Unauthorized' } });
  });

  it('a provider behind a refused address or not answering is a 502 naming it', async () => {
    const res = await h.list({ blockType: 'slack', fieldId: 'channel', values: { credential: 'mine-slack' } }, { strict: true });
    expect(res).toEqual({ status: 502, body: { success: false, error: 'Slack could not be reached: Outbound request refused: 127.0.0.1 is a loopback, private, link-local or reserved address' } });
    h.fakes.gmail.once('GET', '/gmail/v1/users/me/labels', { destroy: true });
    const dropped = await h.list({ blockType: 'gmail', fieldId: 'folder', values: { credential: 'mine-gmail' } });
    expect(dropped.status).toBe(502);
    expect((dropped.body as { error: string }).error).toMatch(/^Gmail could not be reached: /);
    expect(JSON.stringify(dropped.body)).not.toContain(tokenOf('mine-gmail'));
  });
});

describe('the stored choice’s name (selectedId → selected)', () => {
  const gmail = (selectedId: unknown, extra: Record<string, unknown> = {}) => h.list({ blockType: 'gmail', fieldId: 'folder', values: { credential: 'mine-gmail' }, selectedId, ...extra });
  /** Gmail's labels answer (one, without pages) with `count` user labels `L0`…; the list cuts it into answers of 100. */
  const labels = (count: number) => ({ json: { labels: Array.from({ length: count }, (_, i) => ({ id: `Label_${i}`, name: `L${i}`, type: 'user' })) } });
  const labelsPath = '/gmail/v1/users/me/labels';

  it('is refused with a 400 naming selectedId when it is not a short string', async () => {
    expect(await slack({ credential: 'mine-slack' }, { selectedId: 42 })).toEqual({ status: 400, body: { success: false, error: 'selectedId must be a string' } });
    expect(await slack({ credential: 'mine-slack' }, { selectedId: 'C'.repeat(1025) })).toEqual({ status: 400, body: { success: false, error: 'selectedId must be at most 1024 characters' } });
    expect(h.fakes.slack.requests).toEqual([]);
  });

  it('is left out of an answer not asked for it; found in the answer itself, no other request', async () => {
    expect(Object.keys((await slack({ credential: 'mine-slack' })).body as object)).toEqual(['items']);
    h.reset();
    const res = await slack({ credential: 'mine-slack' }, { selectedId: 'G0PRIVATE1' });
    expect(res.body).toMatchObject({ selected: { id: 'G0PRIVATE1', name: '#eng-private', detail: 'Private channel' } });
    expect(h.fakes.slack.requests.map((r) => r.path)).toEqual(['/conversations.list']);
  });

  it('Slack: a channel past the first answer comes from conversations.info; an unknown one is null', async () => {
    h.fakes.slack.once('GET', '/conversations.list', { json: { ok: true, channels: [{ id: 'C1', name: 'one' }], response_metadata: { next_cursor: 'next:1' } } });
    const far = await slack({ credential: 'mine-slack' }, { selectedId: 'C024BE94P' });
    expect(far.body).toEqual({ items: [{ id: 'C1', name: '#one' }], nextCursor: expect.any(String), selected: { id: 'C024BE94P', name: '#general-announcements' } });
    const [info] = h.fakes.slack.received('GET', '/conversations.info');
    expect(info?.query).toEqual({ channel: 'C024BE94P' });
    expect(info?.headers.authorization).toBe(`Bearer ${tokenOf('mine-slack')}`);
    expect((await slack({ credential: 'mine-slack' }, { selectedId: 'CGONE0001' })).body).toMatchObject({ selected: null });
    // A reference is no item id: nothing is asked for it.
    h.reset();
    expect((await slack({ credential: 'mine-slack' }, { selectedId: '{{CHANNEL}}' })).body).toMatchObject({ selected: null });
    expect(h.fakes.slack.received('GET', '/conversations.info')).toEqual([]);
  });

  it('Slack: an archived channel is null, as the list (exclude_archived) leaves it out', async () => {
    const archived = await slack({ credential: 'mine-slack' }, { selectedId: 'C0ARCHIVE1' });
    expect(archived).toMatchObject({ status: 200, body: { selected: null } });
    expect((archived.body as { items: Array<{ id: string }> }).items.map((i) => i.id)).not.toContain('C0ARCHIVE1');
    const [info] = h.fakes.slack.received('GET', '/conversations.info');
    expect(info?.query).toEqual({ channel: 'C0ARCHIVE1' });
  });

  it('Drive: a file past the first answer comes from files/{id}; another type, or none (404), is null', async () => {
    const sheets = (selectedId: string) => h.list({ blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential: 'mine-google' }, selectedId });
    h.fakes.google.once('GET', '/drive/v3/files', { json: { files: [{ id: 'sh-budget', name: 'Budget 2025' }], nextPageToken: 'p1' } });
    expect((await sheets('sh-hiring')).body).toMatchObject({ items: [{ id: 'sh-budget', name: 'Budget 2025' }], selected: { id: 'sh-hiring', name: "Hiring plan (Bob's)", detail: 'Modified 2025-05-01' } });
    const [got] = h.fakes.google.received('GET', '/drive/v3/files/sh-hiring');
    expect(got?.query).toEqual({ fields: 'id,name,mimeType,modifiedTime,trashed', supportsAllDrives: 'true' });
    expect(got?.headers.authorization).toBe(`Bearer ${tokenOf('mine-google')}`);
    // A folder is no spreadsheet.
    expect((await sheets('fo-reports')).body).toMatchObject({ selected: null });
    h.fakes.google.once('GET', '/drive/v3/files/sh-gone', { status: 404, json: { error: { code: 404, message: 'File not found: sh-gone.' } } });
    expect(await sheets('sh-gone')).toMatchObject({ status: 200, body: { selected: null } });
  });

  it('a list without a get-by-id call (Gmail labels, named by their names) is read on from where its first answer stopped, up to 10 answers', async () => {
    h.fakes.gmail.once('GET', labelsPath, labels(130)).once('GET', labelsPath, labels(130));
    const res = await gmail('L120');
    expect(res.body).toMatchObject({ nextCursor: expect.any(String), selected: { id: 'L120', name: 'L120' } });
    expect((res.body as { items: unknown[] }).items).toHaveLength(100);
    expect(h.fakes.gmail.requests).toHaveLength(2);

    // A searched answer is not the list's start: the lookup reads it from the start.
    h.reset();
    h.fakes.gmail.once('GET', labelsPath, labels(130)).once('GET', labelsPath, labels(130));
    expect((await gmail('L5', { search: 'L12' })).body).toMatchObject({ selected: { id: 'L5', name: 'L5' } });
    expect(h.fakes.gmail.requests).toHaveLength(2);

    // Not within 10 answers (1,000 items): null, and no eleventh request (it would get the fake's own 4 labels).
    h.reset();
    for (let i = 0; i < 10; i += 1) h.fakes.gmail.once('GET', labelsPath, labels(1200));
    expect((await gmail('L1100')).body).toMatchObject({ selected: null });
    expect(h.fakes.gmail.requests).toHaveLength(10);
    // The whole list in its first answer: nothing more is asked.
    h.reset();
    expect((await gmail('Label_1')).body).toMatchObject({ selected: null });
    expect(h.fakes.gmail.requests).toHaveLength(1);
  });

  it('a provider refusing the lookup leaves the list answered and the choice unnamed', async () => {
    h.fakes.slack.once('GET', '/conversations.info', { json: { ok: false, error: 'missing_scope' } });
    const res = await slack({ credential: 'mine-slack' }, { selectedId: 'C0SOMEWHERE' });
    expect(res).toMatchObject({ status: 200, body: { items: expect.arrayContaining([{ id: 'C024BE91L', name: '#general' }]), selected: null } });
    expect(h.lookupFailures).toEqual(['Slack answered 200: missing_scope']);
  });
});
