import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const adf = (text: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const issue = (key: string, summary: string) => ({
  id: `id-${key}`,
  key,
  fields: { summary, description: adf(`Details of ${key}`), created: '2025-05-01T10:00:00.000+0000', updated: '2025-05-02T10:00:00.000+0000', status: { name: 'To Do' } },
});

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
  search: { issues: [issue('PROJ-1', 'First'), issue('PROJ-2', 'Second')], total: 2 },
  created: { id: '10001', key: 'PROJ-3', self: 'https://api.atlassian.com/ex/jira/cloud-1/rest/api/3/issue/10001' },
  transitions: { transitions: [{ id: '21', name: 'Start', to: { name: 'In Progress' } }, { id: '31', name: 'Done', to: { name: 'Done' } }] },
};

/** A fake Atlassian API: accessible resources and Jira REST API 3 under /ex/jira/{cloudId} (issues, search, projects). */
export function createFakeJira(): Promise<FakeServer> {
  const api = '/ex/jira/:cloud/rest/api/3';
  return createServiceFake([
    ['GET', '/oauth/token/accessible-resources', { json: JIRA_FIXTURES.resources }],
    ['GET', `${api}/project/search`, { json: JIRA_FIXTURES.projects }],
    ['GET', `${api}/issue/:key`, (req) => ({ json: issue(req.path.split('/').pop() ?? '', 'Login fails') })],
    ['POST', `${api}/search`, { json: JIRA_FIXTURES.search }],
    ['PUT', `${api}/issue/:key`, { status: 204 }],
    ['POST', `${api}/issue`, { status: 201, json: JIRA_FIXTURES.created }],
    ['GET', `${api}/issue/:key/transitions`, { json: JIRA_FIXTURES.transitions }],
    ['POST', `${api}/issue/:key/transitions`, { status: 204 }],
  ]);
}
