import { JIRA_FIXTURES, createFakeJira } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { jiraTools } from './jira.tools.js';

const ji = useFamily(createFakeJira, ['atlassian'], jiraTools);
const base = { accessToken: 'atl_1', domain: 'acme.atlassian.example' };
const API = '/ex/jira/cloud-1/rest/api/3';
const headers = { authorization: 'Bearer atl_1', accept: 'application/json' };

describe('jira', () => {
  it('jira_retrieve finds the cloud id from the domain and reads the issue', async () => {
    const r = await ji.run('jira_retrieve', { ...base, issueKey: 'PROJ-7' });
    ji.expectRequest('jira_retrieve', 'GET', '/oauth/token/accessible-resources', { headers: { authorization: 'Bearer atl_1' } });
    ji.expectRequest('jira_retrieve', 'GET', `${API}/issue/PROJ-7`, { headers });
    expect(r).toMatchObject({ success: true, output: { issueKey: 'PROJ-7', summary: 'Login fails', description: 'Details of PROJ-7', created: '2025-05-01T10:00:00.000+0000' } });
  });

  it('jira_retrieve: no resources, and a failed read', async () => {
    ji.fake.once('GET', '/oauth/token/accessible-resources', { json: [] });
    await ji.expectError('jira_retrieve', { ...base, issueKey: 'X-1' }, 'No Jira resources found');
    ji.fake.once('GET', '/ex/jira/:cloud/rest/api/3/issue/:key', { status: 404, json: { errorMessages: ['Issue does not exist'], errors: {} } });
    await ji.expectError('jira_retrieve', { ...base, cloudId: 'cloud-9', issueKey: 'X-1' }, 'Failed to retrieve Jira issue: Issue does not exist');
    ji.expectRequest('jira_retrieve', 'GET', '/ex/jira/cloud-9/rest/api/3/issue/X-1', { headers });
  });

  it('jira_retrieve: a domain no accessible resource names fails naming it, never another site', async () => {
    await ji.expectError(
      'jira_retrieve',
      { ...base, domain: 'https://elsewhere.atlassian.example/', issueKey: 'X-1' },
      'No Jira site found for elsewhere.atlassian.example (this account can reach: https://other.atlassian.example, https://acme.atlassian.example)',
    );
    expect(ji.fake.received('GET', '/ex/jira/:cloud/rest/api/3/issue/:key')).toEqual([]);
  });

  it('jira_retrieve matches the site host exactly, never a site whose URL merely contains the domain', async () => {
    const sites = [
      { id: 'cloud-big', url: 'https://bigacme.atlassian.example', name: 'bigacme' },
      { id: 'cloud-other', url: 'https://acme.atlassian.example-other.example', name: 'acme-other' },
    ];
    ji.fake.once('GET', '/oauth/token/accessible-resources', { json: sites });
    await ji.expectError(
      'jira_retrieve',
      { ...base, issueKey: 'X-1' },
      'No Jira site found for acme.atlassian.example (this account can reach: https://bigacme.atlassian.example, https://acme.atlassian.example-other.example)',
    );
    ji.fake.once('GET', '/oauth/token/accessible-resources', { json: sites });
    await ji.expectError('jira_retrieve', { ...base, domain: 'acme', issueKey: 'X-1' }, 'No Jira site found for acme (this account can reach: https://bigacme.atlassian.example, https://acme.atlassian.example-other.example)');
    expect(ji.fake.received('GET', '/ex/jira/:cloud/rest/api/3/issue/:key')).toEqual([]);
    ji.fake.once('GET', '/oauth/token/accessible-resources', { json: [...sites, { id: 'cloud-1', url: 'https://ACME.atlassian.example/', name: 'acme' }] });
    expect(await ji.run('jira_retrieve', { ...base, domain: 'https://acme.atlassian.example', issueKey: 'PROJ-7' })).toMatchObject({ success: true });
    ji.expectRequest('jira_retrieve', 'GET', `${API}/issue/PROJ-7`, { headers });
  });

  it('jira_bulk_read searches the project with the enhanced JQL search, asking for its fields', async () => {
    const r = await ji.run('jira_bulk_read', { ...base, cloudId: 'cloud-1', projectId: 'PROJ' });
    ji.expectRequest('jira_bulk_read', 'POST', `${API}/search/jql`, {
      headers: { ...headers, 'content-type': 'application/json' },
      body: { jql: 'project = "PROJ" ORDER BY updated DESC', maxResults: 100, fields: ['summary', 'description', 'created', 'updated'] },
    });
    expect(ji.fake.received('POST', `${API}/search`)).toEqual([]);
    expect(r).toMatchObject({
      success: true,
      output: [
        { issueKey: 'PROJ-1', summary: 'First', description: 'Details of PROJ-1', created: '2025-05-01T10:00:00.000+0000', updated: '2025-05-02T10:00:00.000+0000' },
        { issueKey: 'PROJ-2', summary: 'Second', description: 'Details of PROJ-2' },
      ],
    });
    ji.fake.once('POST', '/ex/jira/:cloud/rest/api/3/search/jql', { status: 400, json: { errorMessages: ['bad jql'] } });
    await ji.expectError('jira_bulk_read', { ...base, cloudId: 'cloud-1', projectId: 'P' }, 'Failed to retrieve Jira issues: bad jql');
  });

  it('jira_bulk_read quotes the project as a JQL string (a name with spaces, quotes, backslashes, JQL words), a numeric id as a number', async () => {
    const cases: Array<[string, string]> = [
      ['My Project', 'project = "My Project"'],
      ['Say "hi" \\ bye', 'project = "Say \\"hi\\" \\\\ bye"'],
      ['X OR project = Y', 'project = "X OR project = Y"'],
      ['10000', 'project = 10000'],
    ];
    for (const [projectId, clause] of cases) {
      expect(await ji.run('jira_bulk_read', { ...base, cloudId: 'cloud-1', projectId })).toMatchObject({ success: true });
      ji.expectRequest('jira_bulk_read', 'POST', `${API}/search/jql`, {
        headers,
        body: { jql: `${clause} ORDER BY updated DESC`, maxResults: 100, fields: ['summary', 'description', 'created', 'updated'] },
      });
    }
  });

  it('jira_bulk_read follows nextPageToken past a short page, up to 100 issues', async () => {
    const issues = (from: number, n: number) => Array.from({ length: n }, (_, i) => JIRA_FIXTURES.issue(`PROJ-${from + i}`, `Issue ${from + i}`));
    const path = '/ex/jira/:cloud/rest/api/3/search/jql';
    // The newest scripted answer goes first: the pages are scripted last to first.
    ji.fake.once('POST', path, { json: { issues: issues(61, 50), nextPageToken: 'tok-3', isLast: false } });
    ji.fake.once('POST', path, { json: { issues: issues(1, 60), nextPageToken: 'tok-2', isLast: false } });
    const r = await ji.run('jira_bulk_read', { ...base, cloudId: 'cloud-1', projectId: 'PROJ' });
    const sent = ji.fake.received('POST', `${API}/search/jql`).map((req) => req.body as Record<string, unknown>);
    expect(sent.map((b) => [b.maxResults, b.nextPageToken])).toEqual([[100, undefined], [40, 'tok-2']]);
    const out = (r as { output: Array<{ issueKey: string }> }).output;
    expect(out).toHaveLength(100);
    expect([out[0]?.issueKey, out[99]?.issueKey]).toEqual(['PROJ-1', 'PROJ-100']);

    ji.fake.once('POST', path, { json: { issues: issues(4, 1), isLast: true } });
    ji.fake.once('POST', path, { json: { issues: issues(1, 3), nextPageToken: 'tok-2', isLast: false } });
    const short = await ji.run('jira_bulk_read', { ...base, cloudId: 'cloud-1', projectId: 'PROJ' });
    expect((short as { output: Array<{ issueKey: string }> }).output.map((i) => i.issueKey)).toEqual(['PROJ-1', 'PROJ-2', 'PROJ-3', 'PROJ-4']);
  });

  it('jira_update sets fields and moves the status through its transition', async () => {
    const r = await ji.run('jira_update', { ...base, cloudId: 'cloud-1', issueKey: 'PROJ-1', summary: 'New title', description: 'Text', priority: 'High', status: 'in progress' });
    ji.expectRequest('jira_update', 'PUT', `${API}/issue/PROJ-1`, {
      headers,
      body: { fields: { summary: 'New title', description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Text' }] }] }, priority: { name: 'High' } } },
    });
    ji.expectRequest('jira_update', 'GET', `${API}/issue/PROJ-1/transitions`, { headers });
    ji.expectRequest('jira_update', 'POST', `${API}/issue/PROJ-1/transitions`, { headers, body: { transition: { id: '21' } } });
    expect(r).toMatchObject({ success: true, output: { issueKey: 'PROJ-1', summary: 'New title', success: true } });
    ji.fake.once('PUT', '/ex/jira/:cloud/rest/api/3/issue/:key', { status: 403, json: { errorMessages: ['You do not have permission'] } });
    await ji.expectError('jira_update', { ...base, cloudId: 'cloud-1', issueKey: 'PROJ-1', summary: 'x' }, 'Failed to update Jira issue: You do not have permission');
  });

  it('jira_write creates the issue with type Task by default, its project by id when numeric, else by key', async () => {
    const r = await ji.run('jira_write', { ...base, cloudId: 'cloud-1', projectId: '10000', summary: 'Broken', issueType: '' });
    ji.expectRequest('jira_write', 'POST', `${API}/issue`, { headers, body: { fields: { project: { id: '10000' }, issuetype: { name: 'Task' }, summary: 'Broken' } } });
    expect(r).toMatchObject({ success: true, output: { issueKey: 'PROJ-3', summary: 'Broken', success: true, url: 'https://acme.atlassian.example/browse/PROJ-3' } });
    await ji.run('jira_write', { ...base, cloudId: 'cloud-1', projectId: 'PROJ', summary: 'By key', issueType: 'Bug' });
    ji.expectRequest('jira_write', 'POST', `${API}/issue`, { body: { fields: { project: { key: 'PROJ' }, issuetype: { name: 'Bug' }, summary: 'By key' } } });
    ji.fake.once('POST', '/ex/jira/:cloud/rest/api/3/issue', { status: 400, json: { errors: { summary: 'required' } } });
    await ji.expectError('jira_write', { ...base, cloudId: 'cloud-1', projectId: '1', summary: 's', issueType: 'Bug' }, 'Failed to create Jira issue: summary: required');
  });
});
