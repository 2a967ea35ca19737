import { text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, secretField, shortInput, when } from './fields.js';
import { uploadedFiles } from './uploads.js';

/**
 * The OCR tool's parameters: the URL in URL mode (the default); in upload mode the uploaded PDF
 * (`fileUpload`, `{name, type, size, url}` with a data link), which the tool sends to Mistral as
 * the document. The other mode's value is not sent.
 */
function mistralParams(p: Record<string, unknown>): Record<string, unknown> {
  if ((text(p.inputMethod) || 'url') === 'upload') return { fileUpload: uploadedFiles(p.fileUpload)[0], filePath: undefined };
  return { filePath: text(p.filePath), fileUpload: undefined };
}

/** Mistral PDF parser: OCR of a PDF given by URL or upload. */
export const mistralParseBlock: BlockConfig = {
  type: 'mistral_parse',
  name: 'Mistral Parser',
  description: 'Extract text from PDF documents',
  longDescription: 'Extract text and structure from PDF documents using Mistral OCR (mistral-ocr-latest). Give a URL or upload a PDF up to 50 MB; choose markdown, text or JSON output.',
  docsLink: 'https://docs.weft.dev/tools/mistral_parse',
  category: 'tools',
  bgColor: '#000000',
  icon: 'MistralIcon',
  subBlocks: [
    dropdown('inputMethod', 'Select Input Method', [['url', 'PDF Document URL'], ['upload', 'Upload PDF Document']]),
    shortInput('filePath', 'PDF Document URL', 'Enter full URL to a PDF document (https://example.com/document.pdf)', { condition: when('inputMethod', 'url') }),
    { id: 'fileUpload', title: 'Upload PDF', type: 'file-upload', layout: 'full', acceptedTypes: 'application/pdf', maxSize: 50, condition: when('inputMethod', 'upload') },
    dropdown('resultType', 'Output Format', [['markdown', 'Markdown (Formatted)'], ['text', 'Plain Text'], ['json', 'JSON (Raw)']]),
    shortInput('pages', 'Specific Pages', 'e.g. 0,1,2 (leave empty for all pages)'),
    secretField('apiKey', 'API Key', 'Enter your Mistral API key'),
  ],
  tools: { access: ['mistral_parser'], config: { params: mistralParams } },
  inputs: {
    inputMethod: { type: 'string', required: false },
    filePath: { type: 'string', required: false },
    fileUpload: { type: 'json', required: false },
    apiKey: { type: 'string', required: true },
    resultType: { type: 'string', required: false },
    pages: { type: 'string', required: false },
  },
  outputs: { content: 'string', metadata: 'json' },
};
