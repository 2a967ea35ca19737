import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { OutboundRefusedError } from './guardedFetch.js';
import { guardedSdkFetch } from './sdkFetch.js';

let fake: FakeServer;
beforeAll(async () => {
  fake = await createFakeServer();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const allowLoopback = guardedSdkFetch({ allowPrivateNetwork: false, allowlist: ['127.0.0.1'] });

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((r) => setImmediate(r));
  }
}

describe('guardedSdkFetch (SDK clients to addresses users typed)', () => {
  it('sends method, headers and body as the SDK gives them (Headers object, string body)', async () => {
    fake.once('POST', '/v1/x', { json: { ok: true } });
    const res = await allowLoopback(`${fake.url}/v1/x`, { method: 'POST', headers: new Headers({ 'api-key': 'k', 'content-type': 'application/json' }), body: '{"a":1}' });
    expect(await res.json()).toEqual({ ok: true });
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/v1/x', body: { a: 1 } });
    expect(req?.headers['api-key']).toBe('k');
  });

  it('answers at the headers and streams the body as it is written', async () => {
    let written = -1;
    const events = ['one', 'two', 'three', 'four'].map((w) => ({ w }));
    fake.once('GET', '/sse', { sse: events, sseIntervalMs: 150, onSseEvent: (i) => (written = i) });
    const res = await allowLoopback(`${fake.url}/sse`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"one"');
    expect(written).toBeLessThan(events.length - 1);
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain('"four"');
  });

  it('aborting mid-stream closes the connection', async () => {
    fake.once('GET', '/sse', { sse: Array.from({ length: 50 }, (_, i) => ({ i })), sseIntervalMs: 100 });
    const controller = new AbortController();
    const res = await allowLoopback(`${fake.url}/sse`, { signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await until(() => fake.requests[0]?.abandoned === true);
  });

  it('refuses loopback and metadata addresses under the default policy, and follows no redirect', async () => {
    const strict = guardedSdkFetch({ allowPrivateNetwork: false, allowlist: [] });
    await expect(strict(`${fake.url}/v1/x`)).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(strict('http://169.254.169.254/latest/meta-data')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(fake.requests).toEqual([]);
    fake.once('GET', '/moved', { status: 302, headers: { location: '/elsewhere' } });
    const res = await allowLoopback(`${fake.url}/moved`);
    expect(res.status).toBe(302);
    expect(fake.requests.map((r) => r.path)).toEqual(['/moved']);
  });
});
