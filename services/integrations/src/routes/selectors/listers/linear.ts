import { list, obj, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';
/** Linear's teams, by name (case-insensitive) when searched. */
export const TEAMS_QUERY = `query SelectorTeams($first: Int!, $after: String, $filter: TeamFilter) { teams(first: $first, after: $after, filter: $filter) { nodes { id name key } ${PAGE_INFO} } }`;
/** One team's projects, by name when searched. */
export const TEAM_PROJECTS_QUERY = `query SelectorTeamProjects($teamId: String!, $first: Int!, $after: String, $filter: ProjectFilter) { team(id: $teamId) { projects(first: $first, after: $after, filter: $filter) { nodes { id name } ${PAGE_INFO} } } }`;

/** One team by id. */
export const TEAM_QUERY = 'query SelectorTeam($id: String!) { team(id: $id) { id name key } }';
/** One project by id, with its teams (a project may belong to several). */
export const PROJECT_QUERY = 'query SelectorProject($id: String!) { project(id: $id) { id name teams { nodes { id key } } } }';

/** The answer's `errors` as the provider's refusal (Linear sends them with 200 or 400); else its data. */
function graphqlData(client: ProviderClient, answer: unknown): Obj {
  const body = obj(answer);
  const first = obj(list(body.errors)[0]);
  if (list(body.errors).length > 0) throw client.refused(200, str(first.message) ?? 'GraphQL error');
  return obj(body.data);
}

/** A GraphQL call: `errors` in the answer are the provider's refusal. */
async function graphql(client: ProviderClient, query: string, variables: Obj): Promise<Obj> {
  return graphqlData(client, await client.request({ method: 'POST', url: client.io.baseUrl('linear'), json: { query, variables } }));
}

/** Linear's answer for an id it has no entity of (`Entity not found: Team`, with 200 or 400). */
const entityNotFound = (status: number, data: unknown) =>
  (status === 200 || status === 400) && list(obj(data).errors).some((e) => (str(obj(e).message) ?? '').startsWith('Entity not found'));

/** A GraphQL query of one entity by id: `null` when Linear has none. */
async function graphqlOne(client: ProviderClient, query: string, id: string): Promise<Obj | null> {
  const answer = await client.find({ method: 'POST', url: client.io.baseUrl('linear'), json: { query, variables: { id } } }, entityNotFound);
  return answer === null ? null : graphqlData(client, answer);
}

/** A Linear connection as a page: its nodes and the cursor after them. */
function connectionPage(connection: Obj, toItem: (node: Obj) => SelectorItem) {
  const info = obj(connection.pageInfo);
  return { items: list(connection.nodes).map(obj).map(toItem), next: info.hasNextPage === true ? str(info.endCursor) : undefined };
}

const nameFilter = (search: string | undefined) => (search ? { name: { containsIgnoreCase: search } } : null);

const teamItem = (t: Obj): SelectorItem => choice(t.id, String(t.name ?? t.id ?? ''), str(t.key));
const projectItem = (p: Obj): SelectorItem => ({ id: String(p.id ?? ''), name: String(p.name ?? p.id ?? '') });

/** Linear teams (`teams` query), by its cursor. */
export const linearTeams: SelectorLister = {
  provider: 'Linear',
  what: 'Linear teams',
  list: ({ client, search, position }) =>
    collectPages(async (after) => {
      const data = await graphql(client, TEAMS_QUERY, { first: PAGE_LIMIT, after: after ?? null, filter: nameFilter(search) });
      return connectionPage(obj(data.teams), teamItem);
    }, position),
  /** One team by id (`team(id)`; `Entity not found`: none). */
  async get({ client }, id) {
    const data = await graphqlOne(client, TEAM_QUERY, id);
    return data === null || data.team == null ? null : teamItem(obj(data.team));
  },
};

/** The projects of one Linear team (`team(id).projects`), by its cursor. */
export const linearProjects: SelectorLister = {
  provider: 'Linear',
  what: 'Linear projects',
  needs: { teamId: ['teamId', 'manualTeamId'] },
  list: ({ client, search, position, inputs }) =>
    collectPages(async (after) => {
      const data = await graphql(client, TEAM_PROJECTS_QUERY, { teamId: inputs.teamId ?? '', first: PAGE_LIMIT, after: after ?? null, filter: nameFilter(search) });
      return connectionPage(obj(obj(data.team).projects), projectItem);
    }, position),
  /** One project by id (`project(id)`; `Entity not found`: none); a project not of the team is none, as the list holds the team's only. */
  async get({ client, inputs }, id) {
    const data = await graphqlOne(client, PROJECT_QUERY, id);
    if (data === null || data.project == null) return null;
    const project = obj(data.project);
    const team = (inputs.teamId ?? '').toLowerCase();
    const ofTeam = list(obj(project.teams).nodes).map(obj).some((t) => [t.id, t.key].some((v) => typeof v === 'string' && v.toLowerCase() === team));
    return ofTeam ? projectItem(project) : null;
  },
};
