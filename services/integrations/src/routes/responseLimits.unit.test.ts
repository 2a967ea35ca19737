import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@weft/platform';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { createBaseUrls } from '../tools/runtime/baseUrls.js';
import { modelConfigFromEnv } from '../models/config.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { createRouter } from './router.js';
import { proxyRoutes } from './proxy.routes.js';
import { stagehandRoutes } from './stagehand.routes.js';
import { firecrawlRoutes } from './firecrawl.routes.js';

/**
 * An answer larger than a route reads is a clear error with its limit, never a 500: the image proxy
 * (20 MB), a Stagehand page (5 MB), the speech proxy's audio and the crawl status (25 MB each).
 */

const ALLOW_FAKES: AddressPolicy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
const context: CallContext = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };
const logger = createLogger('integrations', 'silent');
const MB = 1024 * 1024;

let site: FakeServer;
let routes: ReturnType<typeof createRouter>;

const call = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) => routes.handle({ method, path, query, body, context, envVars: {} });

beforeAll(async () => {
  site = await createFakeServer();
  const baseUrls = createBaseUrls({ elevenlabs: `${site.url}/elevenlabs`, firecrawl: `${site.url}/firecrawl` }, {});
  routes = createRouter(
    [...proxyRoutes(ALLOW_FAKES, baseUrls), ...stagehandRoutes({ policy: ALLOW_FAKES, browser: null, models: { config: modelConfigFromEnv({}), logger } }), ...firecrawlRoutes(ALLOW_FAKES, baseUrls)],
    logger,
  );
  site.on('GET', '/huge.png', { headers: { 'content-type': 'image/png' }, text: 'x'.repeat(20 * MB + 1) });
  site.on('GET', '/limit.png', { headers: { 'content-type': 'image/png' }, text: 'x'.repeat(20 * MB) });
  site.on('GET', '/huge.html', { headers: { 'content-type': 'text/html' }, text: `<html><body>${'x'.repeat(5 * MB)}</body></html>` });
  site.on('POST', '/elevenlabs/v1/text-to-speech/:voice', { headers: { 'content-type': 'audio/mpeg' }, text: 'x'.repeat(25 * MB + 1) });
  site.on('GET', '/firecrawl/crawl/:id', { json: { status: 'completed', data: ['x'.repeat(25 * MB)] } });
});
afterAll(async () => {
  await site?.close();
});

describe('answers larger than a route reads', () => {
  it('the image proxy answers an image of exactly 20 MB and refuses a larger one with 413', async () => {
    const ok = await call('GET', '/proxy/image', undefined, { url: `${site.url}/limit.png` });
    expect(ok.status).toBe(200);
    expect(ok.bytes?.byteLength).toBe(20 * MB);
    expect(await call('GET', '/proxy/image', undefined, { url: `${site.url}/huge.png` })).toEqual({ status: 413, body: { success: false, error: 'Image exceeds the maximum size of 20 MB' } });
  });

  it('a Stagehand page over 5 MB fails to load, naming the limit (extract and agent)', async () => {
    const error = `Failed to load ${site.url}/huge.html: the page is larger than 5 MB`;
    expect(await call('POST', '/tools/stagehand/extract', { url: `${site.url}/huge.html`, instruction: 'x', schema: { type: 'object' }, apiKey: 'k' })).toEqual({ status: 413, body: { success: false, error } });
    expect(await call('POST', '/tools/stagehand/agent', { task: 'x', startUrl: `${site.url}/huge.html`, apiKey: 'k' })).toEqual({
      status: 413,
      body: { error, agentResult: { success: false, completed: false, message: error, actions: [] }, structuredOutput: null },
    });
  });

  it('the speech proxy’s audio and the crawl status over 25 MB are 502s naming the limit', async () => {
    expect(await call('POST', '/proxy/tts', { apiKey: 'k', text: 'long', voiceId: 'v' })).toEqual({ status: 502, body: { success: false, error: 'Failed to generate speech: the audio is larger than 25 MB' } });
    expect(await call('GET', '/tools/firecrawl/crawl/job-1', undefined, { apiKey: 'k' })).toEqual({ status: 502, body: { success: false, error: 'Firecrawl API error: the answer is larger than 25 MB' } });
  });
});
