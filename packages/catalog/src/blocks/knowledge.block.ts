import { clamp, operationTool, text, toInt } from '../paramValues.js';
import type { BlockConfig, SubBlockConfig } from '../types.js';
import { longInput, operationField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { search: 'knowledge_search', upload_chunk: 'knowledge_upload_chunk', create_document: 'knowledge_create_document' } as const;

/** Knowledge search topK: default 10, clamped 1..100 (§5). */
export const KNOWLEDGE_TOP_K = { default: 10, min: 1, max: 100 } as const;

const TAGS: SubBlockConfig[] = [1, 2, 3, 4, 5, 6, 7].map((n) =>
  shortInput(`tag${n}`, `Tag ${n}`, `Enter tag ${n} value`, { layout: 'half', condition: when('operation', ['search', 'create_document']) }),
);

/** topK clamped; comma separated knowledge base ids split. */
function knowledgeParams(p: Record<string, unknown>): Record<string, unknown> {
  if (p.operation !== 'search') return p;
  const ids = Array.isArray(p.knowledgeBaseIds) ? p.knowledgeBaseIds : text(p.knowledgeBaseIds).split(',').map((s) => s.trim()).filter(Boolean);
  return { ...p, knowledgeBaseIds: ids, topK: clamp(toInt(p.topK, KNOWLEDGE_TOP_K.default), KNOWLEDGE_TOP_K.min, KNOWLEDGE_TOP_K.max) };
}

/** Knowledge: vector search over knowledge bases, chunk upload and document creation. */
export const knowledgeBlock: BlockConfig = {
  type: 'knowledge',
  name: 'Knowledge',
  description: 'Use vector search',
  longDescription:
    'Perform semantic vector search across one or more knowledge bases, upload a chunk to a document, or create a document in a knowledge base. Filter by tags 1 to 7.',
  docsLink: 'https://docs.weft.dev/blocks/knowledge',
  category: 'blocks',
  bgColor: '#00B0B0',
  icon: 'PackageSearchIcon',
  subBlocks: [
    operationField([['search', 'Search'], ['upload_chunk', 'Upload Chunk'], ['create_document', 'Create Document']]),
    { id: 'knowledgeBaseIds', title: 'Knowledge Bases', type: 'knowledge-base-selector', layout: 'full', placeholder: 'Select knowledge bases', multiple: true, condition: when('operation', 'search') },
    { id: 'knowledgeBaseId', title: 'Knowledge Base', type: 'knowledge-base-selector', layout: 'full', placeholder: 'Select knowledge base', multiple: false, condition: when('operation', ['upload_chunk', 'create_document']) },
    longInput('query', 'Search Query', 'Enter your search query', { condition: when('operation', 'search') }),
    shortInput('topK', 'Number of Results', 'Enter number of results (default: 10)', { defaultValue: '10', condition: when('operation', 'search') }),
    { id: 'documentId', title: 'Document', type: 'document-selector', layout: 'full', placeholder: 'Select document', condition: when('operation', 'upload_chunk') },
    longInput('content', 'Chunk Content', 'Enter the chunk content to upload', { rows: 6, condition: when('operation', ['upload_chunk', 'create_document']) }),
    shortInput('name', 'Document Name', 'Enter document name', { condition: when('operation', 'create_document') }),
    ...TAGS,
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid knowledge operation: ${op}`), params: knowledgeParams },
  },
  inputs: {
    operation: { type: 'string', required: true },
    knowledgeBaseIds: { type: 'string', required: false },
    knowledgeBaseId: { type: 'string', required: false },
    query: { type: 'string', required: false },
    topK: { type: 'number', required: false },
    documentId: { type: 'string', required: false },
    content: { type: 'string', required: false },
    name: { type: 'string', required: false },
    ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`tag${n}`, { type: 'string' as const, required: false }])),
  },
  outputs: { results: 'json', query: 'string', totalResults: 'number' },
};
