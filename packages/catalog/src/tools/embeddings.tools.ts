import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** OpenAI embeddings. */
export const embeddingsTools: ToolConfig[] = [
  defineTool({
    id: 'openai_embeddings',
    name: 'OpenAI Embeddings',
    description: "Generate embeddings from text using OpenAI's embedding models",
    params: {
      input: need('string', 'llm', 'Text to generate embeddings for'),
      model: may('string', 'user', 'Model to use for embeddings', 'text-embedding-3-small'),
      encodingFormat: may('string', 'user', 'The format to return the embeddings in', 'float'),
      apiKey: need('string', 'user', 'OpenAI API key'),
    },
    request: { method: 'POST', url: 'https://api.openai.com/v1/embeddings', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
