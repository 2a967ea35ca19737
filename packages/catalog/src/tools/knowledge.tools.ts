import type { ToolConfig, ToolParam } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Document processing options sent with a new document (§7). */
export const KNOWLEDGE_PROCESSING = { chunkSize: 1024, minCharactersPerChunk: 100, chunkOverlap: 200, recipe: 'default', lang: 'en' } as const;

const tags: Record<string, ToolParam> = Object.fromEntries(
  [1, 2, 3, 4, 5, 6, 7].map((n) => [`tag${n}`, may('string', 'user', `Tag ${n} value`)]),
);

/** Knowledge base search, chunk upload and document creation (internal routes). */
export const knowledgeTools: ToolConfig[] = [
  defineTool({
    id: 'knowledge_search',
    name: 'Knowledge Search',
    description: 'Search for similar content in one or more knowledge bases using vector similarity',
    params: {
      knowledgeBaseIds: need('string', 'user', 'ID of the knowledge base to search in, or comma-separated IDs for multiple knowledge bases'),
      query: need('string', 'llm', 'Search query text'),
      topK: may('number', 'user', 'Number of most similar results to return (1-100)', 10),
      ...tags,
    },
    request: { method: 'POST', url: '/api/knowledge/search' },
  }),
  defineTool({
    id: 'knowledge_upload_chunk',
    name: 'Knowledge Upload Chunk',
    description: 'Upload a new chunk to a document in a knowledge base',
    params: {
      knowledgeBaseId: need('string', 'user', 'ID of the knowledge base containing the document'),
      documentId: need('string', 'user', 'ID of the document to upload the chunk to'),
      content: need('string', 'llm', 'Content of the chunk to upload'),
    },
    request: { method: 'POST', url: '/api/knowledge/{knowledgeBaseId}/documents/{documentId}/chunks' },
  }),
  defineTool({
    id: 'knowledge_create_document',
    name: 'Knowledge Create Document',
    description: 'Create a new document in a knowledge base (name at most 255 characters, content 10 to 1,000,000 characters, .txt appended if missing)',
    params: {
      knowledgeBaseId: need('string', 'user', 'ID of the knowledge base containing the document'),
      name: need('string', 'llm', 'Name of the document'),
      content: need('string', 'llm', 'Content of the document'),
      ...tags,
    },
    request: { method: 'POST', url: '/api/knowledge/{knowledgeBaseId}/documents' },
  }),
];
