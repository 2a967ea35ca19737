import type { FakeAnswer, FakeServer, RecordedRequest } from '../server.js';
import { createServiceFake } from './kit.js';

const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const issue = (key: string, summary: string) => ({
  id: `id-${key}`,
  key,
  fields: { summary, description: adf(`Details of ${key}`), created: '2025-05-01T10:00:00.000+0000', updated: '2025-05-02T10:00:00.000+0000', status: { name: 'To Do' } },
});

/** What Jira Cloud answers on the removed `GET/POST /rest/api/3/search` (Atlassian's CHANGE-2046). */
export const JIRA_SEARCH_REMOVED = {
  errorMessages: [
    'The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available in the changelog (CHANGE-2046)',
  ],
  errors: {},
};

/** Recorded Jira Cloud answers (accessible resources and REST API 3). */
export const JIRA_FIXTURES = {
  resources: [
    { id: 'cloud-other', url: 'https://other.atlassian.example', name: 'other' },
    { id: 'cloud-1', url: 'https://acme.atlassian.example', name: 'acme' },
  ],
  issue,
  projects: {
    values: [
      { id: '10000', key: 'PROJ', name: 'Platform', projectTypeKey: 'software' },
      { id: '10001', key: 'OPS', name: 'Operations', projectTypeKey: 'business' },
    ],
    startAt: 0,
    maxResults: 100,
    total: 2,
    isLast: true,
  },
  /** The issues every JQL search finds (the fake does not evaluate the JQL), newest change first. */
  search: { issues: [issue('PROJ-1', 'First'), issue('PROJ-2', 'Second')] },
  created: { id: '10001', key: 'PROJ-3', self: 'https://jira.example/ex/jira/cloud-1/rest/api/3/issue/10001' },
  transitions: { transitions: [{ id: '21', name: 'Start', to: { name: 'In Progress' } }, { id: '31', name: 'Done', to: { name: 'Done' } }] },
};

type FixtureIssue = ReturnType<typeof issue>;

const badRequest = (message: string): FakeAnswer => ({ status: 400, json: { errorMessages: [message], errors: {} } });

/** The fake's page token: opaque to clients (base64url of where the next page starts). */
const pageToken = (offset: number) => Buffer.from(`weft-jira-page:${offset}`, 'utf8').toString('base64url');
function tokenOffset(token: string): number | undefined {
  const match = /^weft-jira-page:(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

/** An issue as the enhanced search returns it: the id alone unless fields are asked for (`*all`/`*navigable`: all, `-x`: all but x). */
function withFields(found: FixtureIssue, asked: string[]): Record<string, unknown> {
  if (asked.length === 0) return { id: found.id };
  const all = asked.includes('*all') || asked.includes('*navigable') || asked.every((f) => f.startsWith('-'));
  const fields = Object.fromEntries(
    Object.entries(found.fields).filter(([name]) => !asked.includes(`-${name}`) && (all || asked.includes(name))),
  );
  return { id: found.id, key: found.key, self: `https://jira.example/ex/jira/cloud-1/rest/api/3/issue/${found.id}`, fields };
}

/**
 * Jira's enhanced JQL search (`POST /search/jql` with a JSON body, `GET /search/jql` with the same as
 * query parameters): JQL required, `startAt` refused (the old endpoint's paging), pages of `maxResults`
 * (default 50) joined by `nextPageToken`, `isLast`, no `total`; only the fields asked for.
 */
function searchJql(req: RecordedRequest): FakeAnswer {
  const q = req.method === 'GET' ? req.query : ((req.body ?? {}) as Record<string, unknown>);
  if (q.startAt !== undefined) return badRequest('Invalid request payload. Refer to the REST API documentation and try again.');
  const jql = typeof q.jql === 'string' ? q.jql.trim() : '';
  if (!jql || /^order by/i.test(jql)) return badRequest('Unbounded JQL queries are not allowed here. Please add a search restriction to your query.');
  const maxResults = q.maxResults === undefined ? 50 : Number(q.maxResults);
  if (!Number.isSafeInteger(maxResults) || maxResults < 0) return badRequest('The maxResults parameter must be a non-negative whole number.');
  let offset = 0;
  if (q.nextPageToken !== undefined && q.nextPageToken !== null) {
    const at = typeof q.nextPageToken === 'string' ? tokenOffset(q.nextPageToken) : undefined;
    if (at === undefined) return badRequest('The provided next page token is invalid or expired.');
    offset = at;
  }
  const fields = Array.isArray(q.fields) ? q.fields.map(String) : typeof q.fields === 'string' ? q.fields.split(',') : [];
  const all = JIRA_FIXTURES.search.issues;
  const page = all.slice(offset, offset + Math.min(maxResults, 5000));
  const end = offset + page.length;
  const isLast = end >= all.length;
  return { json: { issues: page.map((i) => withFields(i, fields.map((f) => f.trim()).filter(Boolean))), ...(isLast ? {} : { nextPageToken: pageToken(end) }), isLast } };
}

/** `project/{projectIdOrKey}`: a project of `projects` by id or key, else 404 as Jira answers it. */
function projectByIdOrKey(req: RecordedRequest): FakeAnswer {
  const wanted = decodeURIComponent(req.path.split('/').pop() ?? '');
  const found = JIRA_FIXTURES.projects.values.find((p) => p.id === wanted || p.key === wanted.toUpperCase());
  return found ? { json: found } : { status: 404, json: { errorMessages: [`No project could be found with key '${wanted}'.`], errors: {} } };
}

/**
 * `issue/{key}`: every key of a project of `projects` is an issue (`Login fails`, that project in
 * `fields.project`); any other key 404 as Jira answers it.
 */
function issueByKey(req: RecordedRequest): FakeAnswer {
  const key = decodeURIComponent(req.path.split('/').pop() ?? '');
  const project = JIRA_FIXTURES.projects.values.find((p) => key.startsWith(`${p.key}-`));
  if (!project) return { status: 404, json: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} } };
  const found = issue(key, 'Login fails');
  return { json: { ...found, fields: { ...found.fields, project } } };
}

/**
 * A fake Atlassian API: accessible resources and Jira REST API 3 under /ex/jira/{cloudId} (issues,
 * the enhanced JQL search, projects). The removed `/search` answers 410 Gone, as Jira Cloud does.
 */
export function createFakeJira(): Promise<FakeServer> {
  const api = '/ex/jira/:cloud/rest/api/3';
  return createServiceFake([
    ['GET', '/oauth/token/accessible-resources', { json: JIRA_FIXTURES.resources }],
    // Before project/search: the newest route answers first, and `:key` matches `search` too.
    ['GET', `${api}/project/:key`, projectByIdOrKey],
    ['GET', `${api}/project/search`, { json: JIRA_FIXTURES.projects }],
    ['GET', `${api}/issue/:key`, issueByKey],
    ['POST', `${api}/search/jql`, searchJql],
    ['GET', `${api}/search/jql`, searchJql],
    ['POST', `${api}/search`, { status: 410, json: JIRA_SEARCH_REMOVED }],
    ['GET', `${api}/search`, { status: 410, json: JIRA_SEARCH_REMOVED }],
    ['PUT', `${api}/issue/:key`, { status: 204 }],
    ['POST', `${api}/issue`, { status: 201, json: JIRA_FIXTURES.created }],
    ['GET', `${api}/issue/:key/transitions`, { json: JIRA_FIXTURES.transitions }],
    ['POST', `${api}/issue/:key/transitions`, { status: 204 }],
  ]);
}
