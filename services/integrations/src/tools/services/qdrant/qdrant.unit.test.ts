import { VECTOR_FIXTURES, createFakeVectors } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { qdrantTools } from './qdrant.tools.js';

const qd = useFamily(createFakeVectors, [], qdrantTools);
const base = () => ({ url: `${qd.fake.url}/`, apiKey: 'qd-key', collection: 'docs' });

describe('qdrant', () => {
  it('qdrant_upsert_points PUTs the points', async () => {
    const points = [{ id: 1, vector: [0.1, 0.2], payload: { city: 'Oslo' } }];
    const r = await qd.run('qdrant_upsert_points', { ...base(), points });
    qd.expectRequest('qdrant_upsert_points', 'PUT', '/collections/docs/points', { headers: { 'api-key': 'qd-key', 'content-type': 'application/json' }, query: { wait: 'true' }, body: { points } });
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantUpsert.result } });
    qd.fake.once('PUT', '/collections/:c/points', { status: 404, json: { status: { error: 'Not found: Collection `docs` doesn\'t exist!' } } });
    await qd.expectError('qdrant_upsert_points', { ...base(), points }, "Qdrant request failed: Not found: Collection `docs` doesn't exist!");
  });

  it('qdrant_search_vector queries with limit and flags', async () => {
    const r = await qd.run('qdrant_search_vector', { ...base(), vector: '[0.1,0.2]', limit: 3, with_payload: 'true', filter: { must: [] } });
    qd.expectRequest('qdrant_search_vector', 'POST', '/collections/docs/points/query', {
      headers: { 'api-key': 'qd-key' },
      body: { query: [0.1, 0.2], limit: 3, with_payload: true, with_vector: false, filter: { must: [] } },
    });
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantQuery.result.points } });
    qd.fake.once('POST', '/collections/:c/points/query', { status: 400, json: { status: { error: 'Wrong input: Vector dimension error' } } });
    await qd.expectError('qdrant_search_vector', { ...base(), vector: [1] }, 'Qdrant request failed: Wrong input: Vector dimension error');
  });

  it('qdrant_fetch_points posts the ids', async () => {
    const r = await qd.run('qdrant_fetch_points', { ...base(), apiKey: '', ids: [1], with_vector: true });
    const req = qd.expectRequest('qdrant_fetch_points', 'POST', '/collections/docs/points', { body: { ids: [1], with_payload: false, with_vector: true } });
    expect(req.headers['api-key']).toBeUndefined();
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantFetch.result } });
    qd.fake.once('POST', '/collections/:c/points', { status: 401, text: 'Unauthorized' });
    await qd.expectError('qdrant_fetch_points', { ...base(), ids: [1] }, 'Qdrant request failed: Unauthorized');
  });
});
