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
    const req = qd.only('PUT', '/collections/docs/points');
    expect(req.headers['api-key']).toBe('qd-key');
    expect(req.query).toEqual({ wait: 'true' });
    expect(req.body).toEqual({ points });
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantUpsert.result } });
    qd.fake.once('PUT', '/collections/:c/points', { status: 404, json: { status: { error: 'Not found: Collection `docs` doesn\'t exist!' } } });
    expect(await qd.run('qdrant_upsert_points', { ...base(), points })).toMatchObject({ success: false, error: "Qdrant request failed: Not found: Collection `docs` doesn't exist!" });
  });

  it('qdrant_search_vector queries with limit and flags', async () => {
    const r = await qd.run('qdrant_search_vector', { ...base(), vector: '[0.1,0.2]', limit: 3, with_payload: 'true', filter: { must: [] } });
    expect(qd.only('POST', '/collections/docs/points/query').body).toEqual({ query: [0.1, 0.2], limit: 3, with_payload: true, with_vector: false, filter: { must: [] } });
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantQuery.result.points } });
    qd.fake.once('POST', '/collections/:c/points/query', { status: 400, json: { status: { error: 'Wrong input: Vector dimension error' } } });
    expect(await qd.run('qdrant_search_vector', { ...base(), vector: [1] })).toMatchObject({ success: false, error: 'Qdrant request failed: Wrong input: Vector dimension error' });
  });

  it('qdrant_fetch_points posts the ids', async () => {
    const r = await qd.run('qdrant_fetch_points', { ...base(), apiKey: '', ids: [1], with_vector: true });
    const req = qd.only('POST', '/collections/docs/points');
    expect(req.headers['api-key']).toBeUndefined();
    expect(req.body).toEqual({ ids: [1], with_payload: false, with_vector: true });
    expect(r).toEqual({ success: true, output: { status: 'ok', data: VECTOR_FIXTURES.qdrantFetch.result } });
    qd.fake.once('POST', '/collections/:c/points', { status: 401, text: 'Unauthorized' });
    expect(await qd.run('qdrant_fetch_points', { ...base(), ids: [1] })).toMatchObject({ success: false, error: 'Qdrant request failed: Unauthorized' });
  });
});
