import { AppError } from '@weft/platform';
import { list, obj, seg, str } from '../../../tools/services/http.js';
import { jqlProject, jqlString } from '../../../tools/services/jira/jql.js';
import { choice, collectPages, PAGE_LIMIT, type SelectorItem, wholeNumber } from '../paging.js';
import type { SelectorLister } from '../lister.js';
import type { ProviderClient } from '../provider.js';

/** A domain as users type it (`https://acme.atlassian.net/`) compared as the sites' URLs are. */
function bareDomain(domain: string): string {
  return domain.trim().replace(/^https?:\/\//i, '').replace(/\/+$/, '').toLowerCase();
}

/**
 * The cloud id of the account's Atlassian site for a domain, from its accessible resources, as the
 * Jira tools and the Confluence route find it: the site whose URL names the domain; Jira (like its
 * tools) falls back to the account's first site, Confluence (like its route) needs the match.
 */
async function siteId(client: ProviderClient, domain: string, fallBackToFirst: boolean): Promise<string> {
  const sites = list(await client.request({ url: `${client.io.baseUrl('atlassian')}/oauth/token/accessible-resources` })).map(obj);
  const wanted = bareDomain(domain);
  const site = sites.find((s) => String(s.url ?? '').toLowerCase().includes(wanted)) ?? (fallBackToFirst ? sites[0] : undefined);
  if (!site || typeof site.id !== 'string') throw new AppError('validation', `domain "${domain}" is not a ${client.name} site this account can reach`);
  return site.id;
}

/** Jira projects: `project/search` (its `query` searches names and keys), by `startAt`. */
export const jiraProjects: SelectorLister = {
  provider: 'Jira',
  what: 'Jira projects',
  needs: { domain: ['domain'] },
  async list({ client, search, position, inputs }) {
    const cloud = await siteId(client, inputs.domain ?? '', true);
    return collectPages(async (page) => {
      const startAt = wholeNumber(page, 0);
      const data = obj(await client.request({ url: `${client.io.baseUrl('atlassian')}/ex/jira/${seg(cloud)}/rest/api/3/project/search`, query: { startAt, maxResults: PAGE_LIMIT, query: search } }));
      const values = list(data.values).map(obj);
      const items = values.map((p): SelectorItem => choice(p.id, String(p.name ?? p.key ?? ''), str(p.key)));
      return { items, next: data.isLast === false && values.length > 0 ? String(startAt + values.length) : undefined };
    }, position);
  },
};

/** Search text as a JQL text-search term: Lucene's operator characters dropped, a trailing wildcard for prefixes. */
function textTerm(search: string): string | undefined {
  const words = search.replace(/[+\-&|!(){}[\]^"~*?:\\/]/g, ' ').trim().replace(/\s+/g, ' ');
  return words ? `${words}*` : undefined;
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
    const cloud = await siteId(client, inputs.domain ?? '', true);
    const project = inputs.projectId ?? '';
    const term = search ? textTerm(search) : undefined;
    const jql = [`project = ${jqlProject(project)}`, ...(term ? [`summary ~ ${jqlString(term)}`] : [])].join(' AND ');
    return collectPages(async (nextPageToken) => {
      const data = obj(await client.request({
        method: 'POST',
        url: `${client.io.baseUrl('atlassian')}/ex/jira/${seg(cloud)}/rest/api/3/search/jql`,
        json: { jql: `${jql} ORDER BY updated DESC`, maxResults: PAGE_LIMIT, fields: ['summary', 'status'], ...(nextPageToken ? { nextPageToken } : {}) },
      }));
      const issues = list(data.issues).map(obj);
      const items = issues.map((i): SelectorItem => {
        const key = String(i.key ?? i.id ?? '');
        const status = str(obj(obj(i.fields).status).name);
        return { id: key, name: str(obj(i.fields).summary) || key, detail: status ? `${key} · ${status}` : key };
      });
      return { items, next: data.isLast === true || issues.length === 0 ? undefined : str(data.nextPageToken) };
    }, position);
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

/**
 * Confluence pages: v2 `pages` (current ones, last modified first) by its cursor. Its `title` filter
 * matches whole titles only, so a search filters by title here.
 */
export const confluencePages: SelectorLister = {
  provider: 'Confluence',
  what: 'Confluence pages',
  needs: { domain: ['domain'] },
  async list({ client, search, position, inputs }) {
    const cloud = await siteId(client, inputs.domain ?? '', false);
    return collectPages(
      async (cursor) => {
        const data = obj(await client.request({ url: `${client.io.baseUrl('atlassian')}/ex/confluence/${seg(cloud)}/wiki/api/v2/pages`, query: { limit: PAGE_LIMIT, cursor, status: 'current', sort: '-modified-date' } }));
        const items = list(data.results).map(obj).map((p): SelectorItem => ({ id: String(p.id ?? ''), name: String(p.title ?? p.id ?? '') }));
        return { items, next: confluenceNext(data) };
      },
      position,
      { filter: search },
    );
  },
};
