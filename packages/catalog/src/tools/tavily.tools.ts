import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Tavily search results: default 5, range 1 to 20. */
export const TAVILY_MAX_RESULTS = { default: 5, min: 1, max: 20 } as const;

const headers = { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' };

/** Tavily search and extract. */
export const tavilyTools: ToolConfig[] = [
  defineTool({
    id: 'tavily_search',
    name: 'Tavily Search',
    description: "Perform AI-powered web searches using Tavily's search API",
    params: {
      query: need('string', 'llm', 'The search query to execute'),
      max_results: may('number', 'llm', 'Maximum number of results (1-20)', TAVILY_MAX_RESULTS.default),
      apiKey: need('string', 'user', 'Tavily API Key'),
    },
    request: { method: 'POST', url: 'https://api.tavily.com/search', headers },
  }),
  defineTool({
    id: 'tavily_extract',
    name: 'Tavily Extract',
    description: "Extract raw content from web pages using Tavily's extraction API",
    params: {
      urls: need('string', 'llm', 'URL or array of URLs to extract content from'),
      extract_depth: may('string', 'user', 'The depth of extraction (basic or advanced)', 'basic'),
      apiKey: need('string', 'user', 'Tavily API Key'),
    },
    request: { method: 'POST', url: 'https://api.tavily.com/extract', headers },
  }),
];
