import { list, obj, str, type Obj } from '../../../tools/services/http.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';
/** Linear's teams, by name (case-insensitive) when searched. */
export const TEAMS_QUERY = `query SelectorTeams($first: Int!, $after: String, $filter: TeamFilter) { teams(first: $first, after: $after, filter: $filter) { nodes { id name key } ${PAGE_INFO} } }`;
/** One team's projects, by name when searched. */
export const TEAM_PROJECTS_QUERY = `query SelectorTeamProjects($teamId: String!, $first: Int!, $after: String, $filter: ProjectFilter) { team(id: $teamId) { projects(first: $first, after: $after, filter: $filter) { nodes { id name } ${PAGE_INFO} } } }`;

/** A GraphQL call: `errors` in the answer (Linear sends them with 200 or 400) are the provider's refusal. */
async function graphql(client: ProviderClient, query: string, variables: Obj): Promise<Obj> {
  const body = obj(await client.request({ method: 'POST', url: client.io.baseUrl('linear'), json: { query, variables } }));
  const first = obj(list(body.errors)[0]);
  if (list(body.errors).length > 0) throw client.refused(200, str(first.message) ?? 'GraphQL error');
  return obj(body.data);
}

/** A Linear connection as a page: its nodes and the cursor after them. */
function connectionPage(connection: Obj, toItem: (node: Obj) => SelectorItem) {
  const info = obj(connection.pageInfo);
  return { items: list(connection.nodes).map(obj).map(toItem), next: info.hasNextPage === true ? str(info.endCursor) : undefined };
}

const nameFilter = (search: string | undefined) => (search ? { name: { containsIgnoreCase: search } } : null);

/** Linear teams (`teams` query), by its cursor. */
export const linearTeams: SelectorLister = {
  provider: 'Linear',
  what: 'Linear teams',
  list: ({ client, search, position }) =>
    collectPages(async (after) => {
      const data = await graphql(client, TEAMS_QUERY, { first: PAGE_LIMIT, after: after ?? null, filter: nameFilter(search) });
      return connectionPage(obj(data.teams), (t) => choice(t.id, String(t.name ?? t.id ?? ''), str(t.key)));
    }, position),
};

/** The projects of one Linear team (`team(id).projects`), by its cursor. */
export const linearProjects: SelectorLister = {
  provider: 'Linear',
  what: 'Linear projects',
  needs: { teamId: ['teamId', 'manualTeamId'] },
  list: ({ client, search, position, inputs }) =>
    collectPages(async (after) => {
      const data = await graphql(client, TEAM_PROJECTS_QUERY, { teamId: inputs.teamId ?? '', first: PAGE_LIMIT, after: after ?? null, filter: nameFilter(search) });
      return connectionPage(obj(obj(data.team).projects), (p) => ({ id: String(p.id ?? ''), name: String(p.name ?? p.id ?? '') }));
    }, position),
};
