import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Google Custom Search (at most 10 results). */
export const googleSearchTools: ToolConfig[] = [
  defineTool({
    id: 'google_search',
    name: 'Google Search',
    description: 'Search the web with the Custom Search API',
    params: {
      query: need('string', 'llm', 'The search query to execute'),
      apiKey: need('string', 'user', 'Google API key'),
      searchEngineId: need('string', 'user', 'Custom Search Engine ID'),
      num: may('string', 'user', 'Number of results to return (default: 10, max: 10)'),
    },
    request: { method: 'GET', url: 'https://www.googleapis.com/customsearch/v1?q={query}&key={apiKey}&cx={searchEngineId}&num={num}' },
  }),
];
