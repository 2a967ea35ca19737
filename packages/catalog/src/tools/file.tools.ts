import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** File parsing through the internal files route. */
export const fileTools: ToolConfig[] = [
  defineTool({
    id: 'file_parser',
    name: 'File Parser',
    description: 'Parse one or more uploaded files or files from URLs (text, PDF, CSV, images, etc.)',
    params: {
      filePath: need('string', 'user', 'Path to an uploaded file or URL'),
      fileType: may('string', 'user', 'Type of file to parse (auto-detected if not specified)'),
    },
    request: { method: 'POST', url: '/api/files/parse' },
  }),
];
