import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Vision answers are limited to 1000 tokens (§9). */
export const VISION_MAX_TOKENS = 1000;

/**
 * The Anthropic model ids behind the vision block's choices: §2 fixes the names shown (claude-3-opus,
 * claude-3-sonnet), which Anthropic's API does not know, and the Claude 3 Opus and Sonnet models they
 * named are retired (Sonnet 3 in July 2025, Opus 3 in January 2026), so the call sends their current
 * successors the catalogue prices (its Anthropic models): Claude Opus 4 and Claude Sonnet 4.
 */
const VISION_MODEL_IDS: Readonly<Record<string, string>> = { 'claude-3-opus': 'claude-opus-4-0', 'claude-3-sonnet': 'claude-sonnet-4-0' };

/** The model id a vision call sends for a choice of the block (others, gpt-4o included, as chosen). */
export function visionModelId(model: string): string {
  return VISION_MODEL_IDS[model] ?? model;
}

/** Image analysis with OpenAI or Anthropic vision models. */
export const visionTools: ToolConfig[] = [
  defineTool({
    id: 'vision_tool',
    name: 'Vision Tool',
    description: 'Process and analyze images using advanced vision models; answers are limited to 1000 tokens',
    params: {
      apiKey: need('string', 'user', 'API key for the selected model provider'),
      imageUrl: need('string', 'llm', 'Publicly accessible image URL'),
      model: may('string', 'user', 'Vision model to use (gpt-4o, claude-3-opus, claude-3-sonnet)', 'gpt-4o'),
      prompt: may('string', 'llm', 'Custom prompt for image analysis'),
    },
    request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
