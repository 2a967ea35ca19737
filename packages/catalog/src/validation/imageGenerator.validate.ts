import { isBlank } from '../paramValues.js';

/** Image generator: an API key and a prompt. */
export function validateImageGenerator(params: Record<string, unknown>): string | undefined {
  if (isBlank(params.apiKey)) return 'API key is required';
  if (isBlank(params.prompt)) return 'Prompt is required';
  return undefined;
}
