import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

const tool = toolFamily({
  baseUrl: 'https://api.mem0.ai',
  headers: { Authorization: 'Token {apiKey}', 'Content-Type': 'application/json' },
  common: { apiKey: need('string', 'user', 'Your Mem0 API key'), userId: need('string', 'user', 'User ID associated with the memories') },
});

/** Mem0 add (v1), search (v2) and get/list (v1 by id, v2 filtered list). */
export const mem0Tools: ToolConfig[] = [
  tool('mem0_add_memories', 'Add Memories', 'Add memories to Mem0 for persistent storage and retrieval', 'POST', '/v1/memories/', {
    messages: need('json', 'user', 'Array of message objects with role and content'),
  }),
  tool('mem0_search_memories', 'Search Memories', 'Search for memories in Mem0 using semantic search', 'POST', '/v2/memories/search/', {
    query: need('string', 'llm', 'Search query to find relevant memories'),
    limit: may('number', 'user', 'Maximum number of results to return', 10),
  }),
  tool('mem0_get_memories', 'Get Memories', 'Retrieve memories from Mem0 by ID or filter criteria', 'POST', '/v2/memories/', {
    memoryId: may('string', 'user', 'Specific memory ID to retrieve'),
    startDate: may('string', 'user', 'Start date for filtering by created_at (format: YYYY-MM-DD)'),
    endDate: may('string', 'user', 'End date for filtering by created_at (format: YYYY-MM-DD)'),
    limit: may('number', 'user', 'Maximum number of results to return', 10),
  }),
];
