import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { guardedFetch } from './guardedFetch.js';

const policy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
let server: FakeServer;
let other: FakeServer;
beforeAll(async () => {
  [server, other] = await Promise.all([createFakeServer(), createFakeServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

describe('guardedFetch', () => {
  it("sends each hop's Host from its own URL, never the caller's Host header (kept across a redirect to another origin)", async () => {
    server.on('GET', '/start', { status: 302, headers: { location: `${other.url}/end` } });
    other.on('GET', '/end', { json: 'arrived' });
    const res = await guardedFetch(`${server.url}/start`, { headers: { Host: 'internal.example', 'X-Kept': 'yes' } }, policy);
    expect(await res.json()).toBe('arrived');
    expect(server.received('GET', '/start')[0]?.headers.host).toBe(new URL(server.url).host);
    expect(other.received('GET', '/end')[0]?.headers).toMatchObject({ host: new URL(other.url).host, 'x-kept': 'yes' });
  });
});
