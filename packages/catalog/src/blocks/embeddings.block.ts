import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField } from './fields.js';

/** Embeddings: OpenAI text embeddings. */
export const embeddingsBlock: BlockConfig = {
  type: 'embeddings',
  name: 'Embeddings',
  description: 'Generate OpenAI embeddings',
  longDescription: "Convert text into numerical vector representations using OpenAI's embedding models (default text-embedding-3-small, float encoding).",
  docsLink: 'https://docs.weft.dev/tools/openai',
  category: 'tools',
  bgColor: '#10a37f',
  icon: 'OpenAIIcon',
  subBlocks: [
    longInput('input', 'Input Text', 'Enter text to generate embeddings for'),
    dropdown('model', 'Model', ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'], { layout: 'half' }),
    secretField('apiKey', 'API Key', 'Enter your OpenAI API key'),
  ],
  tools: { access: ['openai_embeddings'] },
  inputs: {
    input: { type: 'string', required: true },
    model: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { embeddings: 'json', model: 'string', usage: 'json' },
};
