import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runner } from '@weft/contracts';
import { answerRun } from './executions.js';

/** An app answering each request with a run whose Response block said `?status=` (as JSON). */
let server: Server;
let base = '';
beforeAll(async () => {
  const app = express();
  app.get('/run', (req, res) => {
    const status: unknown = JSON.parse(String(req.query.status));
    answerRun(res, runner.Execution.fromPartial({ executionId: 'x', status: 'succeeded', responseJson: JSON.stringify({ status, headers: {}, data: { ok: true } }) }));
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("answerRun: a Response block's status", () => {
  it('answers a final status (200..599) as given', async () => {
    for (const status of [200, 201, 404, 599]) expect((await fetch(`${base}/run?status=${status}`)).status).toBe(status);
  });

  it('answers 200 with the data for an interim status (1xx) or one outside HTTP, never leaving the caller waiting', async () => {
    for (const status of [100, 150, 199, 600, 2.5, '"201"']) {
      const res = await fetch(`${base}/run?status=${encodeURIComponent(String(status))}`, { signal: AbortSignal.timeout(10_000) });
      expect(res.status, String(status)).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
    }
  });
});
