import { isBlank, text } from '../paramValues.js';

/** File: a URL in URL mode, an uploaded file otherwise (upload is the default mode). */
export function validateFile(params: Record<string, unknown>): string | undefined {
  const method = text(params.inputMethod) || 'upload';
  if (method === 'url') return isBlank(params.filePath) ? 'File URL is required' : undefined;
  const file = params.file;
  const uploaded = Array.isArray(file) ? file.length > 0 : file !== undefined && file !== null && file !== '';
  return uploaded ? undefined : 'Please upload a file';
}
