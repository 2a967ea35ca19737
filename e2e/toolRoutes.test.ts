import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFakeServer, fakeSpeech, SEARCH_FIXTURES, uniqueSuffix, type FakeServer, type RecordedRequest } from '@weft/testkit';
import { api, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { answerOnce, receivedBy } from './support/serviceFakes.js';

// Internal tool routes (spec 001 §7) through the gateway, against the stack's service fakes
// (e2e/support/serviceFakes.ts: ElevenLabs, the Atlassian API with Confluence, Firecrawl in the search
// fake) and the model fake's Anthropic API (e2e/support/anthropicFake.ts). Pages and images come from
// this file's own fake on 127.0.0.1, which the stack allows (globalSetup: WEFT_OUTBOUND_ALLOWLIST);
// every other loopback, private or metadata address stays refused, redirects included.

let site: FakeServer;

const refusal = (host: string) => `Outbound request refused: ${host} is a loopback, private, link-local or reserved address`;
const ANONYMOUS = { cookie: '' };

/** A raw gateway call as the file's default account (the image proxy answers bytes, not JSON). */
async function raw(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${inject('weftUrl')}${path}`, { headers: { cookie: await defaultCookie(), ...headers } });
}

/** Requests a service fake received since `before` (its earlier requests left out). */
async function receivedSince(fakeUrl: string, before: number): Promise<RecordedRequest[]> {
  return (await receivedBy(fakeUrl)).slice(before);
}

beforeAll(async () => {
  site = await createFakeServer();
  site.on('GET', '/cat.png', { headers: { 'content-type': 'image/png' }, text: 'PNG-BYTES-OF-A-CAT' });
  site.on('GET', '/old-cat.png', { status: 301, headers: { location: '/cat.png' } });
  site.on('GET', '/logo.svg', { headers: { 'content-type': 'image/svg+xml' }, text: '<svg><script>fetch("/api/workflows")</script><circle r="4"/></svg>' });
  site.on('GET', '/handbook.md', { headers: { 'content-type': 'text/markdown' }, text: '# Handbook\n\nEveryone gets 25 days of holiday a year, booked in the team calendar.' });
  site.on('GET', '/handbook-moved.md', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/handbook.md' } });
  site.on('GET', '/page.html', { headers: { 'content-type': 'text/html' }, text: '<html><body>not an image</body></html>' });
  site.on('GET', '/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
  site.on('GET', '/to-private', { status: 307, headers: { location: 'http://10.0.0.7/internal.png' } });
  site.on('GET', '/shop', { headers: { 'content-type': 'text/html' }, text: '<html><head><title>Shop</title></head><body><h1>Widget</h1><p>Price: 12 EUR</p><a href="/shop/reviews">Reviews</a></body></html>' });
  site.on('GET', '/shop/reviews', { headers: { 'content-type': 'text/html' }, text: '<html><head><title>Reviews</title></head><body><p>4.5 stars from 80 reviews</p></body></html>' });
});
afterAll(async () => {
  await site?.close();
});

describe('GET /api/proxy/image', () => {
  it('answers the image’s bytes and type, following a redirect between allowed addresses', async () => {
    for (const path of ['/cat.png', '/old-cat.png']) {
      const res = await raw(`/api/proxy/image?url=${encodeURIComponent(`${site.url}${path}`)}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('PNG-BYTES-OF-A-CAT');
    }
  });

  it('answers an SVG with a policy that keeps its scripts from running in the app’s origin if it is opened', async () => {
    const res = await raw(`/api/proxy/image?url=${encodeURIComponent(`${site.url}/logo.svg`)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<circle r="4"/>');
  });

  it('refuses private and metadata addresses, directly and after a redirect; nothing behind them is fetched', async () => {
    const before = site.requests.length;
    const cases: Array<[string, string]> = [
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['http://10.0.0.7/internal.png', '10.0.0.7'],
      [`${site.url}/to-metadata`, '169.254.169.254'],
      [`${site.url}/to-private`, '10.0.0.7'],
    ];
    for (const [url, host] of cases) {
      expect(await api('GET', `/api/proxy/image?url=${encodeURIComponent(url)}`), url).toEqual({ status: 400, body: { success: false, error: refusal(host) } });
    }
    expect(site.requests.slice(before).map((r) => r.path)).toEqual(['/to-metadata', '/to-private']);
  });

  it('answers clear errors: no URL, not an image, a missing image; anonymous callers refused', async () => {
    expect(await api('GET', '/api/proxy/image')).toEqual({ status: 400, body: { success: false, error: 'url must be an http(s) URL' } });
    for (const url of ['file:///etc/passwd', 'http://', 'https://exa mple.com/cat.png']) {
      expect(await api('GET', `/api/proxy/image?url=${encodeURIComponent(url)}`), url).toEqual({ status: 400, body: { success: false, error: 'url must be an http(s) URL' } });
    }
    expect(await api('GET', `/api/proxy/image?url=${encodeURIComponent(`${site.url}/page.html`)}`)).toEqual({ status: 415, body: { success: false, error: 'Not an image: text/html' } });
    expect(await api('GET', `/api/proxy/image?url=${encodeURIComponent(`${site.url}/missing.png`)}`)).toEqual({ status: 502, body: { success: false, error: 'Failed to fetch image: 404 Not Found' } });
    expect((await raw(`/api/proxy/image?url=${encodeURIComponent(`${site.url}/cat.png`)}`, ANONYMOUS)).status).toBe(401);
  });
});

describe('POST /api/proxy/tts', () => {
  const elevenlabs = () => inject('serviceFakeUrls').elevenlabs;

  it('asks ElevenLabs for the voice with the key, the default model eleven_monolingual_v1, and answers the audio as {audioUrl}', async () => {
    const voiceId = `voice-${uniqueSuffix()}`;
    const before = (await receivedBy(elevenlabs())).length;
    const res = await api<{ success: boolean; output: { audioUrl: string }; audioUrl: string }>('POST', '/api/proxy/tts', { apiKey: 'el-key-e2e', text: 'Hello from Weft', voiceId });
    const audio = `data:audio/mpeg;base64,${Buffer.from(fakeSpeech(voiceId, 'eleven_monolingual_v1', 'Hello from Weft')).toString('base64')}`;
    expect(res).toEqual({ status: 200, body: { success: true, output: { audioUrl: audio }, audioUrl: audio } });
    const [sent, ...more] = await receivedSince(elevenlabs(), before);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ method: 'POST', path: `/v1/text-to-speech/${voiceId}`, body: { text: 'Hello from Weft', model_id: 'eleven_monolingual_v1' } });
    expect(sent?.headers).toMatchObject({ 'xi-api-key': 'el-key-e2e', accept: 'audio/mpeg' });
  });

  it('uses the model the call names', async () => {
    const voiceId = `voice-${uniqueSuffix()}`;
    const res = await api<{ audioUrl: string }>('POST', '/api/proxy/tts', { apiKey: 'el-key-e2e', text: 'Bonjour', voiceId, modelId: 'eleven_multilingual_v2' });
    expect(Buffer.from(res.body.audioUrl.split(',')[1] ?? '', 'base64').toString()).toBe(fakeSpeech(voiceId, 'eleven_multilingual_v2', 'Bonjour'));
  });

  it('names a missing field, passes on the service’s refusal, and refuses anonymous callers', async () => {
    const before = (await receivedBy(elevenlabs())).length;
    expect(await api('POST', '/api/proxy/tts', { text: 'x', voiceId: 'v' })).toEqual({ status: 400, body: { success: false, error: 'apiKey is required' } });
    expect(await api('POST', '/api/proxy/tts', { apiKey: 'k', voiceId: 'v' })).toEqual({ status: 400, body: { success: false, error: 'text is required' } });
    expect(await api('POST', '/api/proxy/tts', { apiKey: 'k', text: 'x' })).toEqual({ status: 400, body: { success: false, error: 'voiceId is required' } });
    expect(await api('POST', '/api/proxy/tts', 'not json at all')).toMatchObject({ status: 400 });
    expect(await receivedSince(elevenlabs(), before)).toEqual([]);
    const voiceId = `voice-${uniqueSuffix()}`;
    await answerOnce(elevenlabs(), 'POST', `/v1/text-to-speech/${voiceId}`, { status: 401, json: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } });
    expect(await api('POST', '/api/proxy/tts', { apiKey: 'revoked', text: 'x', voiceId })).toEqual({
      status: 502,
      body: { success: false, error: 'Failed to generate speech: 401 Unauthorized - {"detail":{"status":"invalid_api_key","message":"Invalid API key"}}' },
    });
    expect((await api('POST', '/api/proxy/tts', { apiKey: 'k', text: 'x', voiceId }, ANONYMOUS)).status).toBe(401);
  });
});

describe('POST and PUT /api/tools/confluence/page', () => {
  const atlassian = () => inject('serviceFakeUrls').jira;
  const PAGE_ID_REQUIRED = 'Page ID is required. Please select a page or enter a page ID manually.';

  it('POST reads a page, finding the site (cloud id) of the domain among the token’s accessible resources', async () => {
    const before = (await receivedBy(atlassian())).length;
    const res = await api<{ success: boolean; output: { ts: string; pageId: string; title: string; content: string } }>('POST', '/api/tools/confluence/page', { domain: 'https://acme.atlassian.example/', accessToken: 'atl-token-e2e', pageId: '42' });
    expect(res).toMatchObject({ status: 200, body: { success: true, output: { pageId: '42', title: 'Runbook', content: 'Restart the worker first.' } } });
    expect(Number.isNaN(Date.parse(res.body.output.ts))).toBe(false);
    const sent = await receivedSince(atlassian(), before);
    expect(sent.map((r) => [r.method, r.path, r.query, r.headers.authorization])).toEqual([
      ['GET', '/oauth/token/accessible-resources', {}, 'Bearer atl-token-e2e'],
      ['GET', '/ex/confluence/cloud-1/wiki/api/v2/pages/42', { 'body-format': 'storage' }, 'Bearer atl-token-e2e'],
    ]);
  });

  it('PUT updates title and storage body with the next version and its message; a later read sees the change', async () => {
    const cloudId = `site-${uniqueSuffix()}`;
    const before = (await receivedBy(atlassian())).length;
    const res = await api('PUT', '/api/tools/confluence/page', {
      domain: 'acme.atlassian.example',
      cloudId,
      accessToken: 'atl-token-e2e',
      pageId: '42',
      title: 'Runbook v2',
      body: { representation: 'storage', value: '<p>Drain the <i>queue</i> first.</p>' },
      version: { message: 'Reordered the steps' },
    });
    expect(res).toMatchObject({ status: 200, body: { success: true, output: { pageId: '42', title: 'Runbook v2', success: true } } });
    const sent = await receivedSince(atlassian(), before);
    // The given cloud id is used as it is: no accessible-resources lookup.
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /ex/confluence/${cloudId}/wiki/api/v2/pages/42`, `PUT /ex/confluence/${cloudId}/wiki/api/v2/pages/42`]);
    expect(sent[1]?.body).toEqual({ id: '42', status: 'current', title: 'Runbook v2', body: { representation: 'storage', value: '<p>Drain the <i>queue</i> first.</p>' }, version: { number: 4, message: 'Reordered the steps' } });
    const read = await api('POST', '/api/tools/confluence/page', { cloudId, accessToken: 'atl-token-e2e', pageId: '42' });
    expect(read).toMatchObject({ status: 200, body: { output: { title: 'Runbook v2', content: 'Drain the queue first.' } } });
  });

  it('answers the spec messages and names missing fields; anonymous callers refused', async () => {
    expect(await api('POST', '/api/tools/confluence/page', { cloudId: 'cloud-1', accessToken: 't', pageId: '  ' })).toEqual({ status: 400, body: { success: false, error: PAGE_ID_REQUIRED } });
    expect(await api('PUT', '/api/tools/confluence/page', { cloudId: 'cloud-1', accessToken: 't', title: 'x' })).toEqual({ status: 400, body: { success: false, error: PAGE_ID_REQUIRED } });
    expect(await api('POST', '/api/tools/confluence/page', { cloudId: 'cloud-1', pageId: '42' })).toEqual({ status: 400, body: { success: false, error: 'accessToken is required' } });
    expect(await api('POST', '/api/tools/confluence/page', { accessToken: 't', pageId: '42' })).toEqual({ status: 400, body: { success: false, error: 'domain is required' } });
    expect(await api('POST', '/api/tools/confluence/page', { domain: 'nowhere.example', accessToken: 't', pageId: '42' })).toEqual({ status: 404, body: { success: false, error: 'No Confluence site found for nowhere.example' } });
    const cloudId = `site-${uniqueSuffix()}`;
    await answerOnce(atlassian(), 'GET', `/ex/confluence/${cloudId}/wiki/api/v2/pages/42`, { json: { unexpected: true } });
    expect(await api('POST', '/api/tools/confluence/page', { cloudId, accessToken: 't', pageId: '42' })).toEqual({ status: 502, body: { success: false, error: 'Invalid response format from Confluence API - missing required fields' } });
    const missing = await api<{ error: string }>('POST', '/api/tools/confluence/page', { cloudId, accessToken: 't', pageId: '404404' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/^Failed to retrieve Confluence page: /);
    expect((await api('POST', '/api/tools/confluence/page', { cloudId, accessToken: 't', pageId: '42' }, ANONYMOUS)).status).toBe(401);
  });
});

describe('POST /api/tools/stagehand/agent', () => {
  /** Scripts the Anthropic turns of requests whose task carries the marker. */
  async function script(marker: string, turns: unknown[]): Promise<void> {
    const res = await fetch(`${inject('modelFakeUrl')}/_fake/anthropic/script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ marker, turns }) });
    expect(res.ok).toBe(true);
  }

  it('navigates with the model, substituting %variables%, and answers {agentResult, structuredOutput}', async () => {
    const marker = `[agent-${uniqueSuffix()}]`;
    await script(marker, [
      { content: 'Open the reviews.', toolCalls: [{ name: 'goto', arguments: { url: `${site.url}/shop/reviews` }, id: 'toolu_1' }] },
      { toolCalls: [{ name: 'done', arguments: { success: true, message: 'Rated 4.5', output: { rating: 4.5 } }, id: 'toolu_2' }] },
    ]);
    const before = site.requests.length;
    const res = await api('POST', '/api/tools/stagehand/agent', {
      task: `Find the rating of %product% ${marker}`,
      startUrl: `${site.url}/shop`,
      variables: [{ id: 'r1', cells: { Key: 'product', Value: 'Widget' } }],
      outputSchema: { type: 'object', properties: { rating: { type: 'number' } } },
      apiKey: 'sk-ant-e2e',
    });
    expect(res).toEqual({
      status: 200,
      body: {
        agentResult: {
          success: true,
          completed: true,
          message: 'Rated 4.5',
          actions: [
            { type: 'goto', url: `${site.url}/shop`, title: 'Shop' },
            { type: 'goto', url: `${site.url}/shop/reviews`, title: 'Reviews', reasoning: 'Open the reviews.' },
          ],
        },
        structuredOutput: { rating: 4.5 },
      },
    });
    expect(site.requests.slice(before).map((r) => r.path)).toEqual(['/shop', '/shop/reviews']);
  });

  it('prefixes https:// to a start URL without a scheme', async () => {
    // This file's fake speaks plain HTTP, so the https:// request fails, naming the prefixed URL.
    const host = site.url.replace(/^http:\/\//, '');
    const before = site.requests.length;
    const res = await api<{ error: string; agentResult: unknown; structuredOutput: unknown }>('POST', '/api/tools/stagehand/agent', { task: 'Find the price', startUrl: `${host}/shop`, apiKey: 'sk-ant-e2e' });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(new RegExp(`^Failed to load https://${host.replace(/\./g, '\\.')}/shop: `));
    expect(res.body).toEqual({ error: res.body.error, agentResult: { success: false, completed: false, message: res.body.error, actions: [] }, structuredOutput: null });
    expect(site.requests.length).toBe(before);
  });

  it('fails with success false, completed false and no actions: a missing field, a refused start page (a redirect to the metadata address)', async () => {
    const failed = (error: string) => ({ error, agentResult: { success: false, completed: false, message: error, actions: [] }, structuredOutput: null });
    expect(await api('POST', '/api/tools/stagehand/agent', { startUrl: `${site.url}/shop` })).toEqual({ status: 400, body: failed('task is required') });
    expect(await api('POST', '/api/tools/stagehand/agent', { task: 'x' })).toEqual({ status: 400, body: failed('startUrl is required') });
    expect(await api('POST', '/api/tools/stagehand/agent', { task: 'x', startUrl: 'ftp://files.example/page' })).toEqual({ status: 400, body: failed('startUrl must be an http(s) URL') });
    expect(await api('POST', '/api/tools/stagehand/agent', { task: 'x', startUrl: `${site.url}/to-metadata`, apiKey: 'sk-ant-e2e' })).toEqual({ status: 400, body: failed(refusal('169.254.169.254')) });
    expect((await api('POST', '/api/tools/stagehand/agent', { task: 'x', startUrl: `${site.url}/shop` }, ANONYMOUS)).status).toBe(401);
  });
});

describe('GET /api/tools/firecrawl/crawl/{jobId}', () => {
  const firecrawl = () => inject('serviceFakeUrls').search;

  it('answers the crawl’s status with the key of the query or of the caller’s FIRECRAWL_API_KEY', async () => {
    const before = (await receivedBy(firecrawl())).length;
    const done = SEARCH_FIXTURES.firecrawlCrawlDone;
    const res = await api('GET', '/api/tools/firecrawl/crawl/crawl-1?apiKey=fc-query-key');
    expect(res).toEqual({ status: 200, body: { success: true, output: { status: 'completed', total: 2, completed: 2, creditsUsed: 2, expiresAt: null, data: done.data } } });
    const jobId = `job-${uniqueSuffix()}`;
    await answerOnce(firecrawl(), 'GET', `/firecrawl/crawl/${jobId}`, { json: { status: 'scraping', total: 5, completed: 2, creditsUsed: 2, expiresAt: '2026-11-28T12:00:00.000Z', data: [] } });
    const owner = await createAccount('Firecrawl Key Owner');
    expect((await api('POST', '/api/environment', { variables: { FIRECRAWL_API_KEY: 'fc-env-key' } }, { cookie: owner.cookie })).status).toBe(200);
    const running = await api('GET', `/api/tools/firecrawl/crawl/${jobId}`, undefined, { cookie: owner.cookie });
    expect(running).toEqual({ status: 200, body: { success: true, output: { status: 'scraping', total: 5, completed: 2, creditsUsed: 2, expiresAt: '2026-11-28T12:00:00.000Z', data: [] } } });
    const sent = await receivedSince(firecrawl(), before);
    expect(sent.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/firecrawl/crawl/crawl-1', 'Bearer fc-query-key'],
      [`/firecrawl/crawl/${jobId}`, 'Bearer fc-env-key'],
    ]);
  });

  it('answers the spec messages: 401, 429, 402 with their status, and Crawl job failed', async () => {
    const cases: Array<[number, string]> = [
      [401, 'Invalid API key. Please check your Firecrawl API key.'],
      [429, 'Rate limit exceeded. Please try again later.'],
      [402, 'Insufficient credits. Please check your Firecrawl plan and usage.'],
    ];
    for (const [status, error] of cases) {
      const jobId = `job-${status}-${uniqueSuffix()}`;
      await answerOnce(firecrawl(), 'GET', `/firecrawl/crawl/${jobId}`, { status, json: { success: false, error: 'refused' } });
      expect(await api('GET', `/api/tools/firecrawl/crawl/${jobId}?apiKey=fc-key`), String(status)).toEqual({ status, body: { success: false, error } });
    }
    const jobId = `job-failed-${uniqueSuffix()}`;
    await answerOnce(firecrawl(), 'GET', `/firecrawl/crawl/${jobId}`, { json: { status: 'failed', total: 3, completed: 1, creditsUsed: 1, data: [] } });
    expect(await api('GET', `/api/tools/firecrawl/crawl/${jobId}?apiKey=fc-key`)).toEqual({
      status: 200,
      body: { success: false, error: 'Crawl job failed', output: { status: 'failed', total: 3, completed: 1, creditsUsed: 1, expiresAt: null, data: [] } },
    });
  });

  it('names the missing key and refuses anonymous callers, without asking Firecrawl', async () => {
    const before = (await receivedBy(firecrawl())).length;
    const stranger = await createAccount('Firecrawl No Key');
    expect(await api('GET', '/api/tools/firecrawl/crawl/crawl-1', undefined, { cookie: stranger.cookie })).toEqual({
      status: 400,
      body: { success: false, error: 'apiKey is required (the apiKey query parameter or the FIRECRAWL_API_KEY environment variable)' },
    });
    expect((await api('GET', '/api/tools/firecrawl/crawl/crawl-1?apiKey=k', undefined, ANONYMOUS)).status).toBe(401);
    expect(await receivedSince(firecrawl(), before)).toEqual([]);
  });
});

describe('knowledge documents and chunks through the gateway', () => {
  type Doc = { id: string; name: string; chunkCount: number; tokenCount: number };
  type Chunk = { id: string; chunkIndex: number; content: string; enabled: boolean };
  let baseId = '';

  beforeAll(async () => {
    expect((await api('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-tool-routes-e2e' } })).status).toBe(200);
    const workspaces = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
    const created = await api<{ knowledgeBase: { id: string } }>('POST', '/api/knowledge', { workspaceId: workspaces.body.workspaces[0]?.id, name: 'Tool routes handbook' });
    expect(created.status).toBe(201);
    baseId = created.body.knowledgeBase.id;
  });

  it('adds a document from an http(s) fileUrl, uploads chunks at the next indexes, lists, reads and deletes them', async () => {
    const added = await api<{ documentsCreated: Doc[] }>('POST', `/api/knowledge/${baseId}/documents`, { documents: [{ filename: 'handbook.md', fileUrl: `${site.url}/handbook.md`, mimeType: 'text/markdown', tag1: 'hr' }] });
    expect(added).toMatchObject({ status: 201, body: { documentsCreated: [{ name: 'handbook.md', chunkCount: 1 }] } });
    const doc = added.body.documentsCreated[0]!;
    const chunks = `/api/knowledge/${baseId}/documents/${doc.id}/chunks`;
    const first = await api<{ chunk: Chunk }>('POST', chunks, { content: '  Parental leave is 16 weeks.  ' });
    expect(first).toMatchObject({ status: 201, body: { chunk: { chunkIndex: 1, content: 'Parental leave is 16 weeks.', enabled: true } } });
    expect(await api('POST', chunks, { content: 'Sick days need no note for 3 days.', enabled: false })).toMatchObject({ status: 201, body: { chunk: { chunkIndex: 2, enabled: false } } });
    const listed = await api<{ chunks: Chunk[] }>('GET', chunks);
    expect(listed.body.chunks.map((c) => [c.chunkIndex, c.enabled])).toEqual([[0, true], [1, true], [2, false]]);
    expect(listed.body.chunks[0]?.content).toContain('25 days of holiday');
    expect(await api('GET', `/api/knowledge/${baseId}/documents/${doc.id}`)).toMatchObject({ status: 200, body: { document: { id: doc.id, name: 'handbook.md', chunkCount: 3 } } });
    // The chunk tool's failures read 'Failed to upload chunk: …' (spec 001 §8).
    expect(await api('POST', chunks, { content: '   ' })).toEqual({ status: 400, body: { success: false, error: 'Failed to upload chunk: content is required' } });
    expect(await api('POST', chunks, { content: 'x', enabled: 'yes' })).toEqual({ status: 400, body: { success: false, error: 'Failed to upload chunk: enabled must be true or false' } });
    expect(await api('POST', `/api/knowledge/${baseId}/documents/no-such-doc/chunks`, { content: 'x' })).toEqual({ status: 404, body: { success: false, error: 'Failed to upload chunk: Document not found: no-such-doc' } });
    expect(await api('DELETE', `/api/knowledge/${baseId}/documents/${doc.id}`)).toEqual({ status: 200, body: { success: true } });
    expect((await api('GET', `/api/knowledge/${baseId}/documents/${doc.id}`)).status).toBe(404);
  });

  it('refuses a fileUrl that redirects to the metadata address, or does not parse; nothing is stored', async () => {
    const before = (await api<{ documents: Doc[] }>('GET', `/api/knowledge/${baseId}/documents`)).body.documents.length;
    expect(await api('POST', `/api/knowledge/${baseId}/documents`, { documents: [{ filename: 'moved.md', fileUrl: `${site.url}/handbook-moved.md` }] })).toEqual({
      status: 400,
      body: { success: false, error: refusal('169.254.169.254') },
    });
    expect(await api('POST', `/api/knowledge/${baseId}/documents`, { documents: [{ filename: 'bad.md', fileUrl: 'http://' }] })).toEqual({
      status: 400,
      body: { success: false, error: 'documents[0].fileUrl must be an http(s) URL or a data: link' },
    });
    expect((await api<{ documents: Doc[] }>('GET', `/api/knowledge/${baseId}/documents`)).body.documents).toHaveLength(before);
  });
});

describe('POST /api/tools/thinking', () => {
  it('acknowledges the thought; a missing one is named', async () => {
    expect(await api('POST', '/api/tools/thinking', { thought: 'First check the calendar, then book.' })).toEqual({ status: 200, body: { success: true, output: { acknowledgedThought: 'First check the calendar, then book.' } } });
    expect(await api('POST', '/api/tools/thinking', {})).toEqual({ status: 400, body: { success: false, error: 'thought is required' } });
    expect((await api('POST', '/api/tools/thinking', { thought: 'x' }, ANONYMOUS)).status).toBe(401);
  });
});
