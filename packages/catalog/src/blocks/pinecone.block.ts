import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, operationField, secretField, shortInput, when } from './fields.js';

/** Pinecone operation → tool id. */
export const PINECONE_TOOLS = {
  generate: 'pinecone_generate_embeddings',
  upsert_text: 'pinecone_upsert_text',
  search_text: 'pinecone_search_text',
  search_vector: 'pinecone_search_vector',
  fetch: 'pinecone_fetch',
} as const;

const INDEX_OPS = ['upsert_text', 'search_text', 'search_vector', 'fetch'];
const SEARCHES = ['search_text', 'search_vector'];

/** Pinecone: embeddings, text and vector upsert, search and fetch. */
export const pineconeBlock: BlockConfig = {
  type: 'pinecone',
  name: 'Pinecone',
  description: 'Use Pinecone vector database',
  longDescription:
    'Store, search and retrieve vector embeddings using Pinecone: generate embeddings, upsert text records, search by text or vector, and fetch vectors by id (API version 2025-01).',
  docsLink: 'https://docs.weft.dev/tools/pinecone',
  category: 'tools',
  bgColor: '#0D1117',
  icon: 'PineconeIcon',
  subBlocks: [
    operationField([['generate', 'Generate Embeddings'], ['upsert_text', 'Upsert Text'], ['search_text', 'Search With Text'], ['search_vector', 'Search With Vector'], ['fetch', 'Fetch Vectors']]),
    dropdown('model', 'Model', [['multilingual-e5-large', 'multilingual-e5-large'], ['llama-text-embed-v2', 'llama-text-embed-v2'], ['pinecone-sparse-english-v0', 'pinecone-sparse-english-v0']], { condition: when('operation', 'generate') }),
    longInput('inputs', 'Text Inputs', '[{"text": "Your text here"}]', { condition: when('operation', 'generate') }),
    shortInput('indexHost', 'Index Host', 'https://index-name-abc123.svc.project-id.pinecone.io', { condition: when('operation', INDEX_OPS) }),
    shortInput('namespace', 'Namespace', 'default', { condition: when('operation', INDEX_OPS) }),
    longInput('records', 'Records', '{"_id": "rec1", "text": "Apple\'s first product, the Apple I..."}', { condition: when('operation', 'upsert_text') }),
    longInput('searchQuery', 'Search Query', 'Enter text to search for', { condition: when('operation', 'search_text') }),
    longInput('vector', 'Query Vector', '[0.1, 0.2, 0.3, ...]', { condition: when('operation', 'search_vector') }),
    shortInput('topK', 'Top K Results', '10', { layout: 'half', condition: when('operation', SEARCHES) }),
    longInput('filter', 'Filter', '{"category": "product"}', { condition: when('operation', SEARCHES) }),
    shortInput('fields', 'Fields to Return', '["category", "text"]', { condition: when('operation', 'search_text') }),
    longInput('rerank', 'Rerank Options', '{"model": "bge-reranker-v2-m3", "rank_fields": ["text"], "top_n": 2}', { condition: when('operation', 'search_text') }),
    { id: 'includeValues', title: 'Include Values', type: 'switch', layout: 'half', condition: when('operation', 'search_vector') },
    { id: 'includeMetadata', title: 'Include Metadata', type: 'switch', layout: 'half', condition: when('operation', 'search_vector') },
    shortInput('ids', 'Vector IDs', '["vec1", "vec2"]', { condition: when('operation', 'fetch') }),
    secretField('apiKey', 'API Key', 'Your Pinecone API key'),
  ],
  tools: { access: Object.values(PINECONE_TOOLS), config: { tool: operationTool(PINECONE_TOOLS, (op) => `Invalid Pinecone operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    indexHost: { type: 'string', required: false },
    namespace: { type: 'string', required: false },
    model: { type: 'string', required: false },
    inputs: { type: 'json', required: false },
    records: { type: 'json', required: false },
    searchQuery: { type: 'string', required: false },
    vector: { type: 'json', required: false },
    topK: { type: 'string', required: false },
    filter: { type: 'json', required: false },
    fields: { type: 'json', required: false },
    rerank: { type: 'json', required: false },
    includeValues: { type: 'boolean', required: false },
    includeMetadata: { type: 'boolean', required: false },
    ids: { type: 'json', required: false },
  },
  outputs: { matches: 'any', upsertedCount: 'any', data: 'any', model: 'any', vector_type: 'any', usage: 'any' },
};
