import { firstText, operationTool } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { read: 'google_docs_read', write: 'google_docs_write', create: 'google_docs_create' } as const;

/** Google Docs: read, append to and create documents. */
export const googleDocsBlock: BlockConfig = {
  type: 'google_docs',
  name: 'Google Docs',
  description: 'Read, write, and create documents',
  longDescription: 'Integrate Google Docs to read document content, append text at the end of a document, or create a new document in a folder.',
  docsLink: 'https://docs.weft.dev/tools/google_docs',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GoogleDocsIcon',
  subBlocks: [
    operationField([['read', 'Read Document'], ['write', 'Write to Document'], ['create', 'Create Document']]),
    credentialField('google-docs', 'google-docs', 'Google Account', SCOPES.googleDrive),
    ...selectorPair(
      { id: 'documentId', title: 'Select Document', type: 'file-selector', layout: 'full', provider: 'google-drive', serviceId: 'google-drive', placeholder: 'Select a document', condition: when('operation', ['read', 'write']) },
      { id: 'manualDocumentId', title: 'Document ID', placeholder: 'Enter document ID' },
    ),
    shortInput('title', 'Document Title', 'Enter title for the new document', { condition: when('operation', 'create') }),
    ...selectorPair(
      { id: 'folderSelector', title: 'Select Parent Folder', type: 'folder-selector', layout: 'full', provider: 'google-drive', serviceId: 'google-drive', placeholder: 'Select a parent folder', condition: when('operation', 'create') },
      { id: 'folderId', title: 'Parent Folder ID', placeholder: 'Enter parent folder ID (leave empty for root folder)' },
    ),
    longInput('content', 'Content', 'Enter document content', { condition: when('operation', ['write', 'create']) }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Google Docs operation: ${op}`),
      params: ({ manualDocumentId, folderSelector, ...rest }) => ({
        ...rest,
        documentId: firstText(rest.documentId, manualDocumentId),
        folderId: firstText(folderSelector, rest.folderId),
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    documentId: { type: 'string', required: false },
    manualDocumentId: { type: 'string', required: false },
    title: { type: 'string', required: false },
    folderSelector: { type: 'string', required: false },
    folderId: { type: 'string', required: false },
    content: { type: 'string', required: false },
  },
  outputs: { content: 'string', metadata: 'json', updatedContent: 'boolean' },
};
