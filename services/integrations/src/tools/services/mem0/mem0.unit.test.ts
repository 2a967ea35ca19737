import { createFakeCrm } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { mem0Tools } from './mem0.tools.js';

const m0 = useFamily(createFakeCrm, { mem0: '/mem0' }, mem0Tools);
const key = { apiKey: 'm0-key', userId: 'u1' };
const memory = { id: 'mem-1', memory: 'Likes tea', user_id: 'u1', score: 0.9, created_at: '2025-05-01T10:00:00Z' };

describe('mem0', () => {
  it('mem0_add_memories posts the messages for the user (v2) with the Token header', async () => {
    const msgs = [{ role: 'user', content: 'I like tea' }];
    const r = await m0.run('mem0_add_memories', { ...key, messages: JSON.stringify(msgs) });
    const req = m0.only('POST', '/mem0/v1/memories/');
    expect(req.headers.authorization).toBe('Token m0-key');
    expect(req.body).toEqual({ messages: msgs, user_id: 'u1', version: 'v2' });
    expect(r).toEqual({ success: true, output: { ids: ['mem-1'], memories: [{ id: 'mem-1', memory: 'Likes tea', event: 'ADD' }] } });
  });

  it('mem0_add_memories refuses malformed messages and fails with the API message', async () => {
    expect(await m0.run('mem0_add_memories', { ...key, messages: '[{' })).toEqual({ success: false, output: {}, error: 'Messages must be valid JSON' });
    expect(await m0.run('mem0_add_memories', { ...key, messages: [] })).toMatchObject({ error: 'Messages must be a non-empty array' });
    expect(await m0.run('mem0_add_memories', { ...key, messages: [{ role: 'user' }] })).toMatchObject({ error: 'Each message must have role and content' });
    expect(m0.fake.requests).toHaveLength(0);
    m0.fake.once('POST', '/mem0/v1/memories/', { status: 401, json: { detail: 'Invalid API key' } });
    expect(await m0.run('mem0_add_memories', { ...key, messages: [{ role: 'user', content: 'x' }] })).toEqual({ success: false, output: {}, error: 'Mem0 API error: Invalid API key' });
  });

  it('mem0_search_memories searches the user with top_k clamped to 1-50 (default 10)', async () => {
    const r = await m0.run('mem0_search_memories', { ...key, query: 'drinks', limit: 80 });
    expect(m0.only('POST', '/mem0/v2/memories/search/').body).toEqual({ query: 'drinks', filters: { user_id: 'u1' }, top_k: 50 });
    expect(r).toEqual({ success: true, output: { searchResults: [memory], ids: ['mem-1'] } });
    await m0.run('mem0_search_memories', { ...key, query: 'drinks' });
    expect(m0.fake.received('POST', '/mem0/v2/memories/search/')[1]?.body).toMatchObject({ top_k: 10 });
    m0.fake.once('POST', '/mem0/v2/memories/search/', { status: 400, json: { error: 'query is required' } });
    expect(await m0.run('mem0_search_memories', { ...key, query: '' })).toMatchObject({ error: 'Mem0 API error: query is required' });
  });

  it('mem0_get_memories reads one memory by id', async () => {
    const r = await m0.run('mem0_get_memories', { ...key, memoryId: 'mem-1' });
    expect(m0.only('GET', '/mem0/v1/memories/mem-1/').headers.authorization).toBe('Token m0-key');
    expect(r).toEqual({ success: true, output: { memories: [{ id: 'mem-1', memory: 'Likes tea', user_id: 'u1', created_at: '2025-05-01T10:00:00Z' }], ids: ['mem-1'] } });
  });

  it('mem0_get_memories lists the user memories filtered by dates with a page size', async () => {
    const r = await m0.run('mem0_get_memories', { ...key, startDate: '2025-05-01', endDate: '2025-05-31', limit: 0 });
    expect(m0.only('POST', '/mem0/v2/memories/').body).toEqual({ filters: { AND: [{ user_id: 'u1' }, { created_at: { gte: '2025-05-01', lte: '2025-05-31' } }] }, page_size: 1 });
    expect(r).toEqual({ success: true, output: { memories: [memory], ids: ['mem-1'] } });
    m0.fake.once('GET', '/mem0/v1/memories/:id/', { status: 404, json: { detail: 'Memory not found' } });
    expect(await m0.run('mem0_get_memories', { ...key, memoryId: 'nope' })).toMatchObject({ success: false, error: 'Mem0 API error: Memory not found' });
  });
});
