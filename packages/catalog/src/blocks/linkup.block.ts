import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField } from './fields.js';

/** Linkup: web search giving an answer with sources or raw results. */
export const linkupBlock: BlockConfig = {
  type: 'linkup',
  name: 'Linkup',
  description: 'Search the web with Linkup',
  longDescription: 'Linkup Search lets you retrieve real-time information from the web, as a sourced answer or as search results, at standard or deep depth.',
  docsLink: 'https://docs.weft.dev/tools/linkup',
  category: 'tools',
  bgColor: '#D6D3C7',
  icon: 'LinkupIcon',
  subBlocks: [
    longInput('q', 'Search Query', 'Enter your search query'),
    dropdown('outputType', 'Output Type', [['sourcedAnswer', 'Answer'], ['searchResults', 'Search']], { layout: 'half' }),
    dropdown('depth', 'Search Depth', [['standard', 'Standard'], ['deep', 'Deep']], { layout: 'half' }),
    secretField('apiKey', 'API Key', 'Enter your Linkup API key'),
  ],
  tools: { access: ['linkup_search'] },
  inputs: {
    q: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    depth: { type: 'string', required: true },
    outputType: { type: 'string', required: true },
  },
  outputs: { answer: 'string', sources: 'json' },
};
