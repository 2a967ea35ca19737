import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, shortInput } from './fields.js';

/** Perplexity: search-grounded chat completions. */
export const perplexityBlock: BlockConfig = {
  type: 'perplexity',
  name: 'Perplexity',
  description: 'Use Perplexity AI chat models',
  longDescription: 'Generate completions using Perplexity AI models with real-time knowledge and search. Temperature 0 to 1, default 0.7.',
  docsLink: 'https://docs.weft.dev/tools/perplexity',
  category: 'tools',
  bgColor: '#20808D',
  icon: 'PerplexityIcon',
  subBlocks: [
    longInput('systemPrompt', 'System Prompt', 'Optional system instructions to guide the model'),
    longInput('content', 'User Prompt', 'Enter your prompt here...'),
    dropdown('model', 'Model', [['sonar', 'Sonar'], ['sonar-pro', 'Sonar Pro'], ['sonar-reasoning', 'Sonar Reasoning'], ['sonar-reasoning-pro', 'Sonar Reasoning Pro'], ['sonar-deep-research', 'Sonar Deep Research']], { layout: 'half' }),
    { id: 'temperature', title: 'Temperature', type: 'slider', layout: 'half', min: 0, max: 1, step: 0.1, defaultValue: 0.7 },
    shortInput('max_tokens', 'Max Tokens', 'Maximum number of tokens', { layout: 'half' }),
    secretField('apiKey', 'API Key', 'Enter your Perplexity API key'),
  ],
  tools: { access: ['perplexity_chat'] },
  inputs: {
    content: { type: 'string', required: true },
    systemPrompt: { type: 'string', required: false },
    model: { type: 'string', required: true },
    max_tokens: { type: 'string', required: false },
    temperature: { type: 'number', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string', model: 'string', usage: 'json' },
};
