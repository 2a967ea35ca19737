import { GOOGLE_FIXTURES, createFakeGoogle } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { useFamily } from '../testSupport.js';
import { DRIVE_FILE_FIELDS, googleDriveTools } from './googleDrive.tools.js';

const gd = useFamily(createFakeGoogle, { googleDrive: '/drive/v3', googleDriveUpload: '/upload/drive/v3' }, googleDriveTools);
const t = { accessToken: 'ya29' };

describe('google drive', () => {
  it('google_drive_upload creates, uploads, and fetches metadata (no rename for plain files)', async () => {
    const r = await gd.run('google_drive_upload', { ...t, fileName: 'notes.txt', content: 'hello drive', folderId: 'folder-1' });
    expect(gd.fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /drive/v3/files', 'PATCH /upload/drive/v3/files/new-1', 'GET /drive/v3/files/new-1']);
    expect(gd.fake.requests[0]?.body).toEqual({ name: 'notes.txt', mimeType: 'text/plain', parents: ['folder-1'] });
    expect(gd.fake.requests[1]?.query).toEqual({ uploadType: 'media' });
    expect(gd.fake.requests[1]?.text).toBe('hello drive');
    expect(gd.fake.requests[2]?.query).toEqual({ fields: DRIVE_FILE_FIELDS });
    expect(gd.fake.requests.every((q) => q.headers.authorization === 'Bearer ya29')).toBe(true);
    expect(r).toEqual({ success: true, output: { file: GOOGLE_FIXTURES.driveFile('new-1') } });
  });

  it('google_drive_upload renames Workspace files after the upload and fails with a prefix', async () => {
    await gd.run('google_drive_upload', { ...t, fileName: 'Plan', content: 'text', mimeType: 'application/vnd.google-apps.document' });
    expect(gd.fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /drive/v3/files', 'PATCH /upload/drive/v3/files/new-1', 'PATCH /drive/v3/files/new-1', 'GET /drive/v3/files/new-1']);
    expect(gd.fake.requests[1]?.headers['content-type']).toBe('text/plain');
    expect(gd.fake.requests[2]?.body).toEqual({ name: 'Plan' });
    gd.fake.once('POST', '/drive/v3/files', { status: 403, json: { error: { message: 'Insufficient Permission' } } });
    expect(await gd.run('google_drive_upload', { ...t, fileName: 'a', content: 'b' })).toMatchObject({ success: false, error: 'Failed to upload file: Insufficient Permission' });
  });

  it('google_drive_create_folder posts the folder mime type', async () => {
    const r = await gd.run('google_drive_create_folder', { ...t, fileName: 'Reports' });
    const req = gd.only('POST', '/drive/v3/files');
    expect(req.body).toEqual({ name: 'Reports', mimeType: 'application/vnd.google-apps.folder' });
    expect(r).toMatchObject({ success: true, output: { file: { id: 'new-1', name: 'Reports', mimeType: 'application/vnd.google-apps.folder' } } });
    gd.fake.once('POST', '/drive/v3/files', { status: 401, json: { error: { message: 'Invalid Credentials' } } });
    expect(await gd.run('google_drive_create_folder', { ...t, fileName: 'x' })).toMatchObject({ success: false, error: 'Failed to create folder: Invalid Credentials' });
  });

  it('google_drive_list builds the query with parent and name filters, page size at most 1000', async () => {
    const r = await gd.run('google_drive_list', { ...t, folderId: 'fold', query: "Bob's", pageSize: 5000, pageToken: 'tok' });
    expect(gd.only('GET', '/drive/v3/files').query).toEqual({
      q: "trashed = false and 'fold' in parents and name contains 'Bob\\'s'",
      fields: `files(${DRIVE_FILE_FIELDS}),nextPageToken`,
      pageSize: '1000',
      pageToken: 'tok',
    });
    expect(r).toMatchObject({ success: true, output: { nextPageToken: 'next-2', files: [{ id: 'f1', name: 'a.txt' }, { id: 'f2' }] } });
    gd.fake.once('GET', '/drive/v3/files', { status: 400, json: { error: { message: 'Invalid Value' } } });
    expect(await gd.run('google_drive_list', t)).toMatchObject({ success: false, error: 'Failed to list files: Invalid Value' });
  });

  it('google_drive_get_content downloads plain files and exports Workspace files as text', async () => {
    const plain = await gd.run('google_drive_get_content', { ...t, fileId: 'f1' });
    expect(gd.fake.requests.map((q) => q.query)).toEqual([{ fields: DRIVE_FILE_FIELDS }, { alt: 'media' }]);
    expect(plain).toMatchObject({ success: true, output: { content: 'file bytes!', metadata: { id: 'f1' } } });
    gd.fake.requests.length = 0;
    gd.fake.once('GET', '/drive/v3/files/:id', { json: GOOGLE_FIXTURES.driveFile('d1', { mimeType: 'application/vnd.google-apps.document' }) });
    const exported = await gd.run('google_drive_get_content', { ...t, fileId: 'd1' });
    expect(gd.only('GET', '/drive/v3/files/d1/export').query).toEqual({ mimeType: 'text/plain' });
    expect(exported).toMatchObject({ success: true, output: { content: 'Exported text' } });
    gd.fake.once('GET', '/drive/v3/files/:id', { status: 404, json: { error: { message: 'File not found: x.' } } });
    expect(await gd.run('google_drive_get_content', { ...t, fileId: 'x' })).toMatchObject({ success: false, error: 'Failed to get file content: File not found: x.' });
  });
});
