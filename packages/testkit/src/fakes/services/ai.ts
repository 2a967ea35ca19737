import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** An OpenAI-style chat completion answer. */
function completion(id: string, model: string, content: string, usage: [prompt: number, completion: number]) {
  return {
    id,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1] },
  };
}

/** Recorded answers of the model-backed tool APIs (chat, embeddings, images, vision, OCR). */
export const AI_FIXTURES = {
  perplexity: completion('pplx-1', 'sonar', 'Weft is a workflow builder.', [12, 7]),
  huggingface: completion('hf-1', 'deepseek/deepseek-v3', 'Hello from HF', [5, 4]),
  embeddings: {
    object: 'list',
    model: 'text-embedding-3-small',
    data: [{ object: 'embedding', index: 0, embedding: [0.01, -0.02, 0.03] }],
    usage: { prompt_tokens: 3, total_tokens: 3 },
  },
  imageUrl: { created: 1714557600, data: [{ url: 'https://images.example/cat.png', revised_prompt: 'A cat on a mat, watercolour' }] },
  imageB64: { created: 1714557600, data: [{ b64_json: 'iVBORw0KGgo=' }] },
  visionOpenai: completion('chatcmpl-v', 'gpt-4o-2024-08-06', 'A red bicycle.', [800, 5]),
  visionAnthropic: {
    id: 'msg_1',
    type: 'message',
    model: 'claude-3-opus-20240229',
    content: [{ type: 'text', text: 'A blue boat.' }],
    usage: { input_tokens: 700, output_tokens: 6 },
  },
  ocr: {
    model: 'mistral-ocr-2505',
    pages: [
      { index: 0, markdown: '# Report\n\nRevenue **grew**.', images: [], dimensions: { dpi: 200, height: 2200, width: 1700 } },
      { index: 1, markdown: 'See [appendix](https://weft.example/a).', images: [] },
    ],
    usage_info: { pages_processed: 2, doc_size_bytes: 52311 },
  },
};

/**
 * A fake of the model-backed APIs tools call: OpenAI under /openai, Anthropic /anthropic, Perplexity
 * /perplexity, the Hugging Face router /huggingface (its OpenAI-compatible /v1/chat/completions), Mistral /mistral.
 */
export function createFakeAi(): Promise<FakeServer> {
  const f = AI_FIXTURES;
  return createServiceFake([
    ['POST', '/perplexity/chat/completions', { json: f.perplexity }],
    ['POST', '/huggingface/v1/chat/completions', { json: f.huggingface }],
    ['POST', '/openai/embeddings', { json: f.embeddings }],
    ['POST', '/openai/images/generations', (req) => ({ json: (req.body as { model?: string }).model === 'gpt-image-1' ? f.imageB64 : f.imageUrl })],
    ['POST', '/openai/chat/completions', { json: f.visionOpenai }],
    ['POST', '/anthropic/messages', { json: f.visionAnthropic }],
    ['POST', '/mistral/ocr', { json: f.ocr }],
  ]);
}
