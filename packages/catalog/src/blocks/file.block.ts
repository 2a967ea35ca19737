import type { BlockConfig } from '../types.js';
import { dropdown, shortInput, when } from './fields.js';

/**
 * File parser. §2: the URL-or-upload choice exists only when a hosting flag is on; the catalogue
 * always lists it (default upload) and the web app drops `inputMethod`/`filePath` when hosting is off.
 */
export const fileBlock: BlockConfig = {
  type: 'file',
  name: 'File',
  description: 'Read and parse multiple files',
  longDescription: 'Upload and extract contents from structured file formats including PDFs, CSV spreadsheets and Word documents, or give a file URL.',
  docsLink: 'https://docs.weft.dev/tools/file',
  category: 'tools',
  bgColor: '#40916C',
  icon: 'DocumentIcon',
  subBlocks: [
    dropdown('inputMethod', 'Select Input Method', [['url', 'URL'], ['upload', 'Upload Files']], { defaultValue: 'upload' }),
    shortInput('filePath', 'File URL', 'Enter URL to a file (https://example.com/document.pdf)', { condition: when('inputMethod', 'url') }),
    { id: 'file', title: 'Upload Files', type: 'file-upload', layout: 'full', acceptedTypes: '.pdf,.csv,.docx', multiple: true, maxSize: 100, condition: when('inputMethod', 'upload') },
  ],
  tools: { access: ['file_parser'] },
  inputs: {
    inputMethod: { type: 'string', required: false },
    filePath: { type: 'string', required: false },
    fileType: { type: 'string', required: false },
    file: { type: 'json', required: false },
  },
  outputs: { files: 'json', combinedContent: 'string' },
};
