import type { RunStreamChunk } from '@weft/contracts';
import type { ModelDeps } from './callModel.js';
import { modelConfigFromEnv } from './config.js';

/** Test wiring: every provider pointed at local fakes, chunks and warnings recorded. */
export function testModelDeps(env: Record<string, string>): ModelDeps & { chunks: RunStreamChunk[]; warnings: string[]; warned: Array<Record<string, unknown>> } {
  const chunks: RunStreamChunk[] = [];
  const warnings: string[] = [];
  const warned: Array<Record<string, unknown>> = [];
  return {
    config: modelConfigFromEnv(env),
    instance: 'test',
    publish: (_subject, chunk) => void chunks.push(chunk),
    logger: {
      warn: (data, message) => {
        warnings.push(message);
        warned.push(data);
      },
    },
    chunks,
    warnings,
    warned,
  };
}

/** Points every OpenAI-compatible provider at one fake. */
export function compatibleEnv(fakeUrl: string): Record<string, string> {
  return {
    WEFT_OPENAI_BASE_URL: `${fakeUrl}/v1`,
    WEFT_DEEPSEEK_BASE_URL: `${fakeUrl}/v1`,
    WEFT_XAI_BASE_URL: `${fakeUrl}/v1`,
    WEFT_CEREBRAS_BASE_URL: `${fakeUrl}/v1`,
    WEFT_GROQ_BASE_URL: `${fakeUrl}/openai/v1`,
    OLLAMA_URL: fakeUrl,
    WEFT_HUGGINGFACE_BASE_URL: fakeUrl,
    AZURE_OPENAI_ENDPOINT: fakeUrl,
  };
}
