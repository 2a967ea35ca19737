import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeAnswer, FakeServer, RecordedRequest } from '@weft/testkit';
import { createSelectorHarness, tokenOf, type SelectorHarness } from './selectorTestSupport.js';
import { PROJECT_QUERY, TEAM_QUERY } from './listers/linear.js';

// Each provider's listing behind POST /api/tools/selectors/list against its fake: the request (the
// account's bearer token, query, paging), the items, search and the cursor; and each lister's
// get-by-id of a stored choice (selectedId). The route's own checks, Slack, refusals and the lookup's
// reading on: selectors.int.test.ts.

let h: SelectorHarness;
type Page = { items: Array<{ id: string; name: string; detail?: string }>; nextCursor?: string };

/** Lists a block's selector field with an account of the caller's (`mine-<blockType>`); answers the 200 body. */
async function list(blockType: string, fieldId: string, values: Record<string, string> = {}, extra: { search?: string; cursor?: string } = {}): Promise<Page> {
  const res = await h.list({ blockType, fieldId, values: { credential: `mine-${blockType}`, ...values }, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
}

const bearer = (blockType: string) => `Bearer ${tokenOf(`mine-${blockType}`)}`;
const only = (requests: RecordedRequest[]): RecordedRequest => {
  expect(requests).toHaveLength(1);
  return requests[0] as RecordedRequest;
};

/**
 * A stored choice (`selectedId`) the list's first answer does not hold (it is scripted empty), so the
 * lister's get-by-id names it: `selected` is the item, or null for one the provider does not have
 * (`asked`: the get's path and query as sent, decoded; null when nothing is asked for it), never a
 * refused lookup.
 */
interface Lookup {
  block: string;
  field: string;
  values?: Record<string, string>;
  id: string;
  selected: { id: string; name: string; detail?: string; itemId?: string } | null;
  asked: string | null;
  /** The get's JSON body (GraphQL). */
  body?: unknown;
}

/** Runs each lookup against `fake`, its list's first answer `empty` (by block), checking the answer and the get request. */
async function lookUps(fake: FakeServer, empty: Record<string, [method: string, path: string, answer: FakeAnswer]>, cases: Lookup[]): Promise<void> {
  for (const c of cases) {
    h.reset();
    const [method, path, answer] = empty[`${c.block}.${c.field}`] ?? [];
    if (method && path && answer) fake.once(method, path, answer);
    const res = await h.list({ blockType: c.block, fieldId: c.field, values: { credential: `mine-${c.block}`, ...c.values }, selectedId: c.id });
    expect(res, c.id).toMatchObject({ status: 200, body: { selected: c.selected } });
    // A provider's "no such item" is a null, not a refused lookup (which the route logs, and answers null too).
    expect(h.lookupFailures, c.id).toEqual([]);
    const last = fake.requests.slice(-1)[0] as RecordedRequest;
    const sent = decodeURIComponent(`${last.path}${last.search}`);
    if (c.asked === null) expect(sent, c.id).not.toContain(c.id);
    else {
      expect(sent, c.id).toBe(c.asked);
      expect(last.headers.authorization).toBe(bearer(c.block));
      if (c.body !== undefined) expect(last.body, c.id).toEqual(c.body);
    }
  }
}

beforeAll(async () => {
  h = await createSelectorHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.reset());

describe('Google', () => {
  it('Gmail labels by name (what the Gmail tools read), system ones marked; a search filters by name; over 100 go on by cursor', async () => {
    expect(await list('gmail', 'folder')).toEqual({
      items: [
        { id: 'INBOX', name: 'INBOX', detail: 'System label' },
        { id: 'SENT', name: 'SENT', detail: 'System label' },
        { id: 'Receipts', name: 'Receipts' },
        { id: 'Receipts/2025', name: 'Receipts/2025' },
      ],
    });
    expect(only(h.fakes.gmail.received('GET', '/gmail/v1/users/me/labels')).headers.authorization).toBe(bearer('gmail'));
    expect((await list('gmail', 'folder', {}, { search: 'receipts' })).items.map((i) => i.id)).toEqual(['Receipts', 'Receipts/2025']);
    const many = { labels: Array.from({ length: 130 }, (_, i) => ({ id: `Label_${i}`, name: `L${i}`, type: 'user' })) };
    h.fakes.gmail.once('GET', '/gmail/v1/users/me/labels', { json: many });
    const first = await list('gmail', 'folder');
    expect(first.items).toHaveLength(100);
    h.fakes.gmail.once('GET', '/gmail/v1/users/me/labels', { json: many });
    const rest = await list('gmail', 'folder', {}, { cursor: first.nextCursor ?? '' });
    expect(rest).toEqual({ items: many.labels.slice(100).map((l) => ({ id: l.name, name: l.name })) });
  });

  it('Drive: Sheets lists spreadsheets, Docs documents, folder selectors folders — by mimeType in q, recent first', async () => {
    expect(await list('google_sheets', 'spreadsheetId')).toEqual({
      items: [
        { id: 'sh-budget', name: 'Budget 2025', detail: 'Modified 2025-05-03' },
        { id: 'sh-hiring', name: "Hiring plan (Bob's)", detail: 'Modified 2025-05-01' },
        { id: 'sh-budget-old', name: 'Budget 2024', detail: 'Modified 2024-12-01' },
      ],
    });
    const sent = only(h.fakes.google.received('GET', '/drive/v3/files'));
    expect(sent.headers.authorization).toBe(bearer('google_sheets'));
    expect(sent.query).toEqual({
      q: "mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false",
      pageSize: '100',
      fields: 'nextPageToken,files(id,name,mimeType,modifiedTime)',
      orderBy: 'modifiedTime desc',
      supportsAllDrives: 'true',
      includeItemsFromAllDrives: 'true',
    });
    expect(await list('google_docs', 'documentId')).toEqual({ items: [{ id: 'do-spec', name: 'Product spec', detail: 'Modified 2025-05-02' }] });
    for (const blockType of ['google_drive', 'google_docs']) {
      expect((await list(blockType, 'folderSelector')).items, blockType).toEqual([{ id: 'fo-reports', name: 'Reports' }, { id: 'fo-archive', name: 'Archive' }]);
    }
  });

  it('Drive searches with name contains (quotes escaped) and pages by pageToken', async () => {
    expect((await list('google_sheets', 'spreadsheetId', {}, { search: "bob's" })).items.map((i) => i.id)).toEqual(['sh-hiring']);
    expect(only(h.fakes.google.received('GET', '/drive/v3/files')).query.q).toBe("mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false and name contains 'bob\\'s'");
    h.fakes.google.once('GET', '/drive/v3/files', { json: { files: [{ id: 'sh-budget', name: 'Budget 2025' }], nextPageToken: 'p1' } });
    const first = await list('google_sheets', 'spreadsheetId');
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list('google_sheets', 'spreadsheetId', {}, { cursor: first.nextCursor ?? '' });
    expect(second).toEqual({ items: [{ id: 'sh-hiring', name: "Hiring plan (Bob's)", detail: 'Modified 2025-05-01' }, { id: 'sh-budget-old', name: 'Budget 2024', detail: 'Modified 2024-12-01' }] });
    expect(h.fakes.google.received('GET', '/drive/v3/files').map((r) => r.query.pageToken)).toEqual([undefined, undefined, 'p1']);
  });

  it('Calendar calendars from users/me/calendarList, the primary marked; paged by pageToken', async () => {
    expect(await list('google_calendar', 'calendarId')).toEqual({
      items: [
        { id: 'me@acme.example.invalid', name: 'me@acme.example.invalid', detail: 'Primary calendar' },
        { id: 'team@group.calendar.example.invalid', name: 'Team events' },
        { id: 'holidays@group.v.calendar.google.com', name: 'Holidays' },
      ],
    });
    const sent = only(h.fakes.google.received('GET', '/calendar/v3/users/me/calendarList'));
    expect(sent.headers.authorization).toBe(bearer('google_calendar'));
    expect(sent.query).toEqual({ maxResults: '100' });
    expect((await list('google_calendar', 'calendarId', {}, { search: 'team' })).items.map((i) => i.name)).toEqual(['Team events']);
    h.fakes.google.once('GET', '/calendar/v3/users/me/calendarList', { json: { items: [], nextPageToken: 'cal-2' } });
    const first = await list('google_calendar', 'calendarId');
    await list('google_calendar', 'calendarId', {}, { cursor: first.nextCursor ?? '' });
    expect(h.fakes.google.received('GET', '/calendar/v3/users/me/calendarList').map((r) => r.query.pageToken)).toEqual([undefined, undefined, undefined, 'cal-2']);
  });

  it('a stored calendar by id from users/me/calendarList/{id}; one not in the list (404) is null', async () => {
    await lookUps(h.fakes.google, { 'google_calendar.calendarId': ['GET', '/calendar/v3/users/me/calendarList', { json: { items: [] } }] }, [
      { block: 'google_calendar', field: 'calendarId', id: 'team@group.calendar.example.invalid', selected: { id: 'team@group.calendar.example.invalid', name: 'Team events' }, asked: '/calendar/v3/users/me/calendarList/team@group.calendar.example.invalid' },
      { block: 'google_calendar', field: 'calendarId', id: 'gone@group.calendar.example.invalid', selected: null, asked: '/calendar/v3/users/me/calendarList/gone@group.calendar.example.invalid' },
    ]);
  });
});

describe('Atlassian', () => {
  const domain = 'https://acme.atlassian.example/';

  it('Jira projects: the site’s cloud id from the domain, then project/search (its query searches), paged by startAt', async () => {
    expect(await list('jira', 'projectId', { domain })).toEqual({ items: [{ id: '10000', name: 'Platform', detail: 'PROJ' }, { id: '10001', name: 'Operations', detail: 'OPS' }] });
    expect(only(h.fakes.atlassian.received('GET', '/oauth/token/accessible-resources')).headers.authorization).toBe(bearer('jira'));
    const sent = only(h.fakes.atlassian.received('GET', '/ex/jira/cloud-1/rest/api/3/project/search'));
    expect(sent.headers.authorization).toBe(bearer('jira'));
    expect(sent.query).toEqual({ startAt: '0', maxResults: '100' });
    h.fakes.atlassian.once('GET', '/ex/jira/:cloud/rest/api/3/project/search', { json: { values: [{ id: '1', key: 'A', name: 'Alpha' }, { id: '2', key: 'B', name: 'Beta' }], startAt: 0, total: 3, isLast: false } });
    const first = await list('jira', 'projectId', { domain }, { search: 'plat' });
    await list('jira', 'projectId', { domain }, { search: 'plat', cursor: first.nextCursor ?? '' });
    expect(h.fakes.atlassian.received('GET', '/ex/jira/cloud-1/rest/api/3/project/search').slice(1).map((r) => r.query)).toEqual([
      { startAt: '0', maxResults: '100', query: 'plat' },
      { startAt: '2', maxResults: '100', query: 'plat' },
    ]);
  });

  it('Jira issues of the project (the selector’s or the typed id) by the enhanced JQL search; the id is the key', async () => {
    expect(await list('jira', 'issueKey', { domain, manualProjectId: '10000' })).toEqual({ items: [{ id: 'PROJ-1', name: 'First', detail: 'PROJ-1 · To Do' }, { id: 'PROJ-2', name: 'Second', detail: 'PROJ-2 · To Do' }] });
    await list('jira', 'issueKey', { domain, projectId: 'PROJ', manualProjectId: 'ignored' }, { search: 'login "fails"' });
    const sent = h.fakes.atlassian.received('POST', '/ex/jira/cloud-1/rest/api/3/search/jql');
    expect(sent.map((r) => r.body)).toEqual([
      { jql: 'project = 10000 ORDER BY updated DESC', maxResults: 100, fields: ['summary', 'status'] },
      { jql: 'project = "PROJ" AND summary ~ "login fails*" ORDER BY updated DESC', maxResults: 100, fields: ['summary', 'status'] },
    ]);
    expect(sent[0]?.headers.authorization).toBe(bearer('jira'));
    expect(h.fakes.atlassian.received('POST', '/ex/jira/:cloud/rest/api/3/search')).toEqual([]);
    h.fakes.atlassian.once('POST', '/ex/jira/:cloud/rest/api/3/search/jql', { status: 400, json: { errorMessages: ["The value 'NOPE' does not exist for the field 'project'."], errors: {} } });
    const refused = await h.list({ blockType: 'jira', fieldId: 'issueKey', values: { credential: 'mine-jira', domain, projectId: 'NOPE' } });
    expect(refused).toEqual({ status: 502, body: { success: false, error: "Jira answered 400: The value 'NOPE' does not exist for the field 'project'." } });
  });

  it('Jira issues page by the search’s nextPageToken: a short page with a token goes on by cursor, isLast ends the list', async () => {
    const path = '/ex/jira/:cloud/rest/api/3/search/jql';
    const issue = (key: string, summary: string) => ({ id: `id-${key}`, key, fields: { summary, status: { name: 'Done' } } });
    h.fakes.atlassian.once('POST', path, { json: { issues: [issue('OPS-1', 'One')], nextPageToken: 'CAEaAggD', isLast: false } });
    const first = await list('jira', 'issueKey', { domain, projectId: '10001' });
    expect(first.items).toEqual([{ id: 'OPS-1', name: 'One', detail: 'OPS-1 · Done' }]);
    expect(first.nextCursor).toEqual(expect.any(String));
    h.fakes.atlassian.once('POST', path, { json: { issues: [issue('OPS-2', 'Two')], nextPageToken: 'CAEaAggE', isLast: true } });
    expect(await list('jira', 'issueKey', { domain, projectId: '10001' }, { cursor: first.nextCursor ?? '' })).toEqual({ items: [{ id: 'OPS-2', name: 'Two', detail: 'OPS-2 · Done' }] });
    const bodies = h.fakes.atlassian.received('POST', '/ex/jira/cloud-1/rest/api/3/search/jql').map((r) => r.body as Record<string, unknown>);
    expect(bodies.map((b) => b.nextPageToken)).toEqual([undefined, 'CAEaAggD']);
    expect(bodies.every((b) => !('startAt' in b))).toBe(true);
  });

  it('Confluence pages of the domain’s site (v2 pages, current, last modified first), searched by title here, paged by cursor', async () => {
    expect(await list('confluence', 'pageId', { domain: 'acme.atlassian.example' })).toEqual({ items: [{ id: '42', name: 'Runbook' }, { id: '43', name: 'Onboarding guide' }, { id: '44', name: 'Runbook: database failover' }] });
    const sent = only(h.fakes.atlassian.received('GET', '/ex/confluence/cloud-1/wiki/api/v2/pages'));
    expect(sent.headers.authorization).toBe(bearer('confluence'));
    expect(sent.query).toEqual({ limit: '100', status: 'current', sort: '-modified-date' });
    expect((await list('confluence', 'pageId', { domain: 'acme.atlassian.example' }, { search: 'runbook' })).items.map((i) => i.id)).toEqual(['42', '44']);
    h.fakes.atlassian.once('GET', '/ex/confluence/:cloud/wiki/api/v2/pages', { json: { results: [{ id: '7', title: 'Seven' }], _links: { next: '/wiki/api/v2/pages?cursor=eyJpZCI6Nw&limit=100' } } });
    const first = await list('confluence', 'pageId', { domain: 'acme.atlassian.example' });
    await list('confluence', 'pageId', { domain: 'acme.atlassian.example' }, { cursor: first.nextCursor ?? '' });
    expect(h.fakes.atlassian.received('GET', '/ex/confluence/cloud-1/wiki/api/v2/pages').slice(-1)[0]?.query.cursor).toBe('eyJpZCI6Nw');
    const elsewhere = await h.list({ blockType: 'confluence', fieldId: 'pageId', values: { credential: 'mine-confluence', domain: 'nope.example' } });
    expect(elsewhere).toEqual({ status: 400, body: { success: false, error: 'domain "nope.example" is not a Confluence site this account can reach' } });
  });

  it('a stored project, issue or page by id: project/{id or key} (a key answered as stored), issue/{key} (of the chosen project only), v2 pages/{id} (current only); none is null', async () => {
    const jira = '/ex/jira/cloud-1/rest/api/3';
    const pages = '/ex/confluence/cloud-1/wiki/api/v2/pages';
    const fields = '?fields=summary,status,project';
    const site = { domain: 'acme.atlassian.example' };
    await lookUps(
      h.fakes.atlassian,
      {
        'jira.projectId': ['GET', '/ex/jira/:cloud/rest/api/3/project/search', { json: { values: [], startAt: 0, total: 0, isLast: true } }],
        'jira.issueKey': ['POST', '/ex/jira/:cloud/rest/api/3/search/jql', { json: { issues: [], isLast: true } }],
        'confluence.pageId': ['GET', '/ex/confluence/:cloud/wiki/api/v2/pages', { json: { results: [], _links: {} } }],
      },
      [
        { block: 'jira', field: 'projectId', values: { domain }, id: '10001', selected: { id: '10001', name: 'Operations', detail: 'OPS' }, asked: `${jira}/project/10001` },
        // A project stored by its key (Jira takes it for the id, and answers the project with its id 10001): answered under the
        // key as stored, so the field matches it and shows the name; as typed, in any case Jira takes; the project's own id as
        // itemId, so the open list marks that project.
        { block: 'jira', field: 'projectId', values: { domain }, id: 'OPS', selected: { id: 'OPS', name: 'Operations', detail: 'OPS', itemId: '10001' }, asked: `${jira}/project/OPS` },
        { block: 'jira', field: 'projectId', values: { domain }, id: 'ops', selected: { id: 'ops', name: 'Operations', detail: 'OPS', itemId: '10001' }, asked: `${jira}/project/ops` },
        { block: 'jira', field: 'projectId', values: { domain }, id: 'NOPE', selected: null, asked: `${jira}/project/NOPE` },
        { block: 'jira', field: 'issueKey', values: { domain, projectId: '10000' }, id: 'PROJ-9', selected: { id: 'PROJ-9', name: 'Login fails', detail: 'PROJ-9 · To Do' }, asked: `${jira}/issue/PROJ-9${fields}` },
        { block: 'jira', field: 'issueKey', values: { domain, manualProjectId: 'proj' }, id: 'PROJ-9', selected: { id: 'PROJ-9', name: 'Login fails', detail: 'PROJ-9 · To Do' }, asked: `${jira}/issue/PROJ-9${fields}` },
        { block: 'jira', field: 'issueKey', values: { domain, projectId: 'PROJ' }, id: 'OPS-3', selected: null, asked: `${jira}/issue/OPS-3${fields}` },
        { block: 'jira', field: 'issueKey', values: { domain, projectId: 'PROJ' }, id: 'GONE-1', selected: null, asked: `${jira}/issue/GONE-1${fields}` },
        { block: 'confluence', field: 'pageId', values: site, id: '42', selected: { id: '42', name: 'Runbook' }, asked: `${pages}/42` },
        { block: 'confluence', field: 'pageId', values: site, id: '41', selected: null, asked: `${pages}/41` },
        { block: 'confluence', field: 'pageId', values: site, id: '7', selected: null, asked: `${pages}/7` },
        { block: 'confluence', field: 'pageId', values: site, id: 'Runbook', selected: null, asked: null },
      ],
    );
  });
});

describe('Linear', () => {
  it('teams by the teams query (a search as name containsIgnoreCase), and a team’s projects; paged by endCursor', async () => {
    expect(await list('linear', 'teamId')).toEqual({ items: [{ id: 'team-1', name: 'Engineering', detail: 'ENG' }, { id: 'team-2', name: 'Design', detail: 'DES' }] });
    await list('linear', 'teamId', {}, { search: 'eng' });
    expect(await list('linear', 'projectId', { manualTeamId: 'team-1' })).toEqual({ items: [{ id: 'proj-1', name: 'Login revamp' }, { id: 'proj-2', name: 'SSO' }] });
    const sent = h.fakes.linear.received('POST', '/graphql');
    expect(sent.map((r) => r.headers.authorization)).toEqual([bearer('linear'), bearer('linear'), bearer('linear')]);
    expect(sent.map((r) => (r.body as { variables: unknown }).variables)).toEqual([
      { first: 100, after: null, filter: null },
      { first: 100, after: null, filter: { name: { containsIgnoreCase: 'eng' } } },
      { teamId: 'team-1', first: 100, after: null, filter: null },
    ]);
    expect((sent[2]?.body as { query: string }).query).toContain('team(id: $teamId) { projects(first: $first, after: $after, filter: $filter)');
    h.fakes.linear.once('POST', '/graphql', { json: { data: { teams: { nodes: [], pageInfo: { hasNextPage: true, endCursor: 'c-50' } } } } });
    const first = await list('linear', 'teamId');
    await list('linear', 'teamId', {}, { cursor: first.nextCursor ?? '' });
    expect((h.fakes.linear.requests.slice(-1)[0]?.body as { variables: { after: unknown } }).variables.after).toBe('c-50');
    h.fakes.linear.once('POST', '/graphql', { status: 400, json: { errors: [{ message: 'Entity not found: Team', extensions: { type: 'invalid input' } }] } });
    expect(await h.list({ blockType: 'linear', fieldId: 'projectId', values: { credential: 'mine-linear', teamId: 'gone' } })).toEqual({ status: 502, body: { success: false, error: 'Linear answered 400: Entity not found: Team' } });
  });

  it('a stored team or project by id (team(id), project(id) with its teams; another team’s project, or Entity not found, is null)', async () => {
    const noPage = { hasNextPage: false, endCursor: null };
    const team = (id: string) => ({ query: TEAM_QUERY, variables: { id } });
    const project = (id: string) => ({ query: PROJECT_QUERY, variables: { id } });
    await lookUps(
      h.fakes.linear,
      {
        'linear.teamId': ['POST', '/graphql', { json: { data: { teams: { nodes: [], pageInfo: noPage } } } }],
        'linear.projectId': ['POST', '/graphql', { json: { data: { team: { projects: { nodes: [], pageInfo: noPage } } } } }],
      },
      [
        { block: 'linear', field: 'teamId', id: 'team-2', selected: { id: 'team-2', name: 'Design', detail: 'DES' }, asked: '/graphql', body: team('team-2') },
        { block: 'linear', field: 'teamId', id: 'team-gone', selected: null, asked: '/graphql', body: team('team-gone') },
        { block: 'linear', field: 'projectId', values: { teamId: 'team-2' }, id: 'proj-2', selected: { id: 'proj-2', name: 'SSO' }, asked: '/graphql', body: project('proj-2') },
        { block: 'linear', field: 'projectId', values: { manualTeamId: 'team-1' }, id: 'proj-3', selected: null, asked: '/graphql', body: project('proj-3') },
        { block: 'linear', field: 'projectId', values: { teamId: 'team-1' }, id: 'proj-gone', selected: null, asked: '/graphql', body: project('proj-gone') },
      ],
    );
  });
});

describe('Microsoft Graph', () => {
  it('Outlook mail folders (me/mailFolders), unread counts as detail, paged by $skip', async () => {
    expect(await list('outlook', 'folder')).toEqual({ items: [{ id: 'AAMkInbox', name: 'Inbox', detail: '3 unread' }, { id: 'AAMkSent', name: 'Sent Items' }, { id: 'AAMkArchive', name: 'Archive' }] });
    const sent = only(h.fakes.microsoft.received('GET', '/me/mailFolders'));
    expect(sent.headers.authorization).toBe(bearer('outlook'));
    expect(sent.query).toEqual({ $top: '100' });
    expect((await list('outlook', 'folder', {}, { search: 'SENT' })).items.map((i) => i.id)).toEqual(['AAMkSent']);
    h.fakes.microsoft.once('GET', '/me/mailFolders', { json: { value: [], '@odata.nextLink': 'https://graph.example/v1.0/me/mailFolders?$top=100&$skip=100' } });
    const first = await list('outlook', 'folder');
    await list('outlook', 'folder', {}, { cursor: first.nextCursor ?? '' });
    expect(h.fakes.microsoft.received('GET', '/me/mailFolders').slice(-1)[0]?.query).toEqual({ $top: '100', $skip: '100' });
  });

  it('Excel workbooks by drive search (the search text, else xlsx), only .xlsx kept, their folder as detail', async () => {
    expect(await list('microsoft_excel', 'spreadsheetId')).toEqual({ items: [{ id: 'wb-sales', name: 'Sales.xlsx', detail: '/Reports' }, { id: 'wb-budget', name: 'Budget.xlsx', detail: '/' }] });
    await list('microsoft_excel', 'spreadsheetId', {}, { search: "bob's sales" });
    const sent = h.fakes.microsoft.received('GET', '/me/drive/root/search(q=:q)');
    expect(sent.map((r) => decodeURIComponent(r.path))).toEqual(["/me/drive/root/search(q='xlsx')", "/me/drive/root/search(q='bob''s sales')"]);
    expect(sent[0]?.query).toEqual({ $top: '100', $select: 'id,name,file,parentReference' });
    expect(sent[0]?.headers.authorization).toBe(bearer('microsoft_excel'));
    // A page holding no workbook: the answer reads on to the next one (by its $skiptoken) to find some.
    h.reset();
    const docx = { id: 'doc-1', name: 'Notes.docx', file: { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } };
    h.fakes.microsoft.once('GET', '/me/drive/root/search(q=:q)', { json: { value: [docx], '@odata.nextLink': "https://graph.example/v1.0/me/drive/root/search(q='xlsx')?$top=100&$skiptoken=s!MjA" } });
    expect((await list('microsoft_excel', 'spreadsheetId')).items.map((i) => i.id)).toEqual(['wb-sales', 'wb-budget']);
    expect(h.fakes.microsoft.received('GET', '/me/drive/root/search(q=:q)').map((r) => r.query.$skiptoken)).toEqual([undefined, 's!MjA']);
  });

  it('Teams: joined teams, chats with their members, a team’s channels; paged by $skiptoken (never the link itself)', async () => {
    expect(await list('microsoft_teams', 'teamId')).toEqual({ items: [{ id: 'team-eng', name: 'Engineering', detail: 'Builders' }, { id: 'team-ops', name: 'Operations' }] });
    expect(await list('microsoft_teams', 'chatId')).toEqual({ items: [{ id: '19:chat-topic@thread.v2', name: 'Release planning', detail: 'Group chat' }, { id: '19:ada_bob@unq.gbl.spaces', name: 'Ada, Bob', detail: 'One-on-one chat' }] });
    expect(only(h.fakes.microsoft.received('GET', '/me/chats')).query).toEqual({ $top: '50', $expand: 'members' });
    expect(await list('microsoft_teams', 'channelId', { teamId: 'team-eng' }, { search: 'inc' })).toEqual({ items: [{ id: '19:incidents@thread.tacv2', name: 'Incidents', detail: 'Private channel' }] });
    expect(only(h.fakes.microsoft.received('GET', '/teams/:team/channels')).path).toBe('/teams/team-eng/channels');
    h.fakes.microsoft.once('GET', '/me/chats', { json: { value: [], '@odata.nextLink': 'https://elsewhere.example/v1.0/me/chats?$skiptoken=RFNwdAI' } });
    const first = await list('microsoft_teams', 'chatId');
    await list('microsoft_teams', 'chatId', {}, { cursor: first.nextCursor ?? '' });
    expect(h.fakes.microsoft.received('GET', '/me/chats').slice(-1)[0]?.query).toEqual({ $top: '50', $expand: 'members', $skiptoken: 'RFNwdAI' });
  });

  it('a stored folder, workbook, team, chat or channel by id; none (404, or a folder name Graph calls malformed) or no .xlsx is null', async () => {
    const none = { json: { value: [] } };
    const teams = (field: string, values?: Record<string, string>) => ({ block: 'microsoft_teams', field, ...(values ? { values } : {}) });
    const workbook = (id: string) => `/me/drive/items/${id}?$select=id,name,file,parentReference`;
    await lookUps(
      h.fakes.microsoft,
      {
        'outlook.folder': ['GET', '/me/mailFolders', none],
        'microsoft_excel.spreadsheetId': ['GET', '/me/drive/root/search(q=:q)', none],
        'microsoft_teams.teamId': ['GET', '/me/joinedTeams', none],
        'microsoft_teams.chatId': ['GET', '/me/chats', none],
        'microsoft_teams.channelId': ['GET', '/teams/:team/channels', none],
      },
      [
        { block: 'outlook', field: 'folder', id: 'AAMkReceipts', selected: { id: 'AAMkReceipts', name: 'Receipts', detail: '1 unread' }, asked: '/me/mailFolders/AAMkReceipts' },
        { block: 'outlook', field: 'folder', id: 'AAMkGone', selected: null, asked: '/me/mailFolders/AAMkGone' },
        { block: 'outlook', field: 'folder', id: 'Receipts', selected: null, asked: '/me/mailFolders/Receipts' },
        { block: 'microsoft_excel', field: 'spreadsheetId', id: 'wb-budget', selected: { id: 'wb-budget', name: 'Budget.xlsx', detail: '/' }, asked: workbook('wb-budget') },
        { block: 'microsoft_excel', field: 'spreadsheetId', id: 'doc-notes', selected: null, asked: workbook('doc-notes') },
        { ...teams('teamId'), id: 'team-ops', selected: { id: 'team-ops', name: 'Operations' }, asked: '/teams/team-ops' },
        { ...teams('teamId'), id: 'team-gone', selected: null, asked: '/teams/team-gone' },
        { ...teams('chatId'), id: '19:ada_bob@unq.gbl.spaces', selected: { id: '19:ada_bob@unq.gbl.spaces', name: 'Ada, Bob', detail: 'One-on-one chat' }, asked: '/chats/19:ada_bob@unq.gbl.spaces?$expand=members' },
        { ...teams('channelId', { teamId: 'team-eng' }), id: '19:incidents@thread.tacv2', selected: { id: '19:incidents@thread.tacv2', name: 'Incidents', detail: 'Private channel' }, asked: '/teams/team-eng/channels/19:incidents@thread.tacv2' },
        { ...teams('channelId', { teamId: 'team-gone' }), id: '19:general@thread.tacv2', selected: null, asked: '/teams/team-gone/channels/19:general@thread.tacv2' },
      ],
    );
  });
});

describe('Wealthbox', () => {
  it('contacts searched by the name filter, tasks by name here; paged by page number', async () => {
    expect(await list('wealthbox', 'contactId', {}, { search: 'ada' })).toEqual({ items: [{ id: '101', name: 'Ada Lovelace', detail: 'ada@weft.example' }] });
    const sent = only(h.fakes.crm.received('GET', '/wealthbox/contacts'));
    expect(sent.headers.authorization).toBe(bearer('wealthbox'));
    expect(sent.query).toEqual({ name: 'ada', page: '1', per_page: '100' });
    expect(await list('wealthbox', 'taskId')).toEqual({ items: [{ id: '301', name: 'Follow up', detail: 'Due 2025-05-24 11:00 AM -0400' }] });
    expect((await list('wealthbox', 'taskId', {}, { search: 'nothing' })).items).toEqual([]);
    h.fakes.crm.once('GET', '/wealthbox/tasks', { json: { tasks: [{ id: 1, name: 'One' }], meta: { current_page: 1, total_pages: 3 } } });
    const first = await list('wealthbox', 'taskId');
    await list('wealthbox', 'taskId', {}, { cursor: first.nextCursor ?? '' });
    expect(h.fakes.crm.received('GET', '/wealthbox/tasks').slice(-1)[0]?.query).toEqual({ page: '2', per_page: '100' });
  });

  it('a stored contact or task by id (contacts/{id}, tasks/{id}); none (404) is null, an id that is no number is not asked for', async () => {
    const none = (plural: string) => ['GET', `/wealthbox/${plural}`, { json: { [plural]: [], meta: { current_page: 1, total_pages: 1 } } }] as [string, string, FakeAnswer];
    await lookUps(h.fakes.crm, { 'wealthbox.contactId': none('contacts'), 'wealthbox.taskId': none('tasks') }, [
      { block: 'wealthbox', field: 'contactId', id: '101', selected: { id: '101', name: 'Ada Lovelace', detail: 'ada@weft.example' }, asked: '/wealthbox/contacts/101' },
      { block: 'wealthbox', field: 'contactId', id: '999', selected: null, asked: '/wealthbox/contacts/999' },
      { block: 'wealthbox', field: 'contactId', id: 'Ada', selected: null, asked: null },
      { block: 'wealthbox', field: 'taskId', id: '301', selected: { id: '301', name: 'Follow up', detail: 'Due 2025-05-24 11:00 AM -0400' }, asked: '/wealthbox/tasks/301' },
    ]);
  });
});
