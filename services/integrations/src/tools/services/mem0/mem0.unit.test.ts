import { createFakeCrm } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { mem0Tools } from './mem0.tools.js';

const m0 = useFamily(createFakeCrm, { mem0: '/mem0' }, mem0Tools);
const key = { apiKey: 'm0-key', userId: 'u1' };
const memory = { id: 'mem-1', memory: 'Likes tea', user_id: 'u1', score: 0.9, created_at: '2025-05-01T10:00:00Z' };

describe('mem0', () => {
  it('mem0_add_memories posts the messages for the user (v2, synchronously: Mem0 would only queue them) with the Token header', async () => {
    const msgs = [{ role: 'user', content: 'I like tea' }];
    const r = await m0.run('mem0_add_memories', { ...key, messages: JSON.stringify(msgs) });
    m0.expectRequest('mem0_add_memories', 'POST', '/mem0/v1/memories/', {
      headers: { authorization: 'Token m0-key', 'content-type': 'application/json' },
      body: { messages: msgs, user_id: 'u1', version: 'v2', async_mode: false },
    });
    expect(r).toEqual({ success: true, output: { ids: ['mem-1'], memories: [{ id: 'mem-1', memory: 'Likes tea', event: 'ADD' }] } });
  });

  it('mem0_add_memories refuses malformed messages and fails with the API message', async () => {
    await m0.expectError('mem0_add_memories', { ...key, messages: '[{' }, 'Messages must be valid JSON');
    await m0.expectError('mem0_add_memories', { ...key, messages: [] }, 'Messages must be a non-empty array');
    await m0.expectError('mem0_add_memories', { ...key, messages: [{ role: 'user' }] }, 'Each message must have role and content');
    expect(m0.fake.requests).toHaveLength(0);
    m0.fake.once('POST', '/mem0/v1/memories/', { status: 401, json: { detail: 'Invalid API key' } });
    await m0.expectError('mem0_add_memories', { ...key, messages: [{ role: 'user', content: 'x' }] }, 'Mem0 API error: Invalid API key');
  });

  it('mem0_search_memories searches the user with top_k clamped to 1-50 (default 10)', async () => {
    const r = await m0.run('mem0_search_memories', { ...key, query: 'drinks', limit: 80 });
    m0.expectRequest('mem0_search_memories', 'POST', '/mem0/v2/memories/search/', { headers: { authorization: 'Token m0-key' }, body: { query: 'drinks', filters: { user_id: 'u1' }, top_k: 50 } });
    expect(r).toEqual({ success: true, output: { searchResults: [memory], ids: ['mem-1'] } });
    await m0.run('mem0_search_memories', { ...key, query: 'drinks' });
    m0.expectRequest('mem0_search_memories', 'POST', '/mem0/v2/memories/search/', { body: { query: 'drinks', filters: { user_id: 'u1' }, top_k: 10 } });
    m0.fake.once('POST', '/mem0/v2/memories/search/', { status: 400, json: { error: 'query is too long' } });
    await m0.expectError('mem0_search_memories', { ...key, query: 'q' }, 'Mem0 API error: query is too long');
  });

  it('mem0_get_memories reads one memory by id', async () => {
    const r = await m0.run('mem0_get_memories', { ...key, memoryId: 'mem-1' });
    m0.expectRequest('mem0_get_memories', 'GET', '/mem0/v1/memories/mem-1/', { headers: { authorization: 'Token m0-key' } });
    expect(r).toEqual({ success: true, output: { memories: [{ id: 'mem-1', memory: 'Likes tea', user_id: 'u1', created_at: '2025-05-01T10:00:00Z' }], ids: ['mem-1'] } });
  });

  it('mem0_get_memories lists the user memories filtered by dates, the page and its size in the query', async () => {
    const r = await m0.run('mem0_get_memories', { ...key, startDate: '2025-05-01', endDate: '2025-05-31', limit: 0 });
    m0.expectRequest('mem0_get_memories', 'POST', '/mem0/v2/memories/', {
      headers: { authorization: 'Token m0-key', 'content-type': 'application/json' },
      query: { page: '1', page_size: '1' },
      body: { filters: { AND: [{ user_id: 'u1' }, { created_at: { gte: '2025-05-01', lte: '2025-05-31' } }] } },
    });
    expect(r).toEqual({ success: true, output: { memories: [memory], ids: ['mem-1'] } });
    m0.fake.once('GET', '/mem0/v1/memories/:id/', { status: 404, json: { detail: 'Memory not found' } });
    await m0.expectError('mem0_get_memories', { ...key, memoryId: 'nope' }, 'Mem0 API error: Memory not found');
  });
});
