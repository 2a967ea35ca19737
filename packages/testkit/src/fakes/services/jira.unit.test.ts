import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServer } from '../server.js';
import { JIRA_SEARCH_REMOVED, createFakeJira } from './jira.js';

let jira: FakeServer;
beforeAll(async () => {
  jira = await createFakeJira();
});
afterAll(async () => {
  await jira.close();
});

const API = '/ex/jira/cloud-1/rest/api/3';
type Found = { issues: Array<{ id: string; key?: string; fields?: Record<string, unknown> }>; nextPageToken?: string; isLast: boolean; total?: number };

async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${jira.url}${API}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

describe('the Jira fake’s issue search', () => {
  it('answers the removed /search 410 Gone with Atlassian’s message, for POST and GET', async () => {
    expect(await post('/search', { jql: 'project = PROJ', startAt: 0, maxResults: 100 })).toEqual({ status: 410, json: JIRA_SEARCH_REMOVED });
    const get = await fetch(`${jira.url}${API}/search?jql=project%3DPROJ`);
    expect(get.status).toBe(410);
    expect(await get.json()).toEqual(JIRA_SEARCH_REMOVED);
  });

  it('pages the enhanced search by nextPageToken (isLast, no total), the token opaque and checked', async () => {
    const first = await post('/search/jql', { jql: 'project = PROJ', maxResults: 1, fields: ['summary'] });
    expect(first.status).toBe(200);
    const page1 = first.json as Found;
    expect(page1).toEqual({ issues: [{ id: 'id-PROJ-1', key: 'PROJ-1', self: expect.any(String), fields: { summary: 'First' } }], nextPageToken: expect.any(String), isLast: false });
    expect(page1.nextPageToken).not.toMatch(/^\d+$/);
    const page2 = (await post('/search/jql', { jql: 'project = PROJ', maxResults: 1, fields: ['summary'], nextPageToken: page1.nextPageToken })).json as Found;
    expect(page2).toEqual({ issues: [{ id: 'id-PROJ-2', key: 'PROJ-2', self: expect.any(String), fields: { summary: 'Second' } }], isLast: true });
    expect(await post('/search/jql', { jql: 'project = PROJ', nextPageToken: 'not-a-token' })).toMatchObject({ status: 400, json: { errorMessages: ['The provided next page token is invalid or expired.'] } });
  });

  it('returns only the fields asked for (the id alone without), and refuses startAt and unbounded JQL', async () => {
    expect(((await post('/search/jql', { jql: 'project = PROJ' })).json as Found).issues).toEqual([{ id: 'id-PROJ-1' }, { id: 'id-PROJ-2' }]);
    const all = ((await post('/search/jql', { jql: 'project = PROJ', fields: ['*all', '-description'] })).json as Found).issues[0]?.fields;
    expect(Object.keys(all ?? {}).sort()).toEqual(['created', 'status', 'summary', 'updated']);
    const got = await fetch(`${jira.url}${API}/search/jql?jql=project%3DPROJ&fields=summary,status&maxResults=5`);
    expect(((await got.json()) as Found).issues[1]).toMatchObject({ key: 'PROJ-2', fields: { summary: 'Second', status: { name: 'To Do' } } });
    expect(await post('/search/jql', { jql: 'project = PROJ', startAt: 0 })).toMatchObject({ status: 400, json: { errorMessages: ['Invalid request payload. Refer to the REST API documentation and try again.'] } });
    expect((await post('/search/jql', { jql: 'ORDER BY updated DESC' })).status).toBe(400);
    expect((await post('/search/jql', {})).status).toBe(400);
  });
});
