import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

const tool = toolFamily({
  baseUrl: '{url}/collections/{collection}/points',
  headers: { 'api-key': '{apiKey}', 'Content-Type': 'application/json' },
  common: {
    url: need('string', 'user', 'Qdrant base URL'),
    apiKey: may('string', 'user', 'Qdrant API key (optional)'),
    collection: need('string', 'user', 'Collection name'),
  },
});

const withPayload = may('boolean', 'user', 'Include payload in response', false);
const withVector = may('boolean', 'user', 'Include vector in response', false);

/** Qdrant point tools. */
export const qdrantTools: ToolConfig[] = [
  tool('qdrant_upsert_points', 'Qdrant Upsert Points', 'Insert or update points in a Qdrant collection', 'PUT', '', {
    points: need('array', 'llm', 'Array of points to upsert'),
  }),
  tool('qdrant_search_vector', 'Qdrant Search Vector', 'Search for similar vectors in a Qdrant collection', 'POST', '/query', {
    vector: need('array', 'llm', 'Vector to search for'),
    limit: may('number', 'user', 'Number of results to return', 10),
    filter: may('object', 'llm', 'Filter to apply to the search'),
    with_payload: withPayload,
    with_vector: withVector,
  }),
  tool('qdrant_fetch_points', 'Qdrant Fetch Points', 'Fetch points by ID from a Qdrant collection', 'POST', '', {
    ids: need('array', 'llm', 'Array of point IDs to fetch'),
    with_payload: withPayload,
    with_vector: withVector,
  }),
];
