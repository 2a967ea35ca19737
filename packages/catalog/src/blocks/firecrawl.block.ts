import { operationTool, parseJson, text, toBoolean, toInt } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { operationField, secretField, shortInput, when } from './fields.js';

const TOOL_BY_OPERATION = { scrape: 'firecrawl_scrape', search: 'firecrawl_search', crawl: 'firecrawl_crawl' } as const;

/** Firecrawl page limit default (§9). */
export const FIRECRAWL_CRAWL_LIMIT = 100;

/**
 * The crawl limit is parsed as an integer (§5); a scrape's Only Main Content switch goes into the
 * scrape tool's `scrapeOptions` (beside options given there), left to Firecrawl's default when unset.
 */
function firecrawlParams(p: Record<string, unknown>): Record<string, unknown> {
  if (p.operation === 'scrape') {
    const only = toBoolean(p.onlyMainContent);
    if (typeof only !== 'boolean') return p;
    const given = parseJson(p.scrapeOptions ?? {});
    const options = given.ok && typeof given.value === 'object' && given.value !== null && !Array.isArray(given.value) ? given.value : {};
    return { ...p, scrapeOptions: { ...options, onlyMainContent: only } };
  }
  if (p.operation !== 'crawl') return p;
  return { ...p, limit: text(p.limit) === '' ? FIRECRAWL_CRAWL_LIMIT : toInt(p.limit, FIRECRAWL_CRAWL_LIMIT) };
}

/** Firecrawl: scrape a page, search the web, crawl a site. */
export const firecrawlBlock: BlockConfig = {
  type: 'firecrawl',
  name: 'Firecrawl',
  description: 'Scrape or search the web',
  longDescription:
    'Extract content from any website with advanced web scraping, search the web for information, or crawl entire websites. Crawl jobs are polled every 5 seconds for up to 300 seconds.',
  docsLink: 'https://docs.weft.dev/tools/firecrawl',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'FirecrawlIcon',
  subBlocks: [
    operationField([['scrape', 'Scrape'], ['search', 'Search'], ['crawl', 'Crawl']]),
    shortInput('url', 'Website URL', 'Enter the website URL', { condition: when('operation', ['scrape', 'crawl']) }),
    { id: 'onlyMainContent', title: 'Only Main Content', type: 'switch', layout: 'half', condition: when('operation', 'scrape') },
    shortInput('limit', 'Page Limit', '100', { layout: 'half', condition: when('operation', 'crawl') }),
    shortInput('query', 'Search Query', 'Enter the search query', { condition: when('operation', 'search') }),
    secretField('apiKey', 'API Key', 'Enter your Firecrawl API key'),
  ],
  tools: { access: Object.values(TOOL_BY_OPERATION), config: { tool: operationTool(TOOL_BY_OPERATION, (op) => `Invalid Firecrawl operation: ${op}`), params: firecrawlParams } },
  inputs: {
    operation: { type: 'string', required: true },
    apiKey: { type: 'string', required: true },
    url: { type: 'string', required: false },
    limit: { type: 'string', required: false },
    query: { type: 'string', required: false },
    onlyMainContent: { type: 'boolean', required: false },
  },
  outputs: {
    markdown: 'string', html: 'any', metadata: 'json', data: 'json', warning: 'any', pages: 'json', total: 'number', creditsUsed: 'number',
  },
};
