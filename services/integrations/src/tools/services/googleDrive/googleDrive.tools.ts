import { clamp, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, seg, serviceTool, type ApiResponse, type CallSpec, type Obj } from '../http.js';

/** The Drive file fields every tool answers (§3 Drive file). */
export const DRIVE_FILE_FIELDS = 'id,name,mimeType,webViewLink,webContentLink,size,createdTime,modifiedTime,parents';
const FOLDER_MIME = 'application/vnd.google-apps.folder';
const WORKSPACE = 'application/vnd.google-apps.';

/** Export formats of Google Workspace files (text where there is one). */
const EXPORT_MIME: Record<string, string> = {
  'application/vnd.google-apps.document': 'text/plain',
  'application/vnd.google-apps.spreadsheet': 'text/csv',
  'application/vnd.google-apps.presentation': 'text/plain',
  'application/vnd.google-apps.drawing': 'image/svg+xml',
};

/**
 * The media type text content is uploaded as for a Workspace target, one Drive imports into it
 * (about.importFormats): a Doc from plain text, a Sheet from CSV. Slides, Drawings and the rest import
 * no text format.
 */
const TEXT_IMPORT: Record<string, string> = {
  'application/vnd.google-apps.document': 'text/plain',
  'application/vnd.google-apps.spreadsheet': 'text/csv',
};

export async function drive(io: ToolIO, p: Obj, path: string, failure: string, spec: Omit<CallSpec, 'url'> & { upload?: boolean } = {}): Promise<ApiResponse> {
  const { upload, ...rest } = spec;
  const res = await call(io, { ...rest, url: `${io.baseUrl(upload ? 'googleDriveUpload' : 'googleDrive')}${path}`, headers: { ...bearer(p.accessToken), ...rest.headers } });
  if (!res.ok) throw new ToolError(`${failure}: ${apiMessage(res)}`, res.status);
  return res;
}

/** A Drive file as the tools answer it (§3). */
export function driveFile(value: unknown) {
  const f = obj(value);
  return { id: f.id, name: f.name, mimeType: f.mimeType, webViewLink: f.webViewLink, webContentLink: f.webContentLink, size: f.size, createdTime: f.createdTime, modifiedTime: f.modifiedTime, parents: f.parents };
}

const parents = (p: Obj) => (text(p.folderId) ? { parents: [text(p.folderId)] } : {});
const quote = (s: string) => s.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** Google Drive tools: upload (create, upload, rename Workspace files, fetch), create folder, list, get content. */
export const googleDriveTools: ServiceTool[] = [
  serviceTool('google_drive_upload', async (p, io) => {
    const fail = 'Failed to upload file';
    const name = text(p.fileName);
    const mimeType = text(p.mimeType) || 'text/plain';
    const workspace = mimeType.startsWith(WORKSPACE);
    const media = workspace ? TEXT_IMPORT[mimeType] : mimeType;
    if (media === undefined) {
      throw new ToolError(`${fail}: mimeType ${mimeType} cannot be made from text content (Drive imports text only into Google Docs, application/vnd.google-apps.document, and CSV into Google Sheets, application/vnd.google-apps.spreadsheet)`);
    }
    const created = obj((await drive(io, p, '/files', fail, { method: 'POST', json: { name, mimeType, ...parents(p) } })).data);
    const id = seg(String(created.id));
    await drive(io, p, `/files/${id}`, fail, {
      method: 'PATCH',
      upload: true,
      query: { uploadType: 'media' },
      headers: { 'Content-Type': media },
      body: String(p.content ?? ''),
    });
    if (workspace) await drive(io, p, `/files/${id}`, fail, { method: 'PATCH', json: { name } });
    const file = (await drive(io, p, `/files/${id}`, fail, { query: { fields: DRIVE_FILE_FIELDS } })).data;
    return { file: driveFile(file) };
  }),
  serviceTool('google_drive_create_folder', async (p, io) => {
    const res = await drive(io, p, '/files', 'Failed to create folder', {
      method: 'POST',
      query: { fields: DRIVE_FILE_FIELDS },
      json: { name: text(p.fileName), mimeType: FOLDER_MIME, ...parents(p) },
    });
    return { file: driveFile(res.data) };
  }),
  serviceTool('google_drive_list', async (p, io) => {
    const q = ['trashed = false'];
    if (text(p.folderId)) q.push(`'${quote(text(p.folderId))}' in parents`);
    if (text(p.query)) q.push(`name contains '${quote(text(p.query))}'`);
    const res = await drive(io, p, '/files', 'Failed to list files', {
      query: { q: q.join(' and '), fields: `files(${DRIVE_FILE_FIELDS}),nextPageToken`, pageSize: clamp(toInt(p.pageSize, 100), 1, 1000), pageToken: text(p.pageToken) },
    });
    const d = obj(res.data);
    return { files: list(d.files).map(driveFile), nextPageToken: d.nextPageToken };
  }),
  serviceTool('google_drive_get_content', async (p, io) => {
    const fail = 'Failed to get file content';
    const id = seg(text(p.fileId));
    const meta = obj((await drive(io, p, `/files/${id}`, fail, { query: { fields: DRIVE_FILE_FIELDS } })).data);
    const mime = String(meta.mimeType ?? '');
    const exportMime = mime.startsWith(WORKSPACE) ? text(p.mimeType) || EXPORT_MIME[mime] || 'text/plain' : undefined;
    const res = exportMime
      ? await drive(io, p, `/files/${id}/export`, fail, { query: { mimeType: exportMime } })
      : await drive(io, p, `/files/${id}`, fail, { query: { alt: 'media' } });
    return { content: res.text, metadata: driveFile(meta) };
  }),
];
