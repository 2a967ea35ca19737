import type { FakeAnswer, FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const issue = (id: string, title: string) => ({ id, title, description: `About ${title}`, state: { name: 'Todo' }, team: { id: 'team-1' }, project: { id: 'proj-1' } });

/** Recorded Linear GraphQL answers. */
export const LINEAR_FIXTURES = {
  issues: { data: { issues: { nodes: [issue('iss-1', 'Fix login'), issue('iss-2', 'Add SSO')] } } },
  created: { data: { issueCreate: { success: true, issue: issue('iss-3', 'New issue') } } },
  teams: { data: { teams: { nodes: [{ id: 'team-1', name: 'Engineering', key: 'ENG' }, { id: 'team-2', name: 'Design', key: 'DES' }], pageInfo: { hasNextPage: false, endCursor: 'team-2' } } } },
  teamProjects: { data: { team: { projects: { nodes: [{ id: 'proj-1', name: 'Login revamp' }, { id: 'proj-2', name: 'SSO' }], pageInfo: { hasNextPage: false, endCursor: 'proj-2' } } } } },
  /** Every project by id (`project(id)`), with its teams. */
  projects: [
    { id: 'proj-1', name: 'Login revamp', teams: { nodes: [{ id: 'team-1', key: 'ENG' }] } },
    { id: 'proj-2', name: 'SSO', teams: { nodes: [{ id: 'team-1', key: 'ENG' }, { id: 'team-2', key: 'DES' }] } },
    { id: 'proj-3', name: 'Brand refresh', teams: { nodes: [{ id: 'team-2', key: 'DES' }] } },
  ],
};

/** Linear's answer for an id it has no entity of (400, as the API answers an invalid input). */
const notFound = (entity: string): FakeAnswer => ({
  status: 400,
  json: { data: null, errors: [{ message: `Entity not found: ${entity}`, path: [entity.toLowerCase()], extensions: { type: 'invalid input', userPresentableMessage: `Could not find referenced ${entity}.` } }] },
});

/** One team (`team(id)` without its projects) or project (`project(id)`) by the `id` variable. */
function entityById(query: string, id: unknown): FakeAnswer | undefined {
  if (query.includes('team(id:') && !query.includes('projects(')) {
    const team = LINEAR_FIXTURES.teams.data.teams.nodes.find((t) => t.id === id);
    return team ? { json: { data: { team } } } : notFound('Team');
  }
  if (query.includes('project(id:')) {
    const project = LINEAR_FIXTURES.projects.find((p) => p.id === id);
    return project ? { json: { data: { project } } } : notFound('Project');
  }
  return undefined;
}

/** The fixture a GraphQL query is answered with: the mutation, the teams, one team or project, a team's projects, else the issues. */
function answerOf(body: { query?: unknown; variables?: { id?: unknown } } | undefined): FakeAnswer {
  const query = String(body?.query);
  if (query.includes('issueCreate')) return { json: LINEAR_FIXTURES.created };
  if (query.includes('teams(')) return { json: LINEAR_FIXTURES.teams };
  const one = entityById(query, body?.variables?.id);
  if (one) return one;
  if (query.includes('team(id:')) return { json: LINEAR_FIXTURES.teamProjects };
  return { json: LINEAR_FIXTURES.issues };
}

/** A fake Linear GraphQL endpoint (/graphql): the issueCreate mutation, the teams, a team or project by id and a team's projects, other queries the issues. */
export function createFakeLinear(): Promise<FakeServer> {
  return createServiceFake([['POST', '/graphql', (req) => answerOf(req.body as Parameters<typeof answerOf>[0])]]);
}
