import type { BlockConfig } from '../types.js';
import { secretField, shortInput } from './fields.js';

/** Google Search: programmable search engine results. */
export const googleSearchBlock: BlockConfig = {
  type: 'google_search',
  name: 'Google Search',
  description: 'Search the web',
  longDescription: 'Search the web using the Google Custom Search API, which returns up to 10 results per query.',
  docsLink: 'https://docs.weft.dev/tools/google_search',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'GoogleIcon',
  subBlocks: [
    shortInput('query', 'Search Query', 'Enter your search query'),
    shortInput('searchEngineId', 'Custom Search Engine ID', 'Enter your Custom Search Engine ID'),
    secretField('apiKey', 'API Key', 'Enter your Google API key'),
    shortInput('num', 'Number of Results', '10', { layout: 'half', max: 10 }),
  ],
  tools: { access: ['google_search'] },
  inputs: {
    query: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    searchEngineId: { type: 'string', required: true },
    num: { type: 'string', required: false },
  },
  outputs: { items: 'json', searchInformation: 'json' },
};
