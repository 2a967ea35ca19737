import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { longInput, operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { upsert: 'qdrant_upsert_points', search: 'qdrant_search_vector', fetch: 'qdrant_fetch_points' } as const;

/** Qdrant: upsert, search and fetch points. */
export const qdrantBlock: BlockConfig = {
  type: 'qdrant',
  name: 'Qdrant',
  description: 'Use Qdrant vector database',
  longDescription: 'Store, search and retrieve vector embeddings using Qdrant: upsert points, search by vector with filters, and fetch points by id.',
  docsLink: 'https://docs.weft.dev/tools/qdrant',
  category: 'tools',
  bgColor: '#1A223F',
  icon: 'QdrantIcon',
  subBlocks: [
    operationField([['upsert', 'Upsert'], ['search', 'Search'], ['fetch', 'Fetch']]),
    shortInput('url', 'Qdrant URL', 'http://localhost:6333'),
    secretField('apiKey', 'API Key', 'Your Qdrant API key (optional)'),
    shortInput('collection', 'Collection', 'my-collection'),
    longInput('points', 'Points', '[{"id": 1, "vector": [0.1, 0.2], "payload": {"category": "a"}}]', { condition: when('operation', 'upsert') }),
    longInput('vector', 'Query Vector', '[0.1, 0.2]', { condition: when('operation', 'search') }),
    shortInput('limit', 'Limit', '10', { layout: 'half', condition: when('operation', 'search') }),
    longInput('filter', 'Filter', '{"must":[{"key":"city","match":{"value":"London"}}]}', { condition: when('operation', 'search') }),
    { id: 'with_payload', title: 'With Payload', type: 'switch', layout: 'half', condition: when('operation', ['search', 'fetch']) },
    { id: 'with_vector', title: 'With Vector', type: 'switch', layout: 'half', condition: when('operation', ['search', 'fetch']) },
    longInput('ids', 'IDs', '["370446a3-310f-58db-8ce7-31db947c6c1e"]', { condition: when('operation', 'fetch') }),
  ],
  tools: { access: Object.values(TOOL_BY_OPERATION), config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Qdrant operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    url: { type: 'string', required: true },
    apiKey: { type: 'string', required: false },
    collection: { type: 'string', required: true },
    points: { type: 'json', required: false },
    vector: { type: 'json', required: false },
    limit: { type: 'number', required: false },
    filter: { type: 'json', required: false },
    ids: { type: 'json', required: false },
    with_payload: { type: 'boolean', required: false },
    with_vector: { type: 'boolean', required: false },
  },
  outputs: { data: 'any', status: 'any' },
};
