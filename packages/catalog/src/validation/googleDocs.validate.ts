import { firstText, isBlank } from '../paramValues.js';

/** Google Docs: read and write need a document; write needs content; create needs a title. */
export function validateGoogleDocs(params: Record<string, unknown>): string | undefined {
  const op = params.operation;
  if ((op === 'read' || op === 'write') && firstText(params.documentId, params.manualDocumentId) === '') return 'Document ID is required';
  if (op === 'write' && isBlank(params.content)) return 'Content is required';
  if (op === 'create' && isBlank(params.title)) return 'Title is required';
  return undefined;
}
