import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded PostgREST answers. */
export const SUPABASE_FIXTURES = {
  rows: [
    { id: 1, name: 'Ada', age: 36 },
    { id: 2, name: 'Bob', age: 41 },
  ],
};

/** A fake Supabase REST API: /{project}/rest/v1/{table}; writes echo their rows. */
export function createFakeSupabase(): Promise<FakeServer> {
  const echo = (body: unknown) => (Array.isArray(body) ? body.map((r: object, i) => ({ id: 100 + i, ...r })) : [{ id: 1, ...(body as object) }]);
  return createServiceFake([
    ['GET', '/:project/rest/v1/:table', (req) => ({ json: req.query.limit === '1' ? SUPABASE_FIXTURES.rows.slice(0, 1) : SUPABASE_FIXTURES.rows })],
    ['POST', '/:project/rest/v1/:table', (req) => ({ status: 201, json: echo(req.body) })],
    ['PATCH', '/:project/rest/v1/:table', (req) => ({ json: echo(req.body) })],
    ['DELETE', '/:project/rest/v1/:table', { json: SUPABASE_FIXTURES.rows.slice(0, 1) }],
  ]);
}
