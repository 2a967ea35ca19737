import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const common = { accessToken: accessToken('Google Docs') };
const auth = oauth('google-docs', SCOPES.googleDrive);
const docs = toolFamily({ baseUrl: 'https://docs.googleapis.com/v1/documents', headers: bearer(), common, oauth: auth });
const drive = toolFamily({ baseUrl: 'https://www.googleapis.com/drive/v3', headers: bearer(), common, oauth: auth });

/** Google Docs read, append (batchUpdate insertText at end of segment), create (Drive file with document mime type). */
export const googleDocsTools: ToolConfig[] = [
  docs('google_docs_read', 'Read Google Docs Document', 'Read content from a Google Docs document', 'GET', '/{documentId}', {
    documentId: need('string', 'user', 'The ID of the document to read'),
  }),
  docs('google_docs_write', 'Write to Google Docs Document', 'Write or update content in a Google Docs document', 'POST', '/{documentId}:batchUpdate', {
    documentId: need('string', 'user', 'The ID of the document to write to'),
    content: need('string', 'llm', 'The content to write to the document'),
  }),
  drive('google_docs_create', 'Create Google Docs Document', 'Create a new Google Docs document', 'POST', '/files', {
    title: need('string', 'llm', 'The title of the document to create'),
    content: may('string', 'llm', 'The content of the document to create'),
    folderId: may('string', 'user', 'The ID of the folder to create the document in'),
  }),
];
