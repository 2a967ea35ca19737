import type { ToolConfig } from '../types.js';
import { may, need, toolFamily } from './define.js';

/** Crawl polling: every 5 seconds, give up after 300 seconds. */
export const FIRECRAWL_CRAWL_POLLING = { intervalMs: 5_000, timeoutMs: 300_000 } as const;

const tool = toolFamily({
  baseUrl: 'https://api.firecrawl.dev/v1',
  headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' },
  common: { apiKey: need('string', 'user', 'Firecrawl API key') },
});

/** Firecrawl scrape, search, crawl. */
export const firecrawlTools: ToolConfig[] = [
  tool('firecrawl_scrape', 'Firecrawl Website Scraper', 'Extract structured content from web pages with comprehensive metadata support', 'POST', '/scrape', {
    url: need('string', 'llm', 'The URL to scrape content from'),
    scrapeOptions: may('json', 'user', 'Options for content scraping (e.g. onlyMainContent)'),
  }),
  tool('firecrawl_search', 'Firecrawl Search', 'Search for information on the web using Firecrawl', 'POST', '/search', {
    query: need('string', 'llm', 'The search query to use'),
  }),
  tool('firecrawl_crawl', 'Firecrawl Crawl', 'Crawl entire websites and extract structured content from all accessible pages', 'POST', '/crawl', {
    url: need('string', 'llm', 'The website URL to crawl'),
    limit: may('number', 'user', 'Maximum number of pages to crawl (default: 100)', 100),
    onlyMainContent: may('boolean', 'user', 'Extract only main content from pages', false),
  }),
];
