import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { z } from 'zod';
import { createLogger } from '@weft/platform';
import { errorHandler } from './errors.js';
import { parseBody } from './validate.js';

describe('errorHandler: requests refused before any route ran are 4xx saying why, never 500', () => {
  let base = '';
  let close = () => {};
  beforeAll(async () => {
    const app = express();
    app.use(express.json({ limit: '1kb' }));
    app.post('/things/:id', (req, res) => {
      const body = parseBody(z.object({ name: z.string() }), req.body);
      res.json({ id: req.params.id, name: body.name });
    });
    app.use(errorHandler(createLogger('test', 'silent')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = () => void server.close();
  });
  afterAll(() => close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.json() };
  };

  it('answers each refusal with its status and a message naming the body or the path', async () => {
    expect(await post('/things/1', '{"name": "a"}')).toEqual({ status: 200, body: { id: '1', name: 'a' } });
    expect(await post('/things/1', '{"name": ')).toEqual({ status: 400, body: { error: 'Request body must be valid JSON' } });
    for (const json of ['null', '"text"', '42', 'true']) expect(await post('/things/1', json)).toEqual({ status: 400, body: { error: 'Request body must be a JSON object' } });
    expect(await post('/things/1', '[1, 2]')).toEqual({ status: 400, body: { error: 'Request body must be a JSON object' } });
    expect(await post('/things/1', JSON.stringify({ name: 'x'.repeat(2_000) }))).toEqual({ status: 413, body: { error: 'Request body is too large' } });
    expect(await post('/things/%E0%A4%A', '{"name": "a"}')).toEqual({ status: 400, body: { error: expect.stringContaining('The path is not valid') } });
  });
});
