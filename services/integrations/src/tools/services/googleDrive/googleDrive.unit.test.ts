import { GOOGLE_FIXTURES, createFakeGoogle } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { DRIVE_FILE_FIELDS, googleDriveTools } from './googleDrive.tools.js';

const gd = useFamily(createFakeGoogle, { googleDrive: '/drive/v3', googleDriveUpload: '/upload/drive/v3' }, googleDriveTools);
const t = { accessToken: 'ya29' };
const auth = { authorization: 'Bearer ya29' };

describe('google drive', () => {
  it('google_drive_upload creates, uploads, and fetches metadata (no rename for plain files)', async () => {
    const r = await gd.run('google_drive_upload', { ...t, fileName: 'notes.txt', content: 'hello drive', folderId: 'folder-1' });
    expect(gd.fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /drive/v3/files', 'PATCH /upload/drive/v3/files/new-1', 'GET /drive/v3/files/new-1']);
    gd.expectRequest('google_drive_upload', 'POST', '/drive/v3/files', { headers: { ...auth, 'content-type': 'application/json' }, body: { name: 'notes.txt', mimeType: 'text/plain', parents: ['folder-1'] } });
    gd.expectRequest('google_drive_upload', 'PATCH', '/upload/drive/v3/files/new-1', { headers: { ...auth, 'content-type': 'text/plain' }, query: { uploadType: 'media' }, text: 'hello drive' });
    gd.expectRequest('google_drive_upload', 'GET', '/drive/v3/files/new-1', { headers: auth, query: { fields: DRIVE_FILE_FIELDS } });
    expect(r).toEqual({ success: true, output: { file: GOOGLE_FIXTURES.driveFile('new-1') } });
  });

  it('google_drive_upload renames Workspace files after the upload and fails with a prefix', async () => {
    await gd.run('google_drive_upload', { ...t, fileName: 'Plan', content: 'text', mimeType: 'application/vnd.google-apps.document' });
    expect(gd.fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /drive/v3/files', 'PATCH /upload/drive/v3/files/new-1', 'PATCH /drive/v3/files/new-1', 'GET /drive/v3/files/new-1']);
    expect(gd.fake.requests[1]?.headers['content-type']).toBe('text/plain');
    expect(gd.fake.requests[2]?.body).toEqual({ name: 'Plan' });
    gd.fake.once('POST', '/drive/v3/files', { status: 403, json: { error: { message: 'Insufficient Permission' } } });
    await gd.expectError('google_drive_upload', { ...t, fileName: 'a', content: 'b' }, 'Failed to upload file: Insufficient Permission');
  });

  it('google_drive_upload sends a Google Sheet its content as text/csv, and refuses a Workspace type that imports no text before any call', async () => {
    await gd.run('google_drive_upload', { ...t, fileName: 'Budget', content: 'a,b\n1,2', mimeType: 'application/vnd.google-apps.spreadsheet' });
    gd.expectRequest('google_drive_upload', 'PATCH', '/upload/drive/v3/files/new-1', { headers: { 'content-type': 'text/csv' }, query: { uploadType: 'media' }, text: 'a,b\n1,2' });
    gd.fake.requests.length = 0;
    await gd.expectError(
      'google_drive_upload',
      { ...t, fileName: 'Deck', content: 'slide text', mimeType: 'application/vnd.google-apps.presentation' },
      'Failed to upload file: mimeType application/vnd.google-apps.presentation cannot be made from text content (Drive imports text only into Google Docs, application/vnd.google-apps.document, and CSV into Google Sheets, application/vnd.google-apps.spreadsheet)',
    );
    expect(gd.fake.requests).toEqual([]);
  });

  it('google_drive_create_folder posts the folder mime type', async () => {
    const r = await gd.run('google_drive_create_folder', { ...t, fileName: 'Reports' });
    gd.expectRequest('google_drive_create_folder', 'POST', '/drive/v3/files', {
      headers: { ...auth, 'content-type': 'application/json' },
      query: { fields: DRIVE_FILE_FIELDS },
      body: { name: 'Reports', mimeType: 'application/vnd.google-apps.folder' },
    });
    expect(r).toMatchObject({ success: true, output: { file: { id: 'new-1', name: 'Reports', mimeType: 'application/vnd.google-apps.folder' } } });
    gd.fake.once('POST', '/drive/v3/files', { status: 401, json: { error: { message: 'Invalid Credentials' } } });
    await gd.expectError('google_drive_create_folder', { ...t, fileName: 'x' }, 'Failed to create folder: Invalid Credentials');
  });

  it('google_drive_list builds the query with parent and name filters, page size at most 1000', async () => {
    const r = await gd.run('google_drive_list', { ...t, folderId: 'fold', query: "Bob's", pageSize: 5000, pageToken: 'tok' });
    gd.expectRequest('google_drive_list', 'GET', '/drive/v3/files', {
      headers: auth,
      query: { q: "trashed = false and 'fold' in parents and name contains 'Bob\\'s'", fields: `files(${DRIVE_FILE_FIELDS}),nextPageToken`, pageSize: '1000', pageToken: 'tok' },
    });
    expect(r).toMatchObject({ success: true, output: { nextPageToken: 'next-2', files: [{ id: 'f1', name: 'a.txt' }, { id: 'f2' }] } });
    gd.fake.once('GET', '/drive/v3/files', { status: 400, json: { error: { message: 'Invalid Value' } } });
    await gd.expectError('google_drive_list', t, 'Failed to list files: Invalid Value');
  });

  it('google_drive_get_content downloads plain files and exports Workspace files as text', async () => {
    const plain = await gd.run('google_drive_get_content', { ...t, fileId: 'f1' });
    gd.expectRequest('google_drive_get_content', 'GET', '/drive/v3/files/f1', { headers: auth, query: { fields: DRIVE_FILE_FIELDS }, nth: 0 });
    gd.expectRequest('google_drive_get_content', 'GET', '/drive/v3/files/f1', { headers: auth, query: { alt: 'media' }, nth: 1 });
    expect(plain).toMatchObject({ success: true, output: { content: 'file bytes!', metadata: { id: 'f1' } } });
    gd.fake.once('GET', '/drive/v3/files/:id', { json: GOOGLE_FIXTURES.driveFile('d1', { mimeType: 'application/vnd.google-apps.document' }) });
    const exported = await gd.run('google_drive_get_content', { ...t, fileId: 'd1' });
    gd.expectRequest('google_drive_get_content', 'GET', '/drive/v3/files/d1/export', { headers: auth, query: { mimeType: 'text/plain' } });
    expect(exported).toMatchObject({ success: true, output: { content: 'Exported text' } });
    gd.fake.once('GET', '/drive/v3/files/:id', { status: 404, json: { error: { message: 'File not found: x.' } } });
    await gd.expectError('google_drive_get_content', { ...t, fileId: 'x' }, 'Failed to get file content: File not found: x.');
  });
});
