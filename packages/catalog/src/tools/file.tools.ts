import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** File parsing through the internal files route. */
export const fileTools: ToolConfig[] = [
  defineTool({
    id: 'file_parser',
    name: 'File Parser',
    description: 'Parse one or more uploaded files or files from URLs (text, PDF, CSV, images, etc.)',
    params: {
      filePath: need('string', 'user', 'URL of the file to parse (or a list of them); not needed when files are uploaded'),
      file: may('json', 'hidden', 'Uploaded files from the file-upload field ({name, type, size, url} each, url a data link)'),
      fileType: may('string', 'user', 'Type of file to parse (auto-detected if not specified)'),
    },
    request: { method: 'POST', url: '/api/files/parse' },
  }),
];
