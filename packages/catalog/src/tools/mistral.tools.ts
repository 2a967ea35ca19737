import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Mistral OCR model. */
export const MISTRAL_OCR_MODEL = 'mistral-ocr-latest';

/** Mistral OCR of a PDF. */
export const mistralTools: ToolConfig[] = [
  defineTool({
    id: 'mistral_parser',
    name: 'Mistral PDF Parser',
    description: 'Parse PDF documents using the Mistral OCR API',
    params: {
      filePath: need('string', 'user', 'URL to a PDF document to be processed; not needed when a PDF is uploaded'),
      fileUpload: may('object', 'hidden', 'The uploaded PDF from the file-upload field ({name, type, size, url}, url a data link)'),
      resultType: may('string', 'user', 'Type of parsed result (markdown, text, or json)', 'markdown'),
      includeImageBase64: may('boolean', 'hidden', 'Include base64-encoded images in the response'),
      pages: may('array', 'user', 'Specific pages to process (array of page numbers, starting from 0)'),
      imageLimit: may('number', 'hidden', 'Maximum number of images to extract from the PDF'),
      imageMinSize: may('number', 'hidden', 'Minimum height and width of images to extract from the PDF'),
      apiKey: need('string', 'user', 'Mistral API key'),
    },
    request: { method: 'POST', url: 'https://api.mistral.ai/v1/ocr', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
