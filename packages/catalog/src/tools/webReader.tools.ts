import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Jina reader and Linkup search. */
export const webReaderTools: ToolConfig[] = [
  defineTool({
    id: 'jina_read_url',
    name: 'Jina Reader',
    description: 'Extract and process web content into clean, LLM-friendly text using Jina AI Reader',
    params: {
      url: need('string', 'llm', 'The URL to read and convert to markdown'),
      useReaderLMv2: may('boolean', 'user', 'Whether to use ReaderLM-v2 for better quality', false),
      gatherLinks: may('boolean', 'user', 'Whether to gather all links at the end', false),
      jsonResponse: may('boolean', 'user', 'Whether to return the response in JSON format', false),
      apiKey: need('string', 'user', 'Your Jina AI API key'),
    },
    request: { method: 'GET', url: 'https://r.jina.ai/{url}', headers: { Authorization: 'Bearer {apiKey}', Accept: 'application/json' } },
  }),
  defineTool({
    id: 'linkup_search',
    name: 'Linkup Search',
    description: 'Search the web for information using Linkup',
    params: {
      q: need('string', 'llm', 'The search query'),
      depth: need('string', 'user', 'Search depth (standard or deep)'),
      outputType: need('string', 'user', 'Type of output to return (sourcedAnswer or searchResults)'),
      apiKey: need('string', 'user', 'Enter your Linkup API key'),
    },
    request: { method: 'POST', url: 'https://api.linkup.so/v1/search', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
