import { VECTOR_FIXTURES, createFakeVectors } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { pineconeTools } from './pinecone.tools.js';

const pc = useFamily(createFakeVectors, ['pinecone'], pineconeTools);
const auth = () => ({ apiKey: 'pc-key', indexHost: pc.fake.url });
const headers = { 'api-key': 'pc-key', 'x-pinecone-api-version': '2025-01' };

describe('pinecone', () => {
  it('pinecone_generate_embeddings posts inputs with passage and END defaults', async () => {
    const r = await pc.run('pinecone_generate_embeddings', { apiKey: 'pc-key', model: 'multilingual-e5-large', inputs: ['hello', 'world'] });
    pc.expectRequest('pinecone_generate_embeddings', 'POST', '/embed', {
      headers: { ...headers, 'content-type': 'application/json' },
      body: { model: 'multilingual-e5-large', inputs: [{ text: 'hello' }, { text: 'world' }], parameters: { input_type: 'passage', truncate: 'END' } },
    });
    expect(r).toEqual({ success: true, output: { data: VECTOR_FIXTURES.embed.data, model: 'multilingual-e5-large', vector_type: 'dense', usage: { total_tokens: 4 } } });
    pc.fake.once('POST', '/embed', { status: 401, json: { error: { code: 'UNAUTHENTICATED', message: 'Invalid API Key' } } });
    await pc.expectError('pinecone_generate_embeddings', { apiKey: 'x', model: 'm', inputs: ['a'] }, 'Pinecone embedding generation failed: Invalid API Key');
  });

  it('pinecone_upsert_text sends newline-delimited JSON records', async () => {
    const records = [{ _id: 'r1', text: 'one' }, { _id: 'r2', text: 'two', genre: 'docs' }];
    const r = await pc.run('pinecone_upsert_text', { ...auth(), namespace: 'ns1', records });
    pc.expectRequest('pinecone_upsert_text', 'POST', '/records/namespaces/ns1/upsert', {
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      text: '{"_id":"r1","text":"one"}\n{"_id":"r2","text":"two","genre":"docs"}',
    });
    expect(r).toEqual({ success: true, output: { statusText: 'Created', upsertedCount: 2 } });
    pc.fake.once('POST', '/records/namespaces/:ns/upsert', { status: 400, json: { error: { message: 'Missing _id' } } });
    await pc.expectError('pinecone_upsert_text', { ...auth(), namespace: 'ns1', records: { text: 'x' } }, 'Pinecone upsert failed: Missing _id');
  });

  it('pinecone_search_text searches by text with topK 10 by default', async () => {
    const r = await pc.run('pinecone_search_text', { ...auth(), namespace: 'ns1', searchQuery: 'workflows', fields: ['text'], filter: '{"genre":{"$eq":"docs"}}' });
    pc.expectRequest('pinecone_search_text', 'POST', '/records/namespaces/ns1/search', {
      headers,
      body: { query: { inputs: { text: 'workflows' }, top_k: 10, filter: { genre: { $eq: 'docs' } } }, fields: ['text'] },
    });
    expect(r).toEqual({ success: true, output: { matches: [{ id: 'rec1', score: 0.91, metadata: { text: 'Weft builds workflows' } }], usage: { read_units: 1 } } });
    pc.fake.once('POST', '/records/namespaces/:ns/search', { status: 404, json: { error: { message: 'Namespace not found' } } });
    await pc.expectError('pinecone_search_text', { ...auth(), searchQuery: 'a' }, 'Pinecone text search failed: Namespace not found');
  });

  it('pinecone_search_vector queries the index', async () => {
    const r = await pc.run('pinecone_search_vector', { ...auth(), namespace: 'ns1', vector: '[0.1,0.2]', topK: '3', includeMetadata: true });
    pc.expectRequest('pinecone_search_vector', 'POST', '/query', { headers, body: { namespace: 'ns1', vector: [0.1, 0.2], topK: 3, includeValues: false, includeMetadata: true } });
    expect(r).toEqual({ success: true, output: { matches: VECTOR_FIXTURES.query.matches, namespace: 'ns1' } });
    pc.fake.once('POST', '/query', { status: 400, json: { message: 'Vector dimension 2 does not match the dimension of the index 1024' } });
    await pc.expectError('pinecone_search_vector', { ...auth(), vector: [1, 2] }, 'Pinecone vector search failed: Vector dimension 2 does not match the dimension of the index 1024');
    pc.fake.once('POST', '/query', { status: 400, json: {} });
    await pc.expectError('pinecone_search_vector', { ...auth(), vector: [1, 2] }, 'Vector search failed');
    pc.fake.once('POST', '/query', { status: 404, text: 'Index not found' });
    await pc.expectError('pinecone_search_vector', { ...auth(), vector: [1, 2] }, 'Pinecone vector search failed: Index not found');
  });

  it('pinecone_fetch repeats ids in the query', async () => {
    const r = await pc.run('pinecone_fetch', { ...auth(), ids: ['vec1', 'vec2'], namespace: 'ns1' });
    pc.expectRequest('pinecone_fetch', 'GET', '/vectors/fetch', { headers, query: { ids: ['vec1', 'vec2'], namespace: 'ns1' } });
    expect(r).toEqual({ success: true, output: { matches: [{ id: 'vec1', values: [0.1, 0.2], metadata: { genre: 'docs' } }], namespace: 'ns1' } });
    pc.fake.once('GET', '/vectors/fetch', { status: 403, json: { message: 'Forbidden' } });
    await pc.expectError('pinecone_fetch', { ...auth(), ids: ['a'] }, 'Pinecone fetch failed: Forbidden');
  });
});
