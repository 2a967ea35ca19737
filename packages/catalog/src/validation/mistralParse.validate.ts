import { isBlank, text } from '../paramValues.js';

/** Parses a comma list of non-negative page numbers; '' means all pages. */
export function parsePages(value: unknown): { ok: true; pages: number[] } | { ok: false; error: string } {
  const parts = text(value).split(',').map((p) => p.trim()).filter((p) => p !== '');
  const pages: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { ok: false, error: `Page number format error: Invalid page number: ${part}` };
    pages.push(Number(part));
  }
  return { ok: true, pages };
}

/** Mistral parser: an API key, a PDF URL or upload, and a well-formed page list. */
export function validateMistralParse(params: Record<string, unknown>): string | undefined {
  if (isBlank(params.apiKey)) return 'Mistral API key is required';
  const method = text(params.inputMethod) || 'url';
  if (method === 'url' && isBlank(params.filePath)) return 'PDF Document URL is required';
  if (method === 'upload' && (params.fileUpload === undefined || params.fileUpload === null || params.fileUpload === '')) {
    return 'Please upload a PDF document';
  }
  const pages = parsePages(params.pages);
  return pages.ok ? undefined : pages.error;
}

const DRIVE_OR_DOCS = /(drive|docs)\.google\.com/i;
/** An uploaded PDF as the web form keeps it: a base64 data link (a file without a type is taken as one too). */
const PDF_DATA_LINK = /^data:(?:application\/pdf|application\/octet-stream)?;base64,/i;

/** The file path's own error: an http(s) URL that is not a Drive or Docs link, or an uploaded PDF's data link. */
function filePathError(path: string): string | undefined {
  if (/^data:/i.test(path)) return PDF_DATA_LINK.test(path) ? undefined : 'Unsupported format - the uploaded file is not a PDF document';
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    return 'Invalid URL format: Please provide a valid HTTP or HTTPS URL to a PDF document';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Invalid URL format: Please provide a valid HTTP or HTTPS URL to a PDF document';
  if (DRIVE_OR_DOCS.test(url.hostname)) {
    return 'Google Drive and Google Docs links are not supported: Please provide a direct download link to the PDF file';
  }
  return undefined;
}

/**
 * Mistral OCR tool: a key, an http(s) URL that is not a Drive or Docs link, or an uploaded PDF's
 * base64 data link (Mistral takes one as the document URL). A non-.pdf URL is allowed (only warned about).
 */
export function validateMistralTool(params: Record<string, unknown>): string | undefined {
  if (typeof params.apiKey !== 'string' || params.apiKey.trim() === '') return 'Missing or invalid API key: A valid Mistral API key is required';
  const pathError = filePathError(text(params.filePath));
  if (pathError) return pathError;
  const type = text(params.resultType);
  if (type !== '' && !['markdown', 'text', 'json'].includes(type)) return `Invalid result type: ${type}`;
  return undefined;
}
