import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

const record = (id: string, fields: Record<string, unknown>) => ({ id, createdTime: '2025-05-01T10:00:00.000Z', fields });

/** Recorded Airtable API answers (v0). */
export const AIRTABLE_FIXTURES = {
  record,
  list: { records: [record('rec1', { Name: 'Ada' }), record('rec2', { Name: 'Bob' })], offset: 'itr/rec2' },
};

/**
 * A fake Airtable API under /v0/{baseId}/{table}; writes echo the records they were given (a new one
 * named recNew{n}, n counting in its request), and refuse more than 10 a request as Airtable does.
 */
export function createFakeAirtable(): Promise<FakeServer> {
  const echo = (body: unknown) => {
    const records = (body as { records?: Array<{ id?: string; fields?: Record<string, unknown> }> }).records ?? [];
    if (records.length > 10) return { status: 422, json: { error: { type: 'INVALID_RECORDS', message: 'You can only create or update up to 10 records per request' } } };
    return { json: { records: records.map((r, i) => record(r.id ?? `recNew${i + 1}`, r.fields ?? {})) } };
  };
  return createServiceFake([
    ['GET', '/v0/:base/:table', { json: AIRTABLE_FIXTURES.list }],
    ['GET', '/v0/:base/:table/:id', (req) => ({ json: record(req.path.split('/').pop() ?? '', { Name: 'Ada' }) })],
    ['POST', '/v0/:base/:table', (req) => echo(req.body)],
    ['PATCH', '/v0/:base/:table', (req) => echo(req.body)],
    ['PATCH', '/v0/:base/:table/:id', (req) => ({ json: record(req.path.split('/').pop() ?? '', (req.body as { fields?: Record<string, unknown> }).fields ?? {}) })],
  ]);
}
