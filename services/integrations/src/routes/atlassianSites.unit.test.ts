import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@weft/platform';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { createBaseUrls } from '../tools/runtime/baseUrls.js';
import { createToolIO } from '../tools/runtime/executeTool.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { createRouter } from './router.js';
import { confluenceRoutes } from './confluence.routes.js';
import { providerClient } from './selectors/provider.js';
import { confluencePages, jiraProjects } from './selectors/listers/atlassian.js';

/**
 * The Confluence route and the Atlassian selectors take the site whose host is exactly the domain
 * (as the Jira tools do), never one whose URL merely contains it: `evil-acme…` or `acme….evil…`.
 */

const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const context: CallContext = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };
const NEAR_MISSES = [
  { id: 'cloud-evil-prefix', url: 'https://evil-acme.atlassian.example' },
  { id: 'cloud-evil-suffix', url: 'https://acme.atlassian.example.evil.example' },
];
const ACME = { id: 'cloud-acme', url: 'https://ACME.atlassian.example/' };

let fake: FakeServer;
let baseUrls: ReturnType<typeof createBaseUrls>;
let routes: ReturnType<typeof createRouter>;

beforeAll(async () => {
  fake = await createFakeServer();
  baseUrls = createBaseUrls({ atlassian: fake.url }, {});
  routes = createRouter(confluenceRoutes(ALLOW_FAKES, baseUrls), createLogger('integrations', 'silent'));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.on('GET', '/ex/confluence/:cloud/wiki/api/v2/pages/42', (r) => ({ json: { id: '42', title: `Runbook of ${r.path.split('/')[3]}`, body: { storage: { value: '<p>x</p>' } } } }));
  fake.on('GET', '/ex/confluence/:cloud/wiki/api/v2/pages', { json: { results: [{ id: '42', title: 'Runbook' }], _links: {} } });
  fake.on('GET', '/ex/jira/:cloud/rest/api/3/project/search', { json: { values: [{ id: '1', key: 'A', name: 'Alpha' }], isLast: true } });
});

const readPage = (domain: string) => routes.handle({ method: 'POST', path: '/tools/confluence/page', query: {}, body: { domain, accessToken: 'atl', pageId: '42' }, context, envVars: {} });
const client = () => providerClient('Confluence', createToolIO({ policy: ALLOW_FAKES, baseUrls }, { context }, 'selector'), 'atl');
const jiraClient = () => providerClient('Jira', createToolIO({ policy: ALLOW_FAKES, baseUrls }, { context }, 'selector'), 'atl');
const sites = (list: unknown[]) => fake.on('GET', '/oauth/token/accessible-resources', { json: list });
const asked = (prefix: string) => fake.requests.filter((r) => r.path.startsWith(prefix)).map((r) => r.path);

describe('Confluence page route', () => {
  it('refuses a domain only near-miss sites contain, asking none of them', async () => {
    sites(NEAR_MISSES);
    for (const domain of ['acme.atlassian.example', 'https://acme.atlassian.example/', 'acme.atlassian']) {
      expect(await readPage(domain)).toMatchObject({ status: 404, body: { success: false, error: `No Confluence site found for ${domain.replace(/^https:\/\//, '').replace(/\/$/, '')}` } });
    }
    expect(asked('/ex/confluence/')).toEqual([]);
  });

  it('reads the page of the site whose host is exactly the domain, whatever comes before or after it', async () => {
    sites([...NEAR_MISSES, ACME]);
    expect(await readPage('https://Acme.atlassian.example/wiki/spaces')).toMatchObject({ status: 200, body: { success: true, output: { title: 'Runbook of cloud-acme' } } });
    expect(asked('/ex/confluence/')).toEqual(['/ex/confluence/cloud-acme/wiki/api/v2/pages/42']);
  });
});

describe('Atlassian selectors', () => {
  const page = { search: undefined, position: { skip: 0 } };

  it('Confluence pages and Jira projects refuse a domain only near-miss sites contain (Jira no longer takes the first site)', async () => {
    sites(NEAR_MISSES);
    await expect(confluencePages.list({ ...page, client: client(), inputs: { domain: 'acme.atlassian.example' } })).rejects.toThrow('domain "acme.atlassian.example" is not a Confluence site this account can reach');
    await expect(jiraProjects.list({ ...page, client: jiraClient(), inputs: { domain: 'https://acme.atlassian.example/' } })).rejects.toThrow('domain "https://acme.atlassian.example/" is not a Jira site this account can reach');
    expect(await jiraProjects.get?.({ client: jiraClient(), inputs: { domain: 'acme.atlassian.example' } }, '1').catch((e: Error) => e.message)).toBe('domain "acme.atlassian.example" is not a Jira site this account can reach');
    expect([...asked('/ex/confluence/'), ...asked('/ex/jira/')]).toEqual([]);
  });

  it('list the site whose host is exactly the domain', async () => {
    sites([...NEAR_MISSES, ACME]);
    expect(await confluencePages.list({ ...page, client: client(), inputs: { domain: 'https://acme.atlassian.example/' } })).toMatchObject({ items: [{ id: '42', name: 'Runbook' }] });
    expect(await jiraProjects.list({ ...page, client: jiraClient(), inputs: { domain: 'acme.atlassian.example' } })).toMatchObject({ items: [{ id: '1', name: 'Alpha' }] });
    expect([...asked('/ex/confluence/'), ...asked('/ex/jira/')]).toEqual(['/ex/confluence/cloud-acme/wiki/api/v2/pages', '/ex/jira/cloud-acme/rest/api/3/project/search']);
  });
});
