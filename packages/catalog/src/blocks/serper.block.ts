import type { BlockConfig } from '../types.js';
import { dropdown, secretField, shortInput } from './fields.js';

/** Serper: Google search results through the Serper API. */
export const serperBlock: BlockConfig = {
  type: 'serper',
  name: 'Serper',
  description: 'Search the web using Serper',
  longDescription:
    "Access real-time web search results with Serper's Google Search API. Search the web, news, places or images, by country and language.",
  docsLink: 'https://docs.weft.dev/tools/serper',
  category: 'tools',
  bgColor: '#2B3543',
  icon: 'SerperIcon',
  subBlocks: [
    shortInput('query', 'Search Query', 'Enter your search query...'),
    dropdown('type', 'Search Type', [['search', 'search'], ['news', 'news'], ['places', 'places'], ['images', 'images']], { layout: 'half' }),
    dropdown('num', 'Number of Results', ['10', '20', '30', '40', '50', '100'], { layout: 'half' }),
    dropdown('gl', 'Country', ['US', 'GB', 'CA', 'AU', 'DE', 'FR'], { layout: 'half' }),
    dropdown('hl', 'Language', ['en', 'es', 'fr', 'de', 'it'], { layout: 'half' }),
    secretField('apiKey', 'API Key', 'Enter your Serper API key'),
  ],
  tools: { access: ['serper_search'] },
  inputs: {
    query: { type: 'string', required: true },
    type: { type: 'string', required: false },
    num: { type: 'number', required: false },
    gl: { type: 'string', required: false },
    hl: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { searchResults: 'json' },
};
