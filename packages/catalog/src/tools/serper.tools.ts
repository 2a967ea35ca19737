import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Serper web, news, places and image search. */
export const serperTools: ToolConfig[] = [
  defineTool({
    id: 'serper_search',
    name: 'Web Search',
    description: 'A powerful web search tool that provides access to Google search results through the Serper.dev API',
    params: {
      query: need('string', 'llm', 'The search query'),
      num: may('number', 'user', 'Number of results to return', 10),
      gl: may('string', 'user', 'Country code for search results'),
      hl: may('string', 'user', 'Language code for search results'),
      type: may('string', 'user', 'Type of search to perform (search, news, places, images)', 'search'),
      apiKey: need('string', 'user', 'Serper API Key'),
    },
    request: { method: 'POST', url: 'https://google.serper.dev/{type}', headers: { 'X-API-KEY': '{apiKey}', 'Content-Type': 'application/json' } },
  }),
];
