import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { defaultCookie } from './support/http.js';

// A synchronous tool call through the gateway runs in the integrations service over gRPC. When the
// HTTP caller goes away, the call is cancelled and the service stops the work: the request the tool
// was making is closed long before the tool's own timeout. (The stack allows 127.0.0.1 as an
// outbound address, so the tool reaches this server.)

let server: FakeServer;
let base: string;

/** The latest request the tool made for `/<name>`, once one has arrived; `abandoned` once its caller closed it. */
const held = (name: string) => server.requests.filter((r) => r.path === `/${name}`).at(-1);

beforeAll(async () => {
  server = await createFakeServer();
  // Never answers: each request is held until its caller closes it.
  server.on('*', '/:name', { hang: true });
  base = server.url;
});

afterAll(async () => {
  await server?.close();
});

/** Starts a call through the gateway, waits until the tool's request reached the held server, then goes away. */
async function leaveMidCall(name: string, path: string, init: RequestInit): Promise<void> {
  const caller = new AbortController();
  const answered = fetch(`${inject('weftUrl')}${path}`, { ...init, headers: { 'content-type': 'application/json', cookie: await defaultCookie(), ...init.headers }, signal: caller.signal }).catch((e: unknown) => e);
  await expect.poll(() => held(name) !== undefined, { timeout: 15_000 }).toBe(true);
  expect(held(name)?.abandoned).toBe(false);
  caller.abort();
  expect(await answered).toBeInstanceOf(Error);
}

describe('a synchronous tool call whose caller goes away', () => {
  it('GET /api/proxy: the HTTP request the tool was making is closed well inside its 10 s timeout', async () => {
    const url = `${base}/proxy-get`;
    await leaveMidCall('proxy-get', `/api/proxy?url=${encodeURIComponent(url)}`, { method: 'GET' });
    // Within 5 s of leaving: the tool's own timeout would close it 10 s after it started.
    await expect.poll(() => held('proxy-get')?.abandoned, { timeout: 5_000 }).toBe(true);
  });

  it('POST /api/proxy (http_request with a 60 s timeout) and POST /api/files/parse stop too', async () => {
    await leaveMidCall('proxy-post', '/api/proxy', { method: 'POST', body: JSON.stringify({ toolId: 'http_request', params: { url: `${base}/proxy-post`, method: 'GET', timeout: 60_000 } }) });
    await leaveMidCall('parse.csv', '/api/files/parse', { method: 'POST', body: JSON.stringify({ filePath: `${base}/parse.csv` }) });
    await expect.poll(() => [held('proxy-post')?.abandoned, held('parse.csv')?.abandoned], { timeout: 10_000 }).toEqual([true, true]);
  });
});
