import type { ToolConfig } from '../types.js';
import { accessToken, bearer, may, need, oauth, toolFamily } from './define.js';
import { SCOPES } from './scopes.js';

const tool = toolFamily({
  baseUrl: 'https://www.googleapis.com/drive/v3/files',
  headers: bearer(),
  common: { accessToken: accessToken('Google Drive') },
  oauth: oauth('google-drive', SCOPES.googleDrive),
});

const folderId = may('string', 'user', 'The ID of the parent folder');

/** Google Drive tools. */
export const googleDriveTools: ToolConfig[] = [
  tool('google_drive_upload', 'Upload to Google Drive', 'Upload a file to Google Drive (create, upload content, rename Workspace files, fetch metadata)', 'POST', '', {
    fileName: need('string', 'llm', 'The name of the file to upload'),
    content: need('string', 'llm', 'The content of the file to upload'),
    mimeType: may('string', 'hidden', 'The MIME type of the file to upload (a Google Doc takes the content as plain text, a Google Sheet as CSV; Slides and other Workspace types take no text)'),
    folderId,
  }),
  tool('google_drive_create_folder', 'Create Folder in Google Drive', 'Create a new folder in Google Drive', 'POST', '', {
    fileName: need('string', 'llm', 'Name of the folder to create'),
    folderId,
  }),
  tool('google_drive_list', 'List Google Drive Files', 'List files and folders in Google Drive', 'GET', "?q=trashed%20%3D%20false&pageSize={pageSize}&pageToken={pageToken}", {
    folderId,
    query: may('string', 'llm', 'A query to filter the files (name contains)'),
    pageSize: may('number', 'user', 'The number of files to return (default: 100, max: 1000)', 100),
    pageToken: may('string', 'hidden', 'The page token to use for pagination'),
  }),
  tool('google_drive_get_content', 'Get Content from Google Drive', 'Get content from a file in Google Drive (Workspace files exported as text)', 'GET', '/{fileId}?fields=id,name,mimeType', {
    fileId: need('string', 'llm', 'The ID of the file to get content from'),
    mimeType: may('string', 'hidden', 'The MIME type to export Google Workspace files to'),
  }),
];
