import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

/** Pinecone API version header value. */
export const PINECONE_API_VERSION = '2025-01';

const headers = { 'Api-Key': '{apiKey}', 'X-Pinecone-API-Version': PINECONE_API_VERSION, 'Content-Type': 'application/json' };
const apiKey = need('string', 'user', 'Pinecone API key');
const host = toolFamily({ baseUrl: '{indexHost}', headers, common: { apiKey, indexHost: need('string', 'user', 'Full Pinecone index host URL') } });
const api = toolFamily({ baseUrl: 'https://api.pinecone.io', headers, common: { apiKey } });

const namespace = may('string', 'user', 'Namespace of the index');
const topK = may('number', 'user', 'Number of results to return', 10);

/** Pinecone inference and index tools. */
export const pineconeTools: ToolConfig[] = [
  api('pinecone_generate_embeddings', 'Pinecone Generate Embeddings', "Generate embeddings from text using Pinecone's hosted models", 'POST', '/embed', {
    model: need('string', 'user', 'Model to use for generating embeddings'),
    inputs: need('array', 'llm', 'Array of text inputs to generate embeddings for'),
    parameters: may('object', 'hidden', 'Embedding parameters (default input_type passage, truncate END)'),
  }),
  host('pinecone_upsert_text', 'Pinecone Upsert Text', 'Insert or update text records in a Pinecone index', 'POST', '/records/namespaces/{namespace}/upsert', {
    namespace: need('string', 'user', 'Namespace to upsert records into'),
    records: need('array', 'llm', 'Record or array of records to upsert, each containing _id, text, and optional metadata'),
  }),
  host('pinecone_search_text', 'Pinecone Search Text', 'Search for similar text in a Pinecone index', 'POST', '/records/namespaces/{namespace}/search', {
    namespace,
    searchQuery: need('string', 'llm', 'Text to search for'),
    topK,
    fields: may('array', 'user', 'Fields to return in the results'),
    filter: may('object', 'llm', 'Filter to apply to the search'),
    rerank: may('object', 'user', 'Reranking parameters'),
  }),
  host('pinecone_search_vector', 'Pinecone Search Vector', 'Search for similar vectors in a Pinecone index', 'POST', '/query', {
    namespace,
    vector: need('array', 'llm', 'Vector to search for'),
    topK,
    filter: may('object', 'llm', 'Filter to apply to the search'),
    includeValues: may('boolean', 'user', 'Include vector values in response', false),
    includeMetadata: may('boolean', 'user', 'Include metadata in response', false),
  }),
  host('pinecone_fetch', 'Pinecone Fetch', 'Fetch vectors by ID from a Pinecone index', 'GET', '/vectors/fetch?ids={ids}&namespace={namespace}', {
    ids: need('array', 'llm', 'Array of vector IDs to fetch'),
    namespace,
  }),
];
