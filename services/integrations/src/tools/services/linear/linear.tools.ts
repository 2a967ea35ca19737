import { text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, serviceTool, type Obj } from '../http.js';

const ISSUE_FIELDS = 'id title description state { name } team { id } project { id }';

/** The issues of a team's project, a page of `$first` after the cursor `$after`. */
export const ISSUES_QUERY = `query Issues($teamId: ID!, $projectId: ID!, $first: Int, $after: String) { issues(filter: { team: { id: { eq: $teamId } }, project: { id: { eq: $projectId } } }, first: $first, after: $after) { nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage endCursor } } }`;

/**
 * Issues read a page, at most in all, and at most pages read (Linear's default page is 50; a project
 * may hold thousands; short pages must not make the reading endless).
 */
export const LINEAR_ISSUES = { page: 50, max: 250, pages: 10 } as const;
/** Creates an issue in a team's project. */
export const ISSUE_CREATE = `mutation IssueCreate($teamId: String!, $projectId: String!, $title: String!, $description: String) { issueCreate(input: { teamId: $teamId, projectId: $projectId, title: $title, description: $description }) { success issue { ${ISSUE_FIELDS} } } }`;

async function graphql(io: ToolIO, p: Obj, query: string, variables: Obj): Promise<Obj> {
  const res = await call(io, { method: 'POST', url: io.baseUrl('linear'), headers: bearer(p.accessToken), json: { query, variables } });
  const body = obj(res.data);
  const errors = list(body.errors);
  if (!res.ok || errors.length) throw new ToolError(`Linear API error: ${errors.length ? String(obj(errors[0]).message) : apiMessage(res)}`, res.status);
  return obj(body.data);
}

/** A Linear issue as the tools answer it (§3). */
function linearIssue(value: unknown) {
  const i = obj(value);
  return { id: i.id, title: i.title, description: i.description, state: obj(i.state).name, teamId: obj(i.team).id, projectId: obj(i.project).id };
}

/** Linear tools over GraphQL: the issues query and the issueCreate mutation. */
export const linearTools: ServiceTool[] = [
  serviceTool('linear_read_issues', async (p, io) => {
    const issues: unknown[] = [];
    let after: string | undefined;
    // Stops at the last page, an empty page, a cursor that did not move, 250 issues or 10 pages.
    for (let pages = 0; pages < LINEAR_ISSUES.pages && issues.length < LINEAR_ISSUES.max; pages += 1) {
      const page = obj((await graphql(io, p, ISSUES_QUERY, { teamId: text(p.teamId), projectId: text(p.projectId), first: LINEAR_ISSUES.page, after })).issues);
      const nodes = list(page.nodes);
      issues.push(...nodes);
      const info = obj(page.pageInfo);
      const next = info.hasNextPage === true && typeof info.endCursor === 'string' ? info.endCursor : undefined;
      if (nodes.length === 0 || next === undefined || next === after) break;
      after = next;
    }
    return { issues: issues.slice(0, LINEAR_ISSUES.max).map(linearIssue) };
  }),
  serviceTool('linear_create_issue', async (p, io) => {
    if (text(p.title) === '') throw new ToolError('Title is required to create a Linear issue');
    const d = await graphql(io, p, ISSUE_CREATE, { teamId: text(p.teamId), projectId: text(p.projectId), title: text(p.title), description: String(p.description ?? '') });
    const created = obj(d.issueCreate);
    if (created.success !== true) throw new ToolError('Linear API error: issue was not created');
    return { issue: linearIssue(created.issue) };
  }),
];
