import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdSuccessUntil } from './holdResponse.js';

/** What the held request had sent when its hold began. */
interface Seen {
  headersSent: boolean;
  bytesWritten: number;
}

let server: Server;
let url: string;
const seen: Seen[] = [];
let fail = false;

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    holdSuccessUntil(res, () => {
      seen.push({ headersSent: res.headersSent, bytesWritten: res.socket?.bytesWritten ?? -1 });
      return fail ? Promise.reject(new Error('peers unreachable')) : Promise.resolve();
    });
    next();
  });
  // The way better-auth answers: the head, the body in pieces, then an empty end.
  app.post('/raw', (_req, res: Response) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-kind': 'raw' });
    res.write('{"ok":');
    res.write('true}');
    res.end();
  });
  app.post('/json', (_req, res) => {
    res.status(201).json({ created: true });
  });
  app.post('/refused', (_req, res) => {
    res.status(400).json({ error: 'name is required' });
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('holdSuccessUntil', () => {
  it('sends nothing of a 2xx answer written head, body and end separately until the hold is over', async () => {
    seen.length = 0;
    const res = await fetch(`${url}/raw`, { method: 'POST' });
    expect(seen).toEqual([{ headersSent: false, bytesWritten: 0 }]);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-kind')).toBe('raw');
    expect(await res.json()).toEqual({ ok: true });
  });

  it('holds a JSON answer the same way', async () => {
    seen.length = 0;
    const res = await fetch(`${url}/json`, { method: 'POST' });
    expect(seen).toEqual([{ headersSent: false, bytesWritten: 0 }]);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ created: true });
  });

  it('answers any other status at once, without holding', async () => {
    seen.length = 0;
    const res = await fetch(`${url}/refused`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'name is required' });
    expect(seen).toEqual([]);
  });

  it('still answers when what it waited for failed', async () => {
    seen.length = 0;
    fail = true;
    try {
      const res = await fetch(`${url}/raw`, { method: 'POST' });
      expect(await res.json()).toEqual({ ok: true });
      expect(seen).toHaveLength(1);
    } finally {
      fail = false;
    }
  });
});
