import { createFakeGoogle } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { googleDocsTools } from './googleDocs.tools.js';

const gdoc = useFamily(createFakeGoogle, { googleDocs: '/v1/documents', googleDrive: '/drive/v3' }, googleDocsTools);
const t = { accessToken: 'ya29' };
const meta = (id: string, title?: string) => ({ documentId: id, title, mimeType: 'application/vnd.google-apps.document', url: `https://docs.google.com/document/d/${id}/edit` });

describe('google docs', () => {
  it('google_docs_read joins the text runs', async () => {
    const r = await gdoc.run('google_docs_read', { ...t, documentId: 'doc-1' });
    gdoc.expectRequest('google_docs_read', 'GET', '/v1/documents/doc-1', { headers: { authorization: 'Bearer ya29' } });
    expect(r).toEqual({ success: true, output: { content: 'Hello world\nSecond line\n', metadata: meta('doc-1', 'Spec') } });
    gdoc.fake.once('GET', '/v1/documents/:id', { status: 404, json: { error: { message: 'Requested entity was not found.' } } });
    await gdoc.expectError('google_docs_read', { ...t, documentId: 'nope' }, 'Failed to read Google Docs document: Requested entity was not found.');
    await gdoc.expectError('google_docs_read', { ...t, documentId: ' ' }, 'Document ID is required');
  });

  it('google_docs_write inserts text at the end of the segment', async () => {
    const r = await gdoc.run('google_docs_write', { ...t, documentId: 'doc-1', content: 'More' });
    gdoc.expectRequest('google_docs_write', 'POST', '/v1/documents/doc-1:batchUpdate', {
      headers: { authorization: 'Bearer ya29', 'content-type': 'application/json' },
      body: { requests: [{ insertText: { endOfSegmentLocation: {}, text: 'More' } }] },
    });
    expect(r).toEqual({ success: true, output: { updatedContent: true, metadata: meta('doc-1') } });
    await gdoc.expectError('google_docs_write', { ...t, documentId: 'doc-1', content: ' ' }, 'Content is required');
    gdoc.fake.once('POST', '/v1/documents/:id', { status: 400, json: { error: { message: 'Invalid requests[0]' } } });
    await gdoc.expectError('google_docs_write', { ...t, documentId: 'doc-1', content: 'x' }, 'Failed to write to Google Docs document: Invalid requests[0]');
  });

  it('google_docs_create creates the Drive file, then writes the content', async () => {
    const r = await gdoc.run('google_docs_create', { ...t, title: 'Notes', content: 'Body', folderId: 'fold' });
    gdoc.expectRequest('google_docs_create', 'POST', '/drive/v3/files', {
      headers: { authorization: 'Bearer ya29', 'content-type': 'application/json' },
      body: { name: 'Notes', mimeType: 'application/vnd.google-apps.document', parents: ['fold'] },
    });
    gdoc.expectRequest('google_docs_create', 'POST', '/v1/documents/new-1:batchUpdate', {
      headers: { authorization: 'Bearer ya29' },
      body: { requests: [{ insertText: { endOfSegmentLocation: {}, text: 'Body' } }] },
    });
    expect(r).toEqual({ success: true, output: { metadata: meta('new-1', 'Notes') } });
  });

  it('google_docs_create still succeeds with a warning when the content write fails (a 5xx too: a retry would create a second document)', async () => {
    gdoc.fake.once('POST', '/v1/documents/:id', { status: 500, json: { error: { message: 'Internal error' } } });
    const r = await gdoc.run('google_docs_create', { ...t, title: 'Notes', content: 'Body' });
    expect(r).toEqual({ success: true, output: { metadata: meta('new-1', 'Notes'), warning: 'Document created, but writing its content failed: Internal error' } });
    expect(gdoc.fake.received('POST', '/drive/v3/files')).toHaveLength(1);
    await gdoc.expectError('google_docs_create', { ...t, title: ' ' }, 'Title is required');
    gdoc.fake.once('POST', '/drive/v3/files', { status: 403, json: { error: { message: 'Forbidden' } } });
    await gdoc.expectError('google_docs_create', { ...t, title: 'X' }, 'Failed to create Google Docs document: Forbidden');
  });
});
