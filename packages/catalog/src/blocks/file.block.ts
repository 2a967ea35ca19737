import { text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, shortInput, when } from './fields.js';
import { uploadedFiles } from './uploads.js';

/**
 * The file parser's parameters: the URL in URL mode; in upload mode (the default) the uploaded files
 * (`file`, each `{name, type, size, url}` with its content as a data link), which the files route
 * parses by their links and names. The other mode's value is not sent, so a URL typed before
 * switching to upload is not parsed instead of the uploads.
 */
function fileParams(p: Record<string, unknown>): Record<string, unknown> {
  if ((text(p.inputMethod) || 'upload') === 'url') return { filePath: text(p.filePath), file: undefined };
  return { file: uploadedFiles(p.file), filePath: undefined };
}

/**
 * File parser. §2: the URL-or-upload choice exists only when a hosting flag is on, otherwise upload
 * only. Weft has no such flag and reads it as on: the form always offers both (default upload).
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
  tools: { access: ['file_parser'], config: { params: fileParams } },
  inputs: {
    inputMethod: { type: 'string', required: false },
    filePath: { type: 'string', required: false },
    fileType: { type: 'string', required: false },
    file: { type: 'json', required: false },
  },
  outputs: { files: 'json', combinedContent: 'string' },
};
