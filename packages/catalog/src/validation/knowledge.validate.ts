import { isBlank, text } from '../paramValues.js';

/** Longest document name, in characters. */
export const DOCUMENT_NAME_MAX = 255;

/** Document content bounds, in characters. */
export const DOCUMENT_CONTENT = { min: 10, max: 1_000_000 } as const;

const FORBIDDEN = /[<>:"/\\|?*]/;

/** A new document's name and content rules; errors are prefixed 'Document name error:' or 'Document content error:'. */
export function validateKnowledgeDocument(name: unknown, content: unknown): string | undefined {
  const n = text(name);
  if (n === '') return 'Document name error: Document name is required';
  if (n.length > DOCUMENT_NAME_MAX) return `Document name error: Document name must be ${DOCUMENT_NAME_MAX} characters or less. Please use a shorter filename.`;
  if (FORBIDDEN.test(n)) return 'Document name error: Document name contains invalid characters. Avoid using: < > : " / \\ | ? *';
  const c = typeof content === 'string' ? content : text(content);
  if (c.trim().length < DOCUMENT_CONTENT.min) return `Document content error: Document content must be at least ${DOCUMENT_CONTENT.min} characters long`;
  if (c.length > DOCUMENT_CONTENT.max) {
    return 'Document content error: Document content exceeds maximum size of 1MB. Please split large content into smaller documents.';
  }
  return undefined;
}

/** The stored file name of a document: .txt appended when missing. */
export function documentFileName(name: string): string {
  const trimmed = name.trim();
  return trimmed.toLowerCase().endsWith('.txt') ? trimmed : `${trimmed}.txt`;
}

/** Knowledge: search needs knowledge bases; upload and create need a knowledge base; upload needs a document. */
export function validateKnowledge(params: Record<string, unknown>): string | undefined {
  const op = params.operation;
  if (op === 'search' && isBlank(params.knowledgeBaseIds)) return 'Knowledge base IDs are required for search';
  if ((op === 'upload_chunk' || op === 'create_document') && isBlank(params.knowledgeBaseId)) return 'Knowledge base ID is required';
  if (op === 'upload_chunk' && isBlank(params.documentId)) return 'Document ID is required for uploading a chunk';
  if (op === 'create_document') return validateKnowledgeDocument(params.name, params.content);
  return undefined;
}
