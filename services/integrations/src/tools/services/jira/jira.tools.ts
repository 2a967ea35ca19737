import { text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, str, type ApiResponse, type CallSpec, type Obj } from '../http.js';
import { hostOf, siteOfDomain } from '../atlassianSite.js';
import { jqlProject } from './jql.js';

/**
 * The Jira Cloud id: the given one, else the accessible resource whose host is the domain exactly
 * (a bare site name such as `acme` means `acme.atlassian.net`; the only one when no domain is
 * given), never one whose URL merely contains it. A domain no resource names fails naming it:
 * another site's cloud id would read and write another site's issues.
 */
async function cloudId(io: ToolIO, p: Obj): Promise<string> {
  if (text(p.cloudId)) return text(p.cloudId);
  const res = await call(io, { url: `${io.baseUrl('atlassian')}/oauth/token/accessible-resources`, headers: bearer(p.accessToken) });
  const resources = res.ok ? list(res.data).map(obj) : [];
  if (resources.length === 0) throw new ToolError('No Jira resources found', res.status);
  const domain = hostOf(text(p.domain));
  const match = domain
    ? siteOfDomain(resources, domain)
    : resources.length === 1 ? resources[0] : undefined;
  if (!match) {
    const sites = resources.map((r) => String(r.url ?? r.name ?? r.id)).join(', ');
    throw new ToolError(domain ? `No Jira site found for ${domain} (this account can reach: ${sites})` : `domain is required: this account can reach several Jira sites (${sites})`, 404);
  }
  return String(match.id);
}

/** A project as Jira's create takes it: a numeric id as {id}, a key such as PROJ as {key}. */
const projectRef = (value: string) => (/^\d+$/.test(value) ? { id: value } : { key: value });

/** Jira's error answer: its errorMessages, else its field errors as `field: message` (`{errors: {summary: 'required'}}`). */
function jiraMessage(res: ApiResponse): string {
  const fields = Object.entries(obj(obj(res.data).errors)).filter(([, v]) => typeof v === 'string');
  if (list(obj(res.data).errorMessages).length === 0 && fields.length > 0) return fields.map(([k, v]) => `${k}: ${String(v)}`).join('; ');
  return apiMessage(res);
}

async function jira(io: ToolIO, p: Obj, path: string, failure: string, spec: Omit<CallSpec, 'url'> = {}): Promise<ApiResponse> {
  const id = await cloudId(io, p);
  const res = await call(io, { ...spec, url: `${io.baseUrl('atlassian')}/ex/jira/${seg(id)}/rest/api/3${path}`, headers: { ...bearer(p.accessToken), Accept: 'application/json' } });
  if (!res.ok) throw new ToolError(`${failure}: ${jiraMessage(res)}`, res.status);
  return res;
}

/** Plain text as an Atlassian document. */
const adf = (value: string) => ({ type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: value }] }] });

/** An Atlassian document's text. */
function adfText(node: unknown): string {
  const n = obj(node);
  if (typeof node === 'string') return node;
  if (n.type === 'text') return str(n.text) ?? '';
  const parts = list(n.content).map(adfText);
  return n.type === 'doc' ? parts.join('\n') : parts.join('');
}

const summaryOf = (issue: unknown) => {
  const f = obj(obj(issue).fields);
  return { summary: f.summary, description: adfText(f.description), created: f.created, updated: f.updated };
};

/** Fields to set on an issue from the optional parameters. */
function fields(p: Obj): Obj {
  const out: Obj = {};
  if (text(p.summary)) out.summary = text(p.summary);
  if (text(p.description)) out.description = adf(text(p.description));
  if (text(p.priority)) out.priority = { name: text(p.priority) };
  if (text(p.assignee)) out.assignee = { id: text(p.assignee) };
  return out;
}

const now = () => new Date().toISOString();

/** Most issues a bulk read returns: a project's most recently updated ones. */
const BULK_READ_LIMIT = 100;

/** Jira tools: retrieve an issue, bulk read a project, update an issue (with a status transition), write an issue. */
export const jiraTools: ServiceTool[] = [
  serviceTool('jira_retrieve', async (p, io) => {
    const key = text(p.issueKey);
    const res = await jira(io, p, `/issue/${seg(key)}`, 'Failed to retrieve Jira issue');
    return { ts: now(), issueKey: obj(res.data).key ?? key, ...summaryOf(res.data) };
  }),
  serviceTool('jira_bulk_read', async (p, io) => {
    const jql = `project = ${jqlProject(text(p.projectId))} ORDER BY updated DESC`;
    const issues: unknown[] = [];
    let nextPageToken: string | undefined;
    // The enhanced JQL search (`/search` is gone): pages joined by nextPageToken, a page possibly
    // short of maxResults, so pages are read until BULK_READ_LIMIT issues or the last page.
    do {
      const res = await jira(io, p, '/search/jql', 'Failed to retrieve Jira issues', {
        method: 'POST',
        json: { jql, maxResults: BULK_READ_LIMIT - issues.length, fields: ['summary', 'description', 'created', 'updated'], ...(nextPageToken ? { nextPageToken } : {}) },
      });
      const data = obj(res.data);
      const page = list(data.issues);
      issues.push(...page.slice(0, BULK_READ_LIMIT - issues.length));
      nextPageToken = data.isLast === true || page.length === 0 ? undefined : str(data.nextPageToken);
    } while (nextPageToken && issues.length < BULK_READ_LIMIT);
    return issues.map((i) => ({ ts: now(), issueKey: obj(i).key, ...summaryOf(i) }));
  }),
  serviceTool('jira_update', async (p, io) => {
    const key = seg(text(p.issueKey));
    const update = fields(p);
    if (Object.keys(update).length) await jira(io, p, `/issue/${key}`, 'Failed to update Jira issue', { method: 'PUT', json: { fields: update } });
    const status = text(p.status).toLowerCase();
    if (status) {
      const transitions = list(obj((await jira(io, p, `/issue/${key}/transitions`, 'Failed to update Jira issue')).data).transitions).map(obj);
      const t = transitions.find((x) => String(x.name).toLowerCase() === status || String(obj(x.to).name).toLowerCase() === status);
      if (!t) throw new ToolError(`Failed to update Jira issue: no transition to status "${text(p.status)}"`);
      await jira(io, p, `/issue/${key}/transitions`, 'Failed to update Jira issue', { method: 'POST', json: { transition: { id: t.id } } });
    }
    return { ts: now(), issueKey: text(p.issueKey), summary: update.summary, success: true };
  }),
  serviceTool('jira_write', async (p, io) => {
    const body = { fields: { project: projectRef(text(p.projectId)), issuetype: { name: text(p.issueType) || 'Task' }, ...fields(p) } };
    const created = obj((await jira(io, p, '/issue', 'Failed to create Jira issue', { method: 'POST', json: body })).data);
    const domain = text(p.domain).replace(/^https?:\/\//, '').replace(/\/+$/, '');
    return { ts: now(), issueKey: created.key, summary: text(p.summary), success: true, url: `https://${domain}/browse/${String(created.key)}` };
  }),
];
