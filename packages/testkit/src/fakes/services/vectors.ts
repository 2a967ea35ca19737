import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of Pinecone (API version 2025-01) and Qdrant. */
export const VECTOR_FIXTURES = {
  embed: { model: 'multilingual-e5-large', vector_type: 'dense', data: [{ values: [0.1, 0.2] }], usage: { total_tokens: 4 } },
  textSearch: { result: { hits: [{ _id: 'rec1', _score: 0.91, fields: { text: 'Weft builds workflows' } }] }, usage: { read_units: 1 } },
  query: { matches: [{ id: 'vec1', score: 0.88, values: [0.1, 0.2], metadata: { genre: 'docs' } }], namespace: 'ns1', usage: { readUnits: 5 } },
  fetch: { vectors: { vec1: { id: 'vec1', values: [0.1, 0.2], metadata: { genre: 'docs' } } }, namespace: 'ns1' },
  qdrantUpsert: { result: { operation_id: 7, status: 'completed' }, status: 'ok', time: 0.002 },
  qdrantQuery: { result: { points: [{ id: 1, version: 3, score: 0.77, payload: { city: 'Oslo' } }] }, status: 'ok', time: 0.001 },
  qdrantFetch: { result: [{ id: 1, payload: { city: 'Oslo' }, vector: [0.1, 0.2] }], status: 'ok', time: 0.001 },
};

/** A fake of Pinecone's control plane (/embed), an index host (/records, /query, /vectors) and Qdrant (/collections). */
export function createFakeVectors(): Promise<FakeServer> {
  const f = VECTOR_FIXTURES;
  return createServiceFake([
    ['POST', '/embed', { json: f.embed }],
    ['POST', '/records/namespaces/:ns/upsert', { status: 201, text: '' }],
    ['POST', '/records/namespaces/:ns/search', { json: f.textSearch }],
    ['POST', '/query', { json: f.query }],
    ['GET', '/vectors/fetch', { json: f.fetch }],
    ['PUT', '/collections/:c/points', { json: f.qdrantUpsert }],
    ['POST', '/collections/:c/points/query', { json: f.qdrantQuery }],
    ['POST', '/collections/:c/points', { json: f.qdrantFetch }],
  ]);
}
