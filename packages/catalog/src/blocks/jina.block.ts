import type { BlockConfig } from '../types.js';
import { secretField, shortInput } from './fields.js';

/** Jina: reads a URL into clean text. */
export const jinaBlock: BlockConfig = {
  type: 'jina',
  name: 'Jina',
  description: 'Convert website content into text',
  longDescription: "Transform web content into clean, readable text using Jina AI's Reader. Optionally gather links and images.",
  docsLink: 'https://docs.weft.dev/tools/jina',
  category: 'tools',
  bgColor: '#333333',
  icon: 'JinaAIIcon',
  subBlocks: [
    shortInput('url', 'URL', 'Enter URL to extract content from'),
    {
      id: 'options',
      title: 'Options',
      type: 'checkbox-list',
      layout: 'full',
      options: [
        { id: 'useReaderLMv2', label: 'Use Reader LM v2' },
        { id: 'gatherLinks', label: 'Gather Links' },
        { id: 'jsonResponse', label: 'JSON Response' },
      ],
    },
    secretField('apiKey', 'API Key', 'Enter your Jina API key'),
  ],
  tools: { access: ['jina_read_url'] },
  inputs: {
    url: { type: 'string', required: true },
    useReaderLMv2: { type: 'boolean', required: false },
    gatherLinks: { type: 'boolean', required: false },
    jsonResponse: { type: 'boolean', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string' },
};
