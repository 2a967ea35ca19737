import { AppError } from '@weft/platform';
import { list, obj, seg, str, type Obj } from '../../../tools/services/http.js';
import { jqlProject, jqlString } from '../../../tools/services/jira/jql.js';
import { siteOfDomain } from '../../../tools/services/atlassianSite.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem, wholeNumber } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

/**
 * The cloud id of the account's Atlassian site for a domain, from its accessible resources, as the
 * Jira tools and the Confluence route find it: the site whose host is exactly the domain's, never
 * another one (neither a site whose URL merely contains the domain nor the account's first site).
 */
async function siteId(client: ProviderClient, domain: string): Promise<string> {
  const sites = list(await client.request({ url: `${client.io.baseUrl('atlassian')}/oauth/token/accessible-resources` })).map(obj);
  const site = siteOfDomain(sites, domain);
  if (!site || typeof site.id !== 'string') throw new AppError('validation', `domain "${domain}" is not a ${client.name} site this account can reach`);
  return site.id;
}

/** The Jira REST API 3 of a site. */
const jiraApi = (client: ProviderClient, cloud: string) => `${client.io.baseUrl('atlassian')}/ex/jira/${seg(cloud)}/rest/api/3`;

/** A project as the selector shows it: its name, its key as the second line. */
const projectItem = (p: Obj): SelectorItem => choice(p.id, String(p.name ?? p.key ?? ''), str(p.key));

/** Jira projects: `project/search` (its `query` searches names and keys), by `startAt`. */
export const jiraProjects: SelectorLister = {
  provider: 'Jira',
  what: 'Jira projects',
  needs: { domain: ['domain'] },
  async list({ client, search, position, inputs }) {
    const cloud = await siteId(client, inputs.domain ?? '');
    return collectPages(async (page) => {
      const startAt = wholeNumber(page, 0);
      const data = obj(await client.request({ url: `${jiraApi(client, cloud)}/project/search`, query: { startAt, maxResults: PAGE_LIMIT, query: search } }));
      const values = list(data.values).map(obj);
      return { items: values.map(projectItem), next: data.isLast === false && values.length > 0 ? String(startAt + values.length) : undefined };
    }, position);
  },
  /** One project by id or key (`project/{projectIdOrKey}`; 404: none the account can browse). */
  async get({ client, inputs }, id) {
    const cloud = await siteId(client, inputs.domain ?? '');
    const found = await client.find({ url: `${jiraApi(client, cloud)}/project/${seg(id)}` });
    return found === null ? null : projectItem(obj(found));
  },
};

/** Search text as a JQL text-search term: Lucene's operator characters dropped, a trailing wildcard for prefixes. */
function textTerm(search: string): string | undefined {
  const words = search.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, ' ').trim().replace(/\s+/g, ' ');
  return words ? `${words}*` : undefined;
}

/** An issue as the selector shows it: its summary, its key and status as the second line; the id is the key. */
function issueItem(i: Obj): SelectorItem {
  const key = String(i.key ?? i.id ?? '');
  const fields = obj(i.fields);
  const status = str(obj(fields.status).name);
  return { id: key, name: str(fields.summary) || key, detail: status ? `${key} · ${status}` : key };
}

/** Whether a project (an issue's `fields.project`) is the one the input names: its id, key or name (as JQL takes them). */
function isProject(project: Obj, input: string): boolean {
  const wanted = input.trim().toLowerCase();
  return [project.id, project.key, project.name].some((v) => (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase() === wanted);
}

/**
 * Jira issues of a project: the enhanced JQL search `search/jql` (`project = …`, a search as
 * `summary ~ "…*"`, newest change first; the old `search` is gone), by its `nextPageToken` (no
 * `startAt`, no `total`: `isLast` or no token ends the list). The id is the issue key, what the
 * issue fields hold.
 */
export const jiraIssues: SelectorLister = {
  provider: 'Jira',
  what: 'Jira issues',
  needs: { domain: ['domain'], projectId: ['projectId', 'manualProjectId'] },
  async list({ client, search, position, inputs }) {
    const cloud = await siteId(client, inputs.domain ?? '');
    const project = inputs.projectId ?? '';
    const term = search ? textTerm(search) : undefined;
    const jql = [`project = ${jqlProject(project)}`, ...(term ? [`summary ~ ${jqlString(term)}`] : [])].join(' AND ');
    return collectPages(async (nextPageToken) => {
      const data = obj(await client.request({
        method: 'POST',
        url: `${jiraApi(client, cloud)}/search/jql`,
        json: { jql: `${jql} ORDER BY updated DESC`, maxResults: PAGE_LIMIT, fields: ['summary', 'status'], ...(nextPageToken ? { nextPageToken } : {}) },
      }));
      const issues = list(data.issues).map(obj);
      return { items: issues.map(issueItem), next: data.isLast === true || issues.length === 0 ? undefined : str(data.nextPageToken) };
    }, position);
  },
  /** One issue by key (`issue/{issueIdOrKey}`; 404: none the account can see); another project's is none, as the list holds the project's only. */
  async get({ client, inputs }, id) {
    const cloud = await siteId(client, inputs.domain ?? '');
    const found = await client.find({ url: `${jiraApi(client, cloud)}/issue/${seg(id)}`, query: { fields: 'summary,status,project' } });
    if (found === null) return null;
    const issue = obj(found);
    return isProject(obj(obj(issue.fields).project), inputs.projectId ?? '') ? issueItem(issue) : null;
  },
};

/** The `cursor` parameter of Confluence's `_links.next` (a relative link). */
function confluenceNext(data: Record<string, unknown>): string | undefined {
  const link = str(obj(data._links).next);
  if (!link) return undefined;
  try {
    return new URL(link, 'http://confluence.invalid').searchParams.get('cursor') ?? undefined;
  } catch {
    return undefined;
  }
}

/** The v2 pages of a Confluence site. */
const confluencePagesUrl = (client: ProviderClient, cloud: string) => `${client.io.baseUrl('atlassian')}/ex/confluence/${seg(cloud)}/wiki/api/v2/pages`;

/** A page as the selector shows it: its title. */
const pageItem = (p: Obj): SelectorItem => ({ id: String(p.id ?? ''), name: String(p.title ?? p.id ?? '') });

/**
 * Confluence pages: v2 `pages` (current ones, last modified first) by its cursor. Its `title` filter
 * matches whole titles only, so a search filters by title here.
 */
export const confluencePages: SelectorLister = {
  provider: 'Confluence',
  what: 'Confluence pages',
  needs: { domain: ['domain'] },
  async list({ client, search, position, inputs }) {
    const cloud = await siteId(client, inputs.domain ?? '');
    return collectPages(
      async (cursor) => {
        const data = obj(await client.request({ url: confluencePagesUrl(client, cloud), query: { limit: PAGE_LIMIT, cursor, status: 'current', sort: '-modified-date' } }));
        return { items: list(data.results).map(obj).map(pageItem), next: confluenceNext(data) };
      },
      position,
      { filter: search },
    );
  },
  /**
   * One page by id (v2 `pages/{id}`; 404: none): a page not current (archived, trashed) is none, as
   * the list holds current ones only. Page ids are numbers: any other id is none, nothing asked.
   */
  async get({ client, inputs }, id) {
    if (!/^\d{1,20}$/.test(id)) return null;
    const cloud = await siteId(client, inputs.domain ?? '');
    const found = await client.find({ url: `${confluencePagesUrl(client, cloud)}/${seg(id)}` });
    if (found === null) return null;
    const page = obj(found);
    return page.status === 'current' ? pageItem(page) : null;
  },
};
