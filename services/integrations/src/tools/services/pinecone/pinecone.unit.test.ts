import { VECTOR_FIXTURES, createFakeVectors } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { pineconeTools } from './pinecone.tools.js';

const pc = useFamily(createFakeVectors, ['pinecone'], pineconeTools);
const auth = () => ({ apiKey: 'pc-key', indexHost: pc.fake.url });
const headersOk = (req: { headers: Record<string, unknown> }) => {
  expect(req.headers['api-key']).toBe('pc-key');
  expect(req.headers['x-pinecone-api-version']).toBe('2025-01');
};

describe('pinecone', () => {
  it('pinecone_generate_embeddings posts inputs with passage and END defaults', async () => {
    const r = await pc.run('pinecone_generate_embeddings', { apiKey: 'pc-key', model: 'multilingual-e5-large', inputs: ['hello', 'world'] });
    const req = pc.only('POST', '/embed');
    headersOk(req);
    expect(req.body).toEqual({ model: 'multilingual-e5-large', inputs: [{ text: 'hello' }, { text: 'world' }], parameters: { input_type: 'passage', truncate: 'END' } });
    expect(r).toEqual({ success: true, output: { data: VECTOR_FIXTURES.embed.data, model: 'multilingual-e5-large', vector_type: 'dense', usage: { total_tokens: 4 } } });
    pc.fake.once('POST', '/embed', { status: 401, json: { error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' } } });
    expect(await pc.run('pinecone_generate_embeddings', { apiKey: 'x', model: 'm', inputs: ['a'] })).toMatchObject({ success: false, error: 'Pinecone embedding generation failed: Invalid API Key' });
  });

  it('pinecone_upsert_text sends newline-delimited JSON records', async () => {
    const records = [{ _id: 'r1', text: 'one' }, { _id: 'r2', text: 'two', genre: 'docs' }];
    const r = await pc.run('pinecone_upsert_text', { ...auth(), namespace: 'ns1', records });
    const req = pc.only('POST', '/records/namespaces/ns1/upsert');
    headersOk(req);
    expect(req.headers['content-type']).toBe('application/x-ndjson');
    expect(req.text).toBe('{"_id":"r1","text":"one"}\n{"_id":"r2","text":"two","genre":"docs"}');
    expect(r).toEqual({ success: true, output: { statusText: 'Created', upsertedCount: 2 } });
    pc.fake.once('POST', '/records/namespaces/:ns/upsert', { status: 400, json: { error: { message: 'Missing _id' } } });
    expect(await pc.run('pinecone_upsert_text', { ...auth(), namespace: 'ns1', records: { text: 'x' } })).toMatchObject({ success: false, error: 'Pinecone upsert failed: Missing _id' });
  });

  it('pinecone_search_text searches by text with topK 10 by default', async () => {
    const r = await pc.run('pinecone_search_text', { ...auth(), namespace: 'ns1', searchQuery: 'workflows', fields: ['text'], filter: '{"genre":{"$eq":"docs"}}' });
    expect(pc.only('POST', '/records/namespaces/ns1/search').body).toEqual({ query: { inputs: { text: 'workflows' }, top_k: 10, filter: { genre: { $eq: 'docs' } } }, fields: ['text'] });
    expect(r).toEqual({ success: true, output: { matches: [{ id: 'rec1', score: 0.91, metadata: { text: 'Weft builds workflows' } }], usage: { read_units: 1 } } });
    pc.fake.once('POST', '/records/namespaces/:ns/search', { status: 404, json: { error: { message: 'Namespace not found' } } });
    expect(await pc.run('pinecone_search_text', { ...auth(), searchQuery: 'a' })).toMatchObject({ success: false, error: 'Pinecone text search failed: Namespace not found' });
  });

  it('pinecone_search_vector queries the index', async () => {
    const r = await pc.run('pinecone_search_vector', { ...auth(), namespace: 'ns1', vector: '[0.1,0.2]', topK: '3', includeMetadata: true });
    expect(pc.only('POST', '/query').body).toEqual({ namespace: 'ns1', vector: [0.1, 0.2], topK: 3, includeValues: false, includeMetadata: true });
    expect(r).toEqual({ success: true, output: { matches: VECTOR_FIXTURES.query.matches, namespace: 'ns1' } });
    pc.fake.once('POST', '/query', { status: 400, json: { message: 'Vector dimension 2 does not match the dimension of the index 1024' } });
    expect(await pc.run('pinecone_search_vector', { ...auth(), vector: [1, 2] })).toMatchObject({ success: false, error: 'Pinecone vector search failed: Vector dimension 2 does not match the dimension of the index 1024' });
  });

  it('pinecone_fetch repeats ids in the query', async () => {
    const r = await pc.run('pinecone_fetch', { ...auth(), ids: ['vec1', 'vec2'], namespace: 'ns1' });
    const req = pc.only('GET', '/vectors/fetch');
    headersOk(req);
    expect(pc.urls).toEqual([`${pc.fake.url}/vectors/fetch?ids=vec1&ids=vec2&namespace=ns1`]);
    expect(r).toEqual({ success: true, output: { matches: [{ id: 'vec1', values: [0.1, 0.2], metadata: { genre: 'docs' } }], namespace: 'ns1' } });
    pc.fake.once('GET', '/vectors/fetch', { status: 403, json: { message: 'Forbidden' } });
    expect(await pc.run('pinecone_fetch', { ...auth(), ids: ['a'] })).toMatchObject({ success: false, error: 'Pinecone fetch failed: Forbidden' });
  });
});
