import type { FakeServer, RecordedRequest } from '../server.js';
import type { FakeRoute } from './kit.js';

interface StoredPage {
  id: string;
  title: string;
  status: string;
  version: { number: number; message: string };
  body: { storage: { representation: 'storage'; value: string } };
}

/** A stored page at a version, with its storage-format body. */
const storedPage = (id: string, title: string, status: string, version: number, value: string): StoredPage => ({
  id,
  title,
  status,
  version: { number: version, message: '' },
  body: { storage: { representation: 'storage', value } },
});

/** Recorded Confluence Cloud pages (REST API v2 with `body-format=storage`). */
export const CONFLUENCE_FIXTURES = {
  page: (): StoredPage => storedPage('42', 'Runbook', 'current', 3, '<p>Restart the <b>worker</b> first.</p>'),
  /** An archived page (not in the `pages` list of current ones; a read answers it). */
  archivedPage: (): StoredPage => storedPage('41', 'Runbook (2023)', 'archived', 7, '<p>Restart everything.</p>'),
  /** The `pages` list (v2, one page of results; `_links.next` absent on the last). */
  pageList: {
    results: [
      { id: '42', title: 'Runbook', status: 'current', spaceId: '98304' },
      { id: '43', title: 'Onboarding guide', status: 'current', spaceId: '98304' },
      { id: '44', title: 'Runbook: database failover', status: 'current', spaceId: '98305' },
    ],
    _links: { base: 'https://acme.atlassian.example/wiki' },
  },
};

/**
 * Confluence's v2 pages under /ex/confluence/{cloudId}/wiki/api/v2, for the Atlassian fake (the sites
 * come from its accessible resources): a page read answers the stored page; an update must carry the
 * next version number (else 409, as Confluence answers) and is kept, so a later read sees it. Page 42
 * (and the archived 41) exists in every site; other ids answer 404. The pages list answers `pageList`.
 */
export function confluenceRoutes(): FakeRoute[] {
  const pages = new Map<string, StoredPage>();
  const key = (req: RecordedRequest) => {
    const parts = req.path.split('/');
    return { site: parts[3] ?? '', id: parts.pop() ?? '' };
  };
  const find = (req: RecordedRequest): StoredPage | undefined => {
    const { site, id } = key(req);
    const stored = [CONFLUENCE_FIXTURES.page(), CONFLUENCE_FIXTURES.archivedPage()].find((p) => p.id === id);
    if (!pages.has(`${site}/${id}`) && stored) pages.set(`${site}/${id}`, stored);
    return pages.get(`${site}/${id}`);
  };
  const notFound = { status: 404, json: { errors: [{ status: 404, code: 'NOT_FOUND', title: 'Not Found', detail: null }] } };
  const path = '/ex/confluence/:cloud/wiki/api/v2/pages/:id';
  return [
    ['GET', '/ex/confluence/:cloud/wiki/api/v2/pages', { json: CONFLUENCE_FIXTURES.pageList }],
    ['GET', path, (req) => find(req) ? { json: find(req) } : notFound],
    [
      'PUT',
      path,
      (req) => {
        const page = find(req);
        if (!page) return notFound;
        const b = (req.body ?? {}) as { title?: string; status?: string; body?: { value?: string }; version?: { number?: number; message?: string } };
        if (b.version?.number !== page.version.number + 1) {
          return { status: 409, json: { errors: [{ status: 409, code: 'CONFLICT', title: `Version must be incremented when updating a page. Current Version: [${page.version.number}]. Provided version: [${b.version?.number ?? 'none'}]`, detail: null }] } };
        }
        page.title = b.title ?? page.title;
        page.status = b.status ?? page.status;
        page.body.storage.value = b.body?.value ?? page.body.storage.value;
        page.version = { number: b.version.number, message: b.version.message ?? '' };
        return { json: page };
      },
    ],
  ];
}

/** Adds the Confluence routes to an Atlassian fake (createFakeJira: one base URL serves both products). */
export function withConfluence(server: FakeServer): FakeServer {
  for (const [method, path, answer] of confluenceRoutes()) server.on(method, path, answer);
  return server;
}
