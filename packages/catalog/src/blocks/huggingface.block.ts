import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, shortInput } from './fields.js';

/**
 * Hugging Face inference providers, by the router's names (the `:provider` suffix of the model). §2
 * says 12 with novita the default but does not list them; these are the router's providers that serve
 * chat completions.
 */
export const HUGGINGFACE_PROVIDERS = [
  ['novita', 'Novita'], ['cerebras', 'Cerebras'], ['cohere', 'Cohere'], ['featherless-ai', 'Featherless AI'], ['fireworks-ai', 'Fireworks'],
  ['groq', 'Groq'], ['hyperbolic', 'Hyperbolic'], ['hf-inference', 'HF Inference'], ['nebius', 'Nebius'], ['nscale', 'Nscale'],
  ['sambanova', 'SambaNova'], ['together', 'Together'],
] as const;

/** Hugging Face: chat completions through the inference router. */
export const huggingfaceBlock: BlockConfig = {
  type: 'huggingface',
  name: 'Hugging Face',
  description: 'Use Hugging Face Inference API',
  longDescription:
    'Generate completions with open models through the Hugging Face inference router. Choose a provider, a model, the temperature (0 to 2, default 0.7) and the maximum tokens.',
  docsLink: 'https://docs.weft.dev/tools/huggingface',
  category: 'tools',
  bgColor: '#0B0F19',
  icon: 'HuggingFaceIcon',
  subBlocks: [
    longInput('systemPrompt', 'System Prompt', 'Enter system prompt to guide the model behavior...', { rows: 3 }),
    longInput('content', 'User Prompt', 'Enter your message here...', { rows: 3 }),
    dropdown('provider', 'Provider', HUGGINGFACE_PROVIDERS, { layout: 'half', defaultValue: 'novita' }),
    shortInput('model', 'Model', 'e.g., deepseek/deepseek-v3-0324, llama3.1-8b', { layout: 'half' }),
    { id: 'temperature', title: 'Temperature', type: 'slider', layout: 'half', min: 0, max: 2, step: 0.1, defaultValue: 0.7 },
    shortInput('maxTokens', 'Max Tokens', 'e.g., 1000', { layout: 'half' }),
    secretField('apiKey', 'API Token', 'Enter your Hugging Face API token'),
  ],
  tools: { access: ['huggingface_chat'] },
  inputs: {
    systemPrompt: { type: 'string', required: false },
    content: { type: 'string', required: true },
    provider: { type: 'string', required: true },
    model: { type: 'string', required: true },
    temperature: { type: 'number', required: false },
    maxTokens: { type: 'number', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string', model: 'string', usage: 'json' },
};
