import { createFakeLinear } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockRun, useFamily } from '../testSupport.js';
import { ISSUES_QUERY, ISSUE_CREATE, linearTools } from './linear.tools.js';

const li = useFamily(createFakeLinear, { linear: '/graphql' }, linearTools);
const base = { accessToken: 'lin_1', teamId: 'team-1', projectId: 'proj-1' };

describe('linear', () => {
  it('linear_read_issues sends the issues query for the team and project', async () => {
    const r = await li.run('linear_read_issues', base);
    li.expectRequest('linear_read_issues', 'POST', '/graphql', {
      headers: { authorization: 'Bearer lin_1', 'content-type': 'application/json' },
      body: { query: ISSUES_QUERY, variables: { teamId: 'team-1', projectId: 'proj-1', first: 50 } },
    });
    expect(r).toEqual({
      success: true,
      output: {
        issues: [
          { id: 'iss-1', title: 'Fix login', description: 'About Fix login', state: 'Todo', teamId: 'team-1', projectId: 'proj-1' },
          { id: 'iss-2', title: 'Add SSO', description: 'About Add SSO', state: 'Todo', teamId: 'team-1', projectId: 'proj-1' },
        ],
      },
    });
    li.fake.once('POST', '/graphql', { json: { errors: [{ message: 'Entity not found' }] } });
    await li.expectError('linear_read_issues', base, 'Linear API error: Entity not found');
  });

  it('linear_read_issues pages through the issues 50 at a time by the end cursor, at most 250', async () => {
    const page = (from: number, hasNextPage: boolean) => ({
      json: {
        data: {
          issues: {
            nodes: Array.from({ length: 50 }, (_, i) => ({ id: `iss-${from + i}`, title: `T${from + i}`, state: { name: 'Todo' }, team: { id: 'team-1' }, project: { id: 'proj-1' } })),
            pageInfo: { hasNextPage, endCursor: hasNextPage ? `cur-${from + 50}` : null },
          },
        },
      },
    });
    // The newest once answers first.
    li.fake.once('POST', '/graphql', page(50, false));
    li.fake.once('POST', '/graphql', page(0, true));
    const r = await li.run('linear_read_issues', base);
    li.expectRequest('linear_read_issues', 'POST', '/graphql', { nth: 0, body: { query: ISSUES_QUERY, variables: { teamId: 'team-1', projectId: 'proj-1', first: 50 } } });
    li.expectRequest('linear_read_issues', 'POST', '/graphql', { nth: 1, body: { query: ISSUES_QUERY, variables: { teamId: 'team-1', projectId: 'proj-1', first: 50, after: 'cur-50' } } });
    expect(r.success && (r.output as { issues: Array<{ id: string }> }).issues.map((i) => i.id)).toEqual(Array.from({ length: 100 }, (_, i) => `iss-${i}`));
    for (let from = 200; from >= 0; from -= 50) li.fake.once('POST', '/graphql', page(from, true));
    const capped = await li.run('linear_read_issues', base);
    expect(capped.success && (capped.output as { issues: unknown[] }).issues).toHaveLength(250);
    expect(li.fake.requests).toHaveLength(2 + 5);
  });

  it('linear_read_issues stops on an empty page, a cursor that did not move, and after 10 pages', async () => {
    const page = (ids: string[], endCursor: string) => ({
      json: { data: { issues: { nodes: ids.map((id) => ({ id, title: id, state: { name: 'Todo' }, team: { id: 'team-1' }, project: { id: 'proj-1' } })), pageInfo: { hasNextPage: true, endCursor } } } },
    });
    const ids = (r: Awaited<ReturnType<typeof li.run>>) => r.success && (r.output as { issues: Array<{ id: string }> }).issues.map((i) => i.id);
    // The newest once answers first.
    li.fake.once('POST', '/graphql', page([], 'cur-2'));
    li.fake.once('POST', '/graphql', page(['a'], 'cur-1'));
    expect(ids(await li.run('linear_read_issues', base))).toEqual(['a']);
    expect(li.fake.requests).toHaveLength(2);
    li.fake.once('POST', '/graphql', page(['c'], 'cur-1'));
    li.fake.once('POST', '/graphql', page(['b'], 'cur-1'));
    expect(ids(await li.run('linear_read_issues', base))).toEqual(['b', 'c']);
    expect(li.fake.requests).toHaveLength(2 + 2);
    // Ten pages still saying there is more: the eleventh is never asked for.
    for (let n = 9; n >= 0; n -= 1) li.fake.once('POST', '/graphql', page([`s-${n}`], `cur-${n + 1}`));
    expect(ids(await li.run('linear_read_issues', base))).toEqual(Array.from({ length: 10 }, (_, n) => `s-${n}`));
    expect(li.fake.requests).toHaveLength(2 + 2 + 10);
  });

  it('linear_create_issue sends the issueCreate mutation', async () => {
    const r = await li.run('linear_create_issue', { ...base, title: 'New issue', description: 'Details' });
    li.expectRequest('linear_create_issue', 'POST', '/graphql', {
      headers: { authorization: 'Bearer lin_1' },
      body: { query: ISSUE_CREATE, variables: { teamId: 'team-1', projectId: 'proj-1', title: 'New issue', description: 'Details' } },
    });
    expect(r).toEqual({ success: true, output: { issue: { id: 'iss-3', title: 'New issue', description: 'About New issue', state: 'Todo', teamId: 'team-1', projectId: 'proj-1' } } });
  });

  it('linear_create_issue refuses a blank title and passes API errors', async () => {
    await li.expectError('linear_create_issue', { ...base, title: '  ', description: 'd' }, 'Title is required to create a Linear issue');
    expect(li.fake.requests).toHaveLength(0);
    li.fake.once('POST', '/graphql', { status: 401, json: { errors: [{ message: 'Authentication required' }] } });
    await li.expectError('linear_create_issue', { ...base, title: 't', description: 'd' }, 'Linear API error: Authentication required');
  });
});

describe('the Linear block reaches its tools', () => {
  it.each([
    ['read', {}, ISSUES_QUERY, { first: 50 }],
    ['write', { title: 'New issue', description: 'Details' }, ISSUE_CREATE, { title: 'New issue', description: 'Details' }],
  ] as const)('%s: advanced mode\'s typed team and project ids are the ids sent (the picked ones win when both are set)', async (operation, extra, query, vars) => {
    const manual = blockRun('linear', { operation, credential: 'cred-li', teamId: '', projectId: '', manualTeamId: ' team-1 ', manualProjectId: 'proj-1', ...extra });
    await li.run(manual.toolId, manual.params);
    li.expectRequest(manual.toolId, 'POST', '/graphql', { headers: { authorization: 'Bearer oauth-cred-li' }, body: { query, variables: { teamId: 'team-1', projectId: 'proj-1', ...vars } } });
    const both = blockRun('linear', { operation, credential: 'cred-li', teamId: 'team-2', projectId: 'proj-2', manualTeamId: 'team-1', manualProjectId: 'proj-1', ...extra });
    await li.run(both.toolId, both.params);
    li.expectRequest(both.toolId, 'POST', '/graphql', { body: { query, variables: { teamId: 'team-2', projectId: 'proj-2', ...vars } } });
  });
});
