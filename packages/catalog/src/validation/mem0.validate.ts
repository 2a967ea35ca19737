import { isBlank, parseJson } from '../paramValues.js';

function messageErrors(messages: unknown): string[] {
  if (isBlank(messages)) return ['Messages are required for add operation'];
  const parsed = parseJson(messages);
  if (!parsed.ok) return ['Messages must be valid JSON'];
  const list = parsed.value;
  if (!Array.isArray(list) || list.length === 0) return ['Messages must be a non-empty array'];
  const wellFormed = list.every((m: unknown) => typeof m === 'object' && m !== null && 'role' in m && 'content' in m);
  return wellFormed ? [] : ['Each message must have role and content'];
}

/** Mem0: every problem is listed, joined with commas, under 'Mem0 Block Error'. */
export function validateMem0(params: Record<string, unknown>): string | undefined {
  const errors: string[] = [];
  if (isBlank(params.apiKey)) errors.push('API Key is required');
  if (params.operation === 'search') {
    if (isBlank(params.query)) errors.push('Search Query is required');
    if (isBlank(params.userId)) errors.push('User ID is required');
  }
  if (params.operation === 'add') {
    errors.push(...messageErrors(params.messages));
    if (isBlank(params.userId)) errors.push('User ID is required');
  }
  return errors.length > 0 ? `Mem0 Block Error: ${errors.join(', ')}` : undefined;
}
