import { operationTool, text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { search: 'tavily_search', extract: 'tavily_extract' } as const;

/** Tavily: AI search and page content extraction. */
export const tavilyBlock: BlockConfig = {
  type: 'tavily',
  name: 'Tavily',
  description: 'Search and extract information',
  longDescription:
    "Access Tavily's AI-powered search engine to find relevant information from across the web, and extract content from specific URLs.",
  docsLink: 'https://docs.weft.dev/tools/tavily',
  category: 'tools',
  bgColor: '#0066FF',
  icon: 'TavilyIcon',
  subBlocks: [
    operationField([['search', 'Search'], ['extract', 'Extract Content']]),
    secretField('apiKey', 'API Key', 'Enter your Tavily API key'),
    longInput('query', 'Search Query', 'Enter your search query...', { condition: when('operation', 'search') }),
    shortInput('maxResults', 'Max Results', '5', { layout: 'half', min: 1, max: 20, condition: when('operation', 'search') }),
    longInput('urls', 'URL', 'Enter URL to extract content from...', { condition: when('operation', 'extract') }),
    dropdown('extract_depth', 'Extract Depth', [['basic', 'basic'], ['advanced', 'advanced']], { layout: 'half', condition: when('operation', 'extract') }),
  ],
  tools: {
    access: Object.values(TOOL_BY_OPERATION),
    config: {
      tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Tavily operation: ${op}`),
      // The form's Max Results is the search tool's max_results (the tool clamps it to 1-20, default 5).
      params: ({ maxResults, ...rest }) => (text(maxResults) === '' ? rest : { ...rest, max_results: maxResults }),
    },
  },
  inputs: {
    operation: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    query: { type: 'string', required: false },
    maxResults: { type: 'number', required: false },
    urls: { type: 'string', required: false },
    extract_depth: { type: 'string', required: false },
  },
  outputs: { results: 'json', answer: 'any', query: 'string', content: 'string', title: 'string', url: 'string' },
};
