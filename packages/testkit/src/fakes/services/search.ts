import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** Recorded answers of the web search, reading and crawling services. */
export const SEARCH_FIXTURES = {
  exaSearch: {
    requestId: 'req-1',
    results: [
      { id: 'https://weft.example/a', title: 'Workflows', url: 'https://weft.example/a', publishedDate: '2025-04-01T00:00:00.000Z', author: 'Ada', score: 0.91, favicon: 'https://weft.example/favicon.ico', image: 'https://weft.example/a.png', text: 'About workflows', summary: 'Short' },
    ],
  },
  exaContents: { results: [{ id: 'https://weft.example/a', url: 'https://weft.example/a', title: 'Workflows', text: 'Full text', summary: 'Summary of a' }] },
  exaSimilar: { results: [{ id: 'https://other.example/b', url: 'https://other.example/b', title: 'Similar', score: 0.8, text: 'Other text' }] },
  exaAnswer: { answer: 'Weft builds workflows.', citations: [{ id: 'c1', title: 'Docs', url: 'https://weft.example/docs', text: 'Weft builds workflows' }] },
  exaResearchCreated: { id: 'task-1', status: 'running' },
  exaResearchDone: {
    id: 'task-1',
    status: 'completed',
    data: { summary: 'Findings' },
    citations: { summary: [{ id: 'c1', title: 'Source', url: 'https://weft.example/s', text: 'source text' }] },
  },
  tavilySearch: { query: 'weft', answer: null, results: [{ title: 'Weft', url: 'https://weft.example', content: 'Workflow builder', score: 0.77, raw_content: null }], response_time: 1.1 },
  tavilyExtract: { results: [{ url: 'https://weft.example', raw_content: '# Weft' }], failed_results: [{ url: 'https://down.example', error: 'timeout' }], response_time: 0.5 },
  serper: {
    searchParameters: { q: 'weft', type: 'search' },
    organic: [{ title: 'Weft', link: 'https://weft.example', snippet: 'Workflow builder', position: 1 }],
    news: [{ title: 'Weft 1.0', link: 'https://news.dev/weft', snippet: 'Released', date: '1 day ago', source: 'News' }],
  },
  googleSearch: {
    searchInformation: { searchTime: 0.21, formattedSearchTime: '0.21', totalResults: '1200', formattedTotalResults: '1,200' },
    items: [{ kind: 'customsearch#result', title: 'Weft', link: 'https://weft.example', displayLink: 'weft.example', snippet: 'Workflow builder' }],
  },
  youtube: {
    kind: 'youtube#searchListResponse',
    nextPageToken: 'CAUQAA',
    pageInfo: { totalResults: 4200, resultsPerPage: 5 },
    items: [
      {
        id: { kind: 'youtube#video', videoId: 'vid-1' },
        snippet: { title: 'Weft in 5 minutes', description: 'A tour', thumbnails: { default: { url: 'https://thumbnails.example.invalid/d.jpg' }, medium: { url: 'https://thumbnails.example.invalid/m.jpg' } } },
      },
    ],
  },
  jinaJson: { code: 200, status: 20000, data: { title: 'Weft', url: 'https://weft.example/', content: '# Weft\nWorkflows' } },
  jinaText: 'Title: Weft\n\n# Weft\nWorkflows',
  linkupAnswer: { answer: 'Weft is a workflow builder.', sources: [{ name: 'Weft', url: 'https://weft.example', snippet: 'Workflow builder' }] },
  linkupResults: { results: [{ type: 'text', name: 'Weft', url: 'https://weft.example', content: 'Workflow builder' }] },
  firecrawlScrape: { success: true, data: { markdown: '# Weft', html: '<h1>Weft</h1>', metadata: { title: 'Weft', sourceURL: 'https://weft.example', statusCode: 200 } } },
  firecrawlSearch: { success: true, data: [{ url: 'https://weft.example', title: 'Weft', description: 'Workflow builder' }], warning: null },
  firecrawlCrawlCreated: { success: true, id: 'crawl-1', url: 'https://api.firecrawl.dev/v1/crawl/crawl-1' },
  firecrawlCrawlDone: {
    status: 'completed',
    total: 2,
    completed: 2,
    creditsUsed: 2,
    data: [
      { markdown: '# Home', html: '<h1>Home</h1>', metadata: { sourceURL: 'https://weft.example' } },
      { markdown: '# Docs', metadata: { sourceURL: 'https://weft.example/docs' } },
    ],
  },
};

/**
 * A fake of the search services: Exa under /exa, Tavily /tavily, Serper /serper, Google Custom Search
 * /customsearch, YouTube /youtube, Jina /jina (reading https://weft.example/), Linkup /linkup, Firecrawl /firecrawl. Research tasks
 * and crawls answer "completed" unless a test scripts "running" answers first.
 */
export function createFakeSearch(): Promise<FakeServer> {
  const f = SEARCH_FIXTURES;
  return createServiceFake([
    ['POST', '/exa/search', { json: f.exaSearch }],
    ['POST', '/exa/contents', { json: f.exaContents }],
    ['POST', '/exa/findSimilar', { json: f.exaSimilar }],
    ['POST', '/exa/answer', { json: f.exaAnswer }],
    ['POST', '/exa/research/v0/tasks', { status: 201, json: f.exaResearchCreated }],
    ['GET', '/exa/research/v0/tasks/:id', { json: f.exaResearchDone }],
    ['POST', '/tavily/search', { json: f.tavilySearch }],
    ['POST', '/tavily/extract', { json: f.tavilyExtract }],
    ['POST', '/serper/:type', { json: f.serper }],
    ['GET', '/customsearch', { json: f.googleSearch }],
    ['GET', '/youtube/search', { json: f.youtube }],
    ['GET', '/jina/https://weft.example/', (req) => (req.headers.accept === 'application/json' ? { json: f.jinaJson } : { text: f.jinaText })],
    ['POST', '/linkup/search', (req) => ({ json: (req.body as { outputType?: string }).outputType === 'searchResults' ? f.linkupResults : f.linkupAnswer })],
    ['POST', '/firecrawl/scrape', { json: f.firecrawlScrape }],
    ['POST', '/firecrawl/search', { json: f.firecrawlSearch }],
    ['POST', '/firecrawl/crawl', { json: f.firecrawlCrawlCreated }],
    ['GET', '/firecrawl/crawl/:id', { json: f.firecrawlCrawlDone }],
  ]);
}
