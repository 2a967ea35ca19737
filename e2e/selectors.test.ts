import { describe, expect, inject, it } from 'vitest';
import { api } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { answerOnce, receivedBy } from './support/serviceFakes.js';

// POST /api/tools/selectors/list through the gateway (the selectors contract): a connected account's
// Drive folders and Sheets from the stack's Google fake, search and cursor, a Slack bot token from
// the caller's environment, a stored choice's name (selectedId), and the access checks — another user's credential or workflow refused.

type Page = { items: Array<{ id: string; name: string; detail?: string }>; nextCursor?: string; selected?: { id: string; name: string } | null };
type Account = Awaited<ReturnType<typeof createAccount>>;

/** Connects an OAuth account through the registry's flow against the oauth fake (its token is `token-<provider>`). */
async function connect(user: Account, provider: string): Promise<string> {
  const started = await fetch(`${inject('weftUrl')}/api/auth/oauth/authorize/${provider}`, { headers: { cookie: user.cookie }, redirect: 'manual' });
  const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const connected = await api<{ credential: { id: string } }>('GET', `/api/auth/oauth/callback?state=${encodeURIComponent(state)}&code=c1`, undefined, { cookie: user.cookie });
  expect(connected.status).toBe(200);
  return connected.body.credential.id;
}

/** A new workflow of the user's first workspace. */
async function workflowOf(user: Account): Promise<string> {
  const ws = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, { cookie: user.cookie });
  const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: ws.body.workspaces[0]?.id }, { cookie: user.cookie });
  return created.body.id;
}

const list = (user: Account, body: Record<string, unknown>) => api<Page & { error?: string }>('POST', '/api/tools/selectors/list', body, { cookie: user.cookie });

describe('POST /api/tools/selectors/list', () => {
  it('lists a connected account’s Drive folders and spreadsheets, searches and pages, and refuses another user’s credential or workflow', async () => {
    const { google } = inject('serviceFakeUrls');
    const owner = await createAccount('Selector Owner');
    const credential = await connect(owner, 'google-drive');
    const workflowId = await workflowOf(owner);
    const before = (await receivedBy(google)).length;

    const folders = await list(owner, { workflowId, blockType: 'google_drive', fieldId: 'folderSelector', values: { credential, operation: 'list' } });
    expect(folders).toEqual({ status: 200, body: { items: [{ id: 'fo-reports', name: 'Reports' }, { id: 'fo-archive', name: 'Archive' }] } });
    const searched = await list(owner, { workflowId, blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential }, search: 'budget' });
    expect(searched.body.items.map((i) => i.name)).toEqual(['Budget 2025', 'Budget 2024']);
    const sent = (await receivedBy(google)).slice(before).filter((r) => r.path === '/drive/v3/files');
    expect(sent.map((r) => r.query.q)).toEqual([
      "mimeType = 'application/vnd.google-apps.folder' and trashed = false",
      "mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false and name contains 'budget'",
    ]);
    expect(sent.every((r) => r.headers.authorization === 'Bearer token-google-drive')).toBe(true);

    await answerOnce(google, 'GET', '/drive/v3/files', { json: { files: [{ id: 'sh-budget', name: 'Budget 2025' }], nextPageToken: 'p1' } });
    const first = await list(owner, { workflowId, blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential } });
    expect(first.body).toEqual({ items: [{ id: 'sh-budget', name: 'Budget 2025' }], nextCursor: expect.any(String) });
    const next = await list(owner, { workflowId, blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential }, cursor: first.body.nextCursor });
    expect(next.body.items.map((i) => i.id)).toEqual(['sh-hiring', 'sh-budget-old']);

    // A stored choice past the first answer: asked for by id (selectedId), Drive's files/{id} names it.
    await answerOnce(google, 'GET', '/drive/v3/files', { json: { files: [{ id: 'sh-budget', name: 'Budget 2025' }], nextPageToken: 'p1' } });
    const named = await list(owner, { workflowId, blockType: 'google_sheets', fieldId: 'spreadsheetId', values: { credential }, selectedId: 'sh-hiring' });
    expect(named.body).toMatchObject({ items: [{ id: 'sh-budget', name: 'Budget 2025' }], selected: { id: 'sh-hiring', name: "Hiring plan (Bob's)", detail: 'Modified 2025-05-01' } });

    // Another user: their own workflow with the owner's credential, or the owner's workflow.
    const other = await createAccount('Selector Stranger');
    const theirs = await workflowOf(other);
    const driveCalls = (await receivedBy(google)).length;
    expect(await list(other, { workflowId: theirs, blockType: 'google_drive', fieldId: 'folderSelector', values: { credential } })).toEqual({ status: 404, body: { success: false, error: `Credential ${credential} not found` } });
    expect((await list(other, { workflowId, blockType: 'google_drive', fieldId: 'folderSelector', values: { credential } })).status).toBe(403);
    expect((await receivedBy(google)).length).toBe(driveCalls);
  });

  it('names a bad field, passes on the provider’s refusal without the token, and refuses anonymous callers', async () => {
    const { slack } = inject('serviceFakeUrls');
    const user = await createAccount('Selector Slack');
    const workflowId = await workflowOf(user);
    expect(await list(user, { blockType: 'slack', fieldId: 'channel' })).toEqual({ status: 400, body: { success: false, error: 'workflowId is required' } });
    expect(await list(user, { workflowId, blockType: 'slack', fieldId: 'text' })).toEqual({ status: 400, body: { success: false, error: 'fieldId "text" is not a selector field of Slack' } });
    expect(await list(user, { workflowId, blockType: 'google_drive', fieldId: 'folderSelector', values: {} })).toEqual({ status: 400, body: { success: false, error: 'Select an account in "Google Drive Account" first' } });
    expect((await api('POST', '/api/tools/selectors/list', { workflowId, blockType: 'slack', fieldId: 'channel' }, { cookie: '' })).status).toBe(401);

    // A bot token from the caller's environment variables, sent as Slack's bearer.
    expect((await api('POST', '/api/environment', { variables: { SLACK_SELECTOR_TOKEN: 'xoxb-e2e-selector' } }, { cookie: user.cookie })).status).toBe(200);
    const values = { authMethod: 'bot_token', botToken: '{{SLACK_SELECTOR_TOKEN}}' };
    const channels = await list(user, { workflowId, blockType: 'slack', fieldId: 'channel', values, search: 'general' });
    expect(channels).toEqual({ status: 200, body: { items: [{ id: 'C024BE91L', name: '#general' }, { id: 'C024BE94P', name: '#general-announcements' }] } });
    const asked = (await receivedBy(slack)).filter((r) => r.path === '/conversations.list').slice(-1)[0];
    expect(asked?.headers.authorization).toBe('Bearer xoxb-e2e-selector');
    // A bad selectedId is a 400 naming it.
    expect(await list(user, { workflowId, blockType: 'slack', fieldId: 'channel', values, selectedId: ['C1'] })).toEqual({ status: 400, body: { success: false, error: 'selectedId must be a string' } });
    await answerOnce(slack, 'GET', '/conversations.list', { json: { ok: false, error: 'token_revoked: xoxb-e2e-selector' } });
    const refused = await list(user, { workflowId, blockType: 'slack', fieldId: 'channel', values });
    expect(refused).toEqual({ status: 502, body: { success: false, error: 'Slack answered 200: token_revoked: [REDACTED]' } });
  });
});
