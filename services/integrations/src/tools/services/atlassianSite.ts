/** A site URL's or domain's host, lowercased: `https://Acme.atlassian.net/wiki` → `acme.atlassian.net`. */
export const hostOf = (value: string): string => value.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/[/?#].*$/, '');

/**
 * The accessible resource (Atlassian's `oauth/token/accessible-resources` entry) whose URL's host
 * is exactly the domain's — a bare site name such as `acme` means `acme.atlassian.net` — never one
 * whose URL merely contains it (`evil-acme.atlassian.net`, `acme.atlassian.net.evil.example`):
 * another site's cloud id would read and write another site's pages and issues. Shared by the Jira
 * tools, the Confluence route and the Atlassian selectors.
 */
export function siteOfDomain<T extends Record<string, unknown>>(resources: readonly T[], domain: string): T | undefined {
  const given = hostOf(domain);
  if (!given) return undefined;
  const host = given.includes('.') ? given : `${given}.atlassian.net`;
  return resources.find((r) => hostOf(String(r.url ?? '')) === host);
}
