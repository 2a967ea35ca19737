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
    expect(gdoc.only('GET', '/v1/documents/doc-1').headers.authorization).toBe('Bearer ya29');
    expect(r).toEqual({ success: true, output: { content: 'Hello world\nSecond line\n', metadata: meta('doc-1', 'Spec') } });
    gdoc.fake.once('GET', '/v1/documents/:id', { status: 404, json: { error: { message: 'Requested entity was not found.' } } });
    expect(await gdoc.run('google_docs_read', { ...t, documentId: 'nope' })).toMatchObject({ success: false, error: 'Failed to read Google Docs document: Requested entity was not found.' });
    expect(await gdoc.run('google_docs_read', { ...t, documentId: ' ' })).toMatchObject({ success: false, error: 'Document ID is required' });
  });

  it('google_docs_write inserts text at the end of the segment', async () => {
    const r = await gdoc.run('google_docs_write', { ...t, documentId: 'doc-1', content: 'More' });
    const req = gdoc.only('POST', '/v1/documents/:id');
    expect(req.path).toBe('/v1/documents/doc-1:batchUpdate');
    expect(req.body).toEqual({ requests: [{ insertText: { endOfSegmentLocation: {}, text: 'More' } }] });
    expect(r).toEqual({ success: true, output: { updatedContent: true, metadata: meta('doc-1') } });
    expect(await gdoc.run('google_docs_write', { ...t, documentId: 'doc-1', content: '' })).toMatchObject({ success: false, error: 'Content is required' });
    gdoc.fake.once('POST', '/v1/documents/:id', { status: 400, json: { error: { message: 'Invalid requests[0]' } } });
    expect(await gdoc.run('google_docs_write', { ...t, documentId: 'doc-1', content: 'x' })).toMatchObject({ success: false, error: 'Failed to write to Google Docs document: Invalid requests[0]' });
  });

  it('google_docs_create creates the Drive file, then writes the content', async () => {
    const r = await gdoc.run('google_docs_create', { ...t, title: 'Notes', content: 'Body', folderId: 'fold' });
    expect(gdoc.only('POST', '/drive/v3/files').body).toEqual({ name: 'Notes', mimeType: 'application/vnd.google-apps.document', parents: ['fold'] });
    expect(gdoc.only('POST', '/v1/documents/:id').path).toBe('/v1/documents/new-1:batchUpdate');
    expect(r).toEqual({ success: true, output: { metadata: meta('new-1', 'Notes') } });
  });

  it('google_docs_create still succeeds with a warning when the content write fails', async () => {
    gdoc.fake.once('POST', '/v1/documents/:id', { status: 500, json: { error: { message: 'Internal error' } } });
    const r = await gdoc.run('google_docs_create', { ...t, title: 'Notes', content: 'Body' });
    expect(r).toEqual({ success: true, output: { metadata: meta('new-1', 'Notes'), warning: 'Document created, but writing its content failed: Internal error' } });
    expect(await gdoc.run('google_docs_create', { ...t, title: '' })).toMatchObject({ success: false, error: 'Title is required' });
    gdoc.fake.once('POST', '/drive/v3/files', { status: 403, json: { error: { message: 'Forbidden' } } });
    expect(await gdoc.run('google_docs_create', { ...t, title: 'X' })).toMatchObject({ success: false, error: 'Failed to create Google Docs document: Forbidden' });
  });
});
