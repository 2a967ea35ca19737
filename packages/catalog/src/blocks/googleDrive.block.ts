import { clamp, firstText, operationTool, text, toInt } from '../paramValues.js';
import { SCOPES } from '../tools/scopes.js';
import type { BlockConfig } from '../types.js';
import { credentialField, longInput, operationField, selectorPair, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = {
  upload: 'google_drive_upload',
  create_folder: 'google_drive_create_folder',
  list: 'google_drive_list',
  get_content: 'google_drive_get_content',
} as const;

/** Drive list page size: default 100, at most 1000 (§2). */
export const DRIVE_PAGE_SIZE = { default: 100, max: 1000 } as const;

/** Google Drive: upload files, create folders, list a folder, read a file's content. */
export const googleDriveBlock: BlockConfig = {
  type: 'google_drive',
  name: 'Google Drive',
  description: 'Create, upload, and list files',
  longDescription:
    'Integrate Google Drive to upload files, create folders, list the files of a folder and read file content. Google Workspace files are exported to text.',
  docsLink: 'https://docs.weft.dev/tools/google_drive',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GoogleDriveIcon',
  subBlocks: [
    operationField([['upload', 'Upload File'], ['create_folder', 'Create Folder'], ['list', 'List Files'], ['get_content', 'Get Content']]),
    credentialField('google-drive', 'google-drive', 'Google Drive Account', SCOPES.googleDrive),
    shortInput('fileName', 'File Name', 'Name of the file', { condition: when('operation', ['upload', 'create_folder']) }),
    longInput('content', 'Content', 'Content to upload to the file', { condition: when('operation', 'upload') }),
    shortInput('mimeType', 'MIME Type', 'e.g. text/plain or application/vnd.google-apps.document', { condition: when('operation', 'upload') }),
    ...selectorPair(
      { id: 'folderSelector', title: 'Select Folder', type: 'folder-selector', layout: 'full', provider: 'google-drive', serviceId: 'google-drive', placeholder: 'Select a folder', condition: when('operation', ['upload', 'create_folder', 'list']) },
      { id: 'folderId', title: 'Folder ID', placeholder: 'Enter folder ID (leave empty for root folder)' },
    ),
    shortInput('fileId', 'File ID', 'Enter file ID', { condition: when('operation', 'get_content') }),
    shortInput('query', 'Search Query', 'Search for specific files (e.g., name contains "report")', { condition: when('operation', 'list') }),
    shortInput('pageSize', 'Results Per Page', 'Number of results (default: 100, max: 1000)', { min: 1, max: DRIVE_PAGE_SIZE.max, condition: when('operation', 'list') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Google Drive operation: ${op}`),
      params: ({ folderSelector, ...rest }) => ({
        ...rest,
        folderId: firstText(folderSelector, rest.folderId),
        ...(text(rest.pageSize) !== '' ? { pageSize: clamp(toInt(rest.pageSize, DRIVE_PAGE_SIZE.default), 1, DRIVE_PAGE_SIZE.max) } : {}),
      }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    credential: { type: 'string', required: true },
    fileName: { type: 'string', required: false },
    content: { type: 'string', required: false },
    mimeType: { type: 'string', required: false },
    folderSelector: { type: 'string', required: false },
    folderId: { type: 'string', required: false },
    fileId: { type: 'string', required: false },
    query: { type: 'string', required: false },
    pageSize: { type: 'number', required: false },
  },
  outputs: { file: 'json', files: 'json', content: 'string', metadata: 'json' },
};
