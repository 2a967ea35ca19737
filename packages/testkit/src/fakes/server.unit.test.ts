import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from './server.js';

describe('fake server', () => {
  let fake: FakeServer;
  afterEach(async () => fake?.close());

  it('records requests and answers scripted routes, once-routes first', async () => {
    fake = await createFakeServer();
    fake.on('POST', '/v1/items/:id', { json: { ok: true } }).once('POST', '/v1/items/:id', { status: 429, json: { error: 'slow down' } });
    const send = () => fetch(`${fake.url}/v1/items/7?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect((await send()).status).toBe(429);
    const second = await send();
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ ok: true });
    expect(fake.received('POST', '/v1/items/:id')).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/v1/items/7', query: { x: '1' }, body: { a: 1 } });
  });

  it('records the bytes of a body as they came and answers binary bodies byte for byte', async () => {
    fake = await createFakeServer();
    const bytes = Uint8Array.from([0x89, 0x50, 0x00, 0xff, 0xc3, 0x28]);
    fake.on('POST', '/echo', (req) => ({ bytes: req.bytes }));
    const res = await fetch(`${fake.url}/echo`, { method: 'POST', body: bytes });
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect([...(fake.received('POST', '/echo')[0]?.bytes ?? [])]).toEqual([...bytes]);
  });

  it('streams server-sent events and answers 404 for unscripted paths', async () => {
    fake = await createFakeServer();
    fake.on('GET', '/stream', { sse: [{ n: 1 }, 'data: [DONE]'] });
    expect(await (await fetch(`${fake.url}/stream`)).text()).toBe('data: {"n":1}\n\ndata: [DONE]\n\n');
    const missing = await fetch(`${fake.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no fake route for GET /nope' });
  });

  it('holds a stream at its gate until the test lets it go: the events before it arrive, the rest after', async () => {
    fake = await createFakeServer();
    let letGo = () => {};
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const written: number[] = [];
    fake.on('GET', '/stream', { sse: [{ n: 1 }, { n: 2 }, { n: 3 }], sseGate: (index) => (index === 2 ? held : undefined), onSseEvent: (index) => written.push(index) });
    const reader = (await fetch(`${fake.url}/stream`)).body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"n":2')) {
      const part = await reader.read();
      if (part.done) throw new Error(`the stream ended before its second event: ${text}`);
      text += decoder.decode(part.value, { stream: true });
    }
    expect(text).toBe('data: {"n":1}\n\ndata: {"n":2}\n\n');
    expect(written).toEqual([0, 1]);
    letGo();
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += decoder.decode(part.value, { stream: true });
    expect(text).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
    expect(written).toEqual([0, 1, 2]);
  });

  it('a hanging route never answers, and marks the request abandoned when the client gives up', async () => {
    fake = await createFakeServer();
    fake.on('GET', '/hang', { hang: true }).on('GET', '/ok', { json: 1 });
    await fetch(`${fake.url}/ok`);
    const gaveUp = new AbortController();
    const pending = fetch(`${fake.url}/hang`, { signal: gaveUp.signal }).catch((err: unknown) => err);
    await expect.poll(() => fake.received('GET', '/hang').length).toBe(1);
    expect(fake.received('GET', '/hang')[0]?.abandoned).toBe(false);
    gaveUp.abort();
    await pending;
    await expect.poll(() => fake.received('GET', '/hang')[0]?.abandoned).toBe(true);
    expect(fake.received('GET', '/ok')[0]?.abandoned).toBe(false);
  });
});

