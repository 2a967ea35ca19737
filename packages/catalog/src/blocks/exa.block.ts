import { operationTool } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, operationField, secretField, shortInput, when } from './fields.js';

/** Exa operation → tool id. */
export const EXA_TOOLS = {
  exa_search: 'exa_search',
  exa_get_contents: 'exa_get_contents',
  exa_find_similar_links: 'exa_find_similar_links',
  exa_answer: 'exa_answer',
  exa_research: 'exa_research',
} as const;

const SEARCHES = ['exa_search', 'exa_find_similar_links'];

/** Exa: neural web search, page contents, similar links, answers and research. */
export const exaBlock: BlockConfig = {
  type: 'exa',
  name: 'Exa',
  description: 'Search with Exa AI',
  longDescription:
    'Search the web, retrieve page contents, find similar links, answer questions with citations and run research tasks with Exa AI.',
  docsLink: 'https://docs.weft.dev/tools/exa',
  category: 'tools',
  bgColor: '#1F40ED',
  icon: 'ExaAIIcon',
  subBlocks: [
    operationField([['exa_search', 'Search'], ['exa_get_contents', 'Get Contents'], ['exa_find_similar_links', 'Find Similar Links'], ['exa_answer', 'Answer'], ['exa_research', 'Research']]),
    longInput('query', 'Search Query', 'Enter your search query...', { condition: when('operation', ['exa_search', 'exa_answer', 'exa_research']) }),
    shortInput('numResults', 'Number of Results', '10', { layout: 'half', condition: when('operation', SEARCHES) }),
    { id: 'useAutoprompt', title: 'Use Autoprompt', type: 'switch', layout: 'half', condition: when('operation', 'exa_search') },
    dropdown('type', 'Search Type', [['auto', 'Auto'], ['neural', 'Neural'], ['keyword', 'Keyword'], ['magic', 'Magic']], { layout: 'half', condition: when('operation', 'exa_search') }),
    longInput('urls', 'URLs', 'Enter URLs to retrieve content from (comma-separated)...', { condition: when('operation', 'exa_get_contents') }),
    { id: 'text', title: 'Include Text', type: 'switch', layout: 'half', condition: when('operation', ['exa_get_contents', 'exa_find_similar_links', 'exa_answer']) },
    shortInput('summaryQuery', 'Summary Query', 'Enter a query to guide the summary generation...', { condition: when('operation', 'exa_get_contents') }),
    shortInput('url', 'URL', 'Enter URL to find similar links for...', { condition: when('operation', 'exa_find_similar_links') }),
    { id: 'includeText', title: 'Include Full Text', type: 'switch', layout: 'half', condition: when('operation', 'exa_research') },
    secretField('apiKey', 'API Key', 'Enter your Exa API key'),
  ],
  tools: { access: Object.values(EXA_TOOLS), config: { tool: operationTool(EXA_TOOLS, (op) => `Invalid Exa operation: ${op}`) } },
  inputs: {
    operation: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    query: { type: 'string', required: false },
    numResults: { type: 'number', required: false },
    useAutoprompt: { type: 'boolean', required: false },
    type: { type: 'string', required: false },
    urls: { type: 'string', required: false },
    text: { type: 'boolean', required: false },
    summaryQuery: { type: 'string', required: false },
    url: { type: 'string', required: false },
    includeText: { type: 'boolean', required: false },
  },
  outputs: { results: 'json', similarLinks: 'json', answer: 'string', citations: 'json', research: 'json' },
};
