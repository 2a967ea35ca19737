import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const issue = (id: string, title: string) => ({ id, title, description: `About ${title}`, state: { name: 'Todo' }, team: { id: 'team-1' }, project: { id: 'proj-1' } });

/** Recorded Linear GraphQL answers. */
export const LINEAR_FIXTURES = {
  issues: { data: { issues: { nodes: [issue('iss-1', 'Fix login'), issue('iss-2', 'Add SSO')] } } },
  created: { data: { issueCreate: { success: true, issue: issue('iss-3', 'New issue') } } },
};

/** A fake Linear GraphQL endpoint (/graphql): queries answer the issues, mutations the created issue. */
export function createFakeLinear(): Promise<FakeServer> {
  return createServiceFake([
    ['POST', '/graphql', (req) => ({ json: String((req.body as { query?: string }).query).includes('issueCreate') ? LINEAR_FIXTURES.created : LINEAR_FIXTURES.issues })],
  ]);
}
