import { commaList } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { secretField, shortInput } from './fields.js';

const FLAGS = ['useReaderLMv2', 'gatherLinks', 'jsonResponse'] as const;

/**
 * The Options checkbox list holds the chosen option ids (a list, or ids comma-separated); each is the
 * reader tool's flag of that name, true when chosen. Without the list, flags given on their own stay.
 */
function jinaParams(p: Record<string, unknown>): Record<string, unknown> {
  if (p.options === undefined || p.options === null) return p;
  const chosen = new Set(commaList(p.options));
  return { ...p, ...Object.fromEntries(FLAGS.map((f) => [f, chosen.has(f)])) };
}

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
  tools: { access: ['jina_read_url'], config: { params: jinaParams } },
  inputs: {
    url: { type: 'string', required: true },
    options: { type: 'array', required: false },
    useReaderLMv2: { type: 'boolean', required: false },
    gatherLinks: { type: 'boolean', required: false },
    jsonResponse: { type: 'boolean', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string' },
};
