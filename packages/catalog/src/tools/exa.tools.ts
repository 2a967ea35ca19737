import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

/** Exa results: default 10, at most 25 (§5). */
export const EXA_RESULTS = { default: 10, max: 25 } as const;

/** Research polling: every 5 seconds, give up after 300 seconds. */
export const EXA_RESEARCH_POLLING = { intervalMs: 5_000, timeoutMs: 300_000 } as const;

const tool = toolFamily({
  baseUrl: 'https://api.exa.ai',
  headers: { 'x-api-key': '{apiKey}', 'Content-Type': 'application/json' },
  common: { apiKey: need('string', 'user', 'Exa AI API Key') },
});

/** Exa search, contents, similar links, answer and research. */
export const exaTools: ToolConfig[] = [
  tool('exa_search', 'Exa Search', 'Search the web using Exa AI. Returns relevant search results with titles, URLs, and text snippets.', 'POST', '/search', {
    query: need('string', 'llm', 'The search query to execute'),
    numResults: may('number', 'user', 'Number of results to return (default: 10, max: 25)', EXA_RESULTS.default),
    useAutoprompt: may('boolean', 'user', 'Whether to use autoprompt to improve the query', false),
    type: may('string', 'user', 'Search type: neural, keyword, auto or magic', 'auto'),
  }),
  tool('exa_get_contents', 'Exa Get Contents', 'Retrieve the contents of webpages using Exa AI', 'POST', '/contents', {
    urls: need('string', 'llm', 'Comma-separated list of URLs to retrieve content from'),
    text: may('boolean', 'user', 'Whether to include the full text of the page', false),
    summaryQuery: may('string', 'llm', 'Query to guide the summary generation'),
  }),
  tool('exa_find_similar_links', 'Exa Find Similar Links', 'Find webpages similar to a given URL using Exa AI', 'POST', '/findSimilar', {
    url: need('string', 'llm', 'The URL to find similar links for'),
    numResults: may('number', 'user', 'Number of similar links to return (default: 10, max: 25)', EXA_RESULTS.default),
    text: may('boolean', 'user', 'Whether to include the full text of the similar pages', false),
  }),
  tool('exa_answer', 'Exa Answer', 'Get an AI-generated answer to a question with citations from the web using Exa AI', 'POST', '/answer', {
    query: need('string', 'llm', 'The question to answer'),
    text: may('boolean', 'user', 'Whether to include the full text of the answer', false),
  }),
  tool('exa_research', 'Exa Research', 'Perform comprehensive research using AI to generate detailed reports with citations', 'POST', '/research/v0/tasks', {
    query: need('string', 'llm', 'Research query or topic'),
    includeText: may('boolean', 'user', 'Include full text content in results', false),
  }),
];
