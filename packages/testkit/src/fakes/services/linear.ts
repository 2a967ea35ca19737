import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const issue = (id: string, title: string) => ({ id, title, description: `About ${title}`, state: { name: 'Todo' }, team: { id: 'team-1' }, project: { id: 'proj-1' } });

/** Recorded Linear GraphQL answers. */
export const LINEAR_FIXTURES = {
  issues: { data: { issues: { nodes: [issue('iss-1', 'Fix login'), issue('iss-2', 'Add SSO')] } } },
  created: { data: { issueCreate: { success: true, issue: issue('iss-3', 'New issue') } } },
  teams: { data: { teams: { nodes: [{ id: 'team-1', name: 'Engineering', key: 'ENG' }, { id: 'team-2', name: 'Design', key: 'DES' }], pageInfo: { hasNextPage: false, endCursor: 'team-2' } } } },
  teamProjects: { data: { team: { projects: { nodes: [{ id: 'proj-1', name: 'Login revamp' }, { id: 'proj-2', name: 'SSO' }], pageInfo: { hasNextPage: false, endCursor: 'proj-2' } } } } },
};

/** The fixture a GraphQL query is answered with: the mutation, the teams, a team's projects, else the issues. */
function answerOf(query: string): unknown {
  if (query.includes('issueCreate')) return LINEAR_FIXTURES.created;
  if (query.includes('teams(')) return LINEAR_FIXTURES.teams;
  if (query.includes('team(id:')) return LINEAR_FIXTURES.teamProjects;
  return LINEAR_FIXTURES.issues;
}

/** A fake Linear GraphQL endpoint (/graphql): the issueCreate mutation, the teams and a team's projects, other queries the issues. */
export function createFakeLinear(): Promise<FakeServer> {
  return createServiceFake([
    ['POST', '/graphql', (req) => ({ json: answerOf(String((req.body as { query?: string }).query)) })],
  ]);
}
