import { SEARCH_FIXTURES, createFakeSearch } from '@weft/testkit';
import { describe, expect, it } from 'vitest';
import { blockRun, useFamily } from '../testSupport.js';
import { searchTools } from './search.tools.js';

const s = useFamily(
  createFakeSearch,
  { exa: '/exa', tavily: '/tavily', serper: '/serper', googleSearch: '/customsearch', youtube: '/youtube', jina: '/jina', linkup: '/linkup', firecrawl: '/firecrawl' },
  searchTools,
);
const f = SEARCH_FIXTURES;
// Exa research and Firecrawl crawl are polling jobs: src/jobs/jobs.int.test.ts.

describe('exa', () => {
  it('exa_search posts query, clamped count, autoprompt and type with the key header, and answers search results', async () => {
    const r = await s.run('exa_search', { apiKey: 'exa-1', query: ' weft ', numResults: 40, useAutoprompt: 'true', type: 'psychic' });
    s.expectRequest('exa_search', 'POST', '/exa/search', { headers: { 'x-api-key': 'exa-1', 'content-type': 'application/json' }, body: { query: 'weft', numResults: 25, useAutoprompt: true, type: 'auto' } });
    const hit = f.exaSearch.results[0]!;
    expect(r).toEqual({
      success: true,
      output: { results: [{ title: hit.title, url: hit.url, publishedDate: hit.publishedDate, author: 'Ada', summary: 'Short', favicon: hit.favicon, image: hit.image, text: 'About workflows', score: 0.91 }] },
    });
  });

  it('exa_search defaults to 10 results and gives the §8 messages for 401 and 429', async () => {
    s.fake.once('POST', '/exa/search', { status: 401, json: { error: 'bad key' } });
    await s.expectError('exa_search', { apiKey: 'k', query: 'q' }, 'Invalid API key. Please check your Exa AI API key.');
    s.expectRequest('exa_search', 'POST', '/exa/search', { body: { query: 'q', numResults: 10, useAutoprompt: false, type: 'auto' } });
    s.fake.once('POST', '/exa/search', { status: 429, json: {} });
    await s.expectError('exa_search', { apiKey: 'k', query: 'q' }, 'Rate limit exceeded. Please try again later.');
  });

  it('an Exa endpoint answering 410 (retired, as research/v0 may be) fails saying which endpoint Exa no longer serves', async () => {
    s.fake.once('POST', '/exa/search', { status: 410, json: {} });
    await s.expectError('exa_search', { apiKey: 'k', query: 'q' }, 'Exa AI API error: Exa no longer serves /search (410 Gone)');
    s.fake.once('POST', '/exa/search', { status: 410, json: { error: 'This endpoint is deprecated; use /research/v1' } });
    await s.expectError('exa_search', { apiKey: 'k', query: 'q' }, 'Exa AI API error: Exa no longer serves /search (410 Gone): This endpoint is deprecated; use /research/v1');
  });

  it('exa_get_contents splits the urls and sends the summary query', async () => {
    const r = await s.run('exa_get_contents', { apiKey: 'k', urls: 'https://weft.example/a, ,https://weft.example/b', text: true, summaryQuery: 'what' });
    s.expectRequest('exa_get_contents', 'POST', '/exa/contents', { headers: { 'x-api-key': 'k' }, body: { urls: ['https://weft.example/a', 'https://weft.example/b'], text: true, summary: { query: 'what' } } });
    expect(r).toEqual({ success: true, output: { results: [{ url: 'https://weft.example/a', title: 'Workflows', text: 'Full text', summary: 'Summary of a' }] } });
  });

  it('exa_get_contents passes other API errors through', async () => {
    s.fake.once('POST', '/exa/contents', { status: 400, json: { error: 'urls must not be empty' } });
    await s.expectError('exa_get_contents', { apiKey: 'k', urls: ' , ' }, 'Exa AI API error: urls must not be empty');
  });

  it('exa_find_similar_links sends url, count and text contents', async () => {
    const r = await s.run('exa_find_similar_links', { apiKey: 'k', url: 'https://weft.example', numResults: '3' });
    s.expectRequest('exa_find_similar_links', 'POST', '/exa/findSimilar', { headers: { 'x-api-key': 'k' }, body: { url: 'https://weft.example', numResults: 3, contents: { text: false } } });
    expect(r).toEqual({ success: true, output: { similarLinks: [{ url: 'https://other.example/b', title: 'Similar', text: 'Other text', score: 0.8 }] } });
    s.fake.once('POST', '/exa/findSimilar', { status: 401, json: {} });
    await s.expectError('exa_find_similar_links', { apiKey: 'k', url: 'u' }, 'Invalid API key. Please check your Exa AI API key.');
  });

  it('exa_answer answers query, answer and citations', async () => {
    const r = await s.run('exa_answer', { apiKey: 'k', query: 'what is weft' });
    s.expectRequest('exa_answer', 'POST', '/exa/answer', { headers: { 'x-api-key': 'k' }, body: { query: 'what is weft', text: false } });
    expect(r).toEqual({ success: true, output: { query: 'what is weft', answer: 'Weft builds workflows.', citations: [{ title: 'Docs', url: 'https://weft.example/docs', text: 'Weft builds workflows' }] } });
    s.fake.once('POST', '/exa/answer', { status: 429, json: {} });
    await s.expectError('exa_answer', { apiKey: 'k', query: 'q' }, 'Rate limit exceeded. Please try again later.');
  });
});

describe('tavily', () => {
  it('tavily_search clamps max_results to 1-20 (default 5) and answers query and results', async () => {
    const r = await s.run('tavily_search', { apiKey: 'tvly-1', query: 'weft', max_results: 50 });
    s.expectRequest('tavily_search', 'POST', '/tavily/search', { headers: { authorization: 'Bearer tvly-1', 'content-type': 'application/json' }, body: { query: 'weft', max_results: 20 } });
    expect(r).toEqual({ success: true, output: { query: 'weft', answer: null, results: [{ title: 'Weft', url: 'https://weft.example', content: 'Workflow builder', score: 0.77 }] } });
    await s.run('tavily_search', { apiKey: 'k', query: 'x' });
    s.expectRequest('tavily_search', 'POST', '/tavily/search', { body: { query: 'x', max_results: 5 } });
  });

  it('tavily_search fails with the API detail', async () => {
    s.fake.once('POST', '/tavily/search', { status: 401, json: { detail: { error: 'Unauthorized: missing or invalid API key.' } } });
    await s.expectError('tavily_search', { apiKey: 'k', query: 'q' }, 'Tavily API error: Unauthorized: missing or invalid API key.');
  });

  it('tavily_extract sends one url as a string, several as a list, and answers content per url', async () => {
    const r = await s.run('tavily_extract', { apiKey: 'k', urls: 'https://weft.example', extract_depth: 'advanced' });
    s.expectRequest('tavily_extract', 'POST', '/tavily/extract', { headers: { authorization: 'Bearer k' }, body: { urls: 'https://weft.example', extract_depth: 'advanced' } });
    expect(r).toEqual({ success: true, output: { results: [{ url: 'https://weft.example', content: '# Weft' }], failedResults: [{ url: 'https://down.example', error: 'timeout' }] } });
    await s.run('tavily_extract', { apiKey: 'k', urls: ['https://a.example', 'https://b.example'] });
    s.expectRequest('tavily_extract', 'POST', '/tavily/extract', { body: { urls: ['https://a.example', 'https://b.example'], extract_depth: 'basic' } });
    s.fake.once('POST', '/tavily/extract', { status: 432, json: { detail: { error: 'Plan limit reached' } } });
    await s.expectError('tavily_extract', { apiKey: 'k', urls: 'u' }, 'Tavily API error: Plan limit reached');
  });
});

describe('serper, google search and youtube', () => {
  it('serper_search posts q, num, gl and hl to the type path and answers that list', async () => {
    const r = await s.run('serper_search', { apiKey: 'sk', query: 'weft', num: 5, gl: 'de', hl: 'en', type: 'news' });
    s.expectRequest('serper_search', 'POST', '/serper/news', { headers: { 'x-api-key': 'sk', 'content-type': 'application/json' }, body: { q: 'weft', num: 5, gl: 'de', hl: 'en' } });
    expect(r).toEqual({ success: true, output: { searchResults: f.serper.news } });
    expect(await s.run('serper_search', { apiKey: 'sk', query: 'weft' })).toEqual({ success: true, output: { searchResults: f.serper.organic } });
    s.expectRequest('serper_search', 'POST', '/serper/search', { body: { q: 'weft', num: 10 } });
  });

  it('serper_search fails with the API message', async () => {
    s.fake.once('POST', '/serper/search', { status: 403, json: { message: 'Unauthorized.', statusCode: 403 } });
    await s.expectError('serper_search', { apiKey: 'bad', query: 'q' }, 'Serper API error: Unauthorized.');
  });

  it('google_search sends q, key, cx and num capped at 10', async () => {
    const r = await s.run('google_search', { apiKey: 'AIza', searchEngineId: 'cx1', query: 'weft', num: '50' });
    s.expectRequest('google_search', 'GET', '/customsearch', { query: { q: 'weft', key: 'AIza', cx: 'cx1', num: '10' } });
    expect(r).toEqual({
      success: true,
      output: {
        items: [{ title: 'Weft', link: 'https://weft.example', snippet: 'Workflow builder', displayLink: 'weft.example' }],
        searchInformation: { totalResults: '1200', searchTime: 0.21, formattedSearchTime: '0.21', formattedTotalResults: '1,200' },
      },
    });
    s.fake.once('GET', '/customsearch', { status: 400, json: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } } });
    await s.expectError('google_search', { apiKey: 'x', searchEngineId: 'c', query: 'q' }, 'Google Search API error: API key not valid. Please pass a valid API key.');
  });

  it('youtube_search asks for video snippets (default 5) and answers video items', async () => {
    const r = await s.run('youtube_search', { apiKey: 'yt', query: 'weft tour' });
    s.expectRequest('youtube_search', 'GET', '/youtube/search', { query: { part: 'snippet', type: 'video', q: 'weft tour', maxResults: '5', key: 'yt' } });
    expect(r).toEqual({
      success: true,
      output: { items: [{ videoId: 'vid-1', title: 'Weft in 5 minutes', description: 'A tour', thumbnail: 'https://thumbnails.example.invalid/m.jpg' }], totalResults: 4200, nextPageToken: 'CAUQAA' },
    });
  });

  it('youtube_search clamps to 20 and gives the API error with its code', async () => {
    s.fake.once('GET', '/youtube/search', { status: 403, json: { error: { code: 403, message: 'The request cannot be completed because you have exceeded your quota.' } } });
    await s.expectError('youtube_search', { apiKey: 'yt', query: 'q', maxResults: 99, pageToken: 'P2' }, 'YouTube API error (403): The request cannot be completed because you have exceeded your quota.');
    s.expectRequest('youtube_search', 'GET', '/youtube/search', { query: { part: 'snippet', type: 'video', q: 'q', maxResults: '20', pageToken: 'P2', key: 'yt' } });
  });
});

describe('jina and linkup', () => {
  it('jina_read_url reads the url through the reader with the option headers', async () => {
    const r = await s.run('jina_read_url', { apiKey: 'jina-1', url: 'https://weft.example/', useReaderLMv2: true, gatherLinks: true });
    s.expectRequest('jina_read_url', 'GET', '/jina/https://weft.example/', {
      headers: { authorization: 'Bearer jina-1', accept: 'text/plain', 'x-respond-with': 'readerlm-v2', 'x-with-links-summary': 'true' },
    });
    expect(r).toEqual({ success: true, output: { content: f.jinaText } });
  });

  it('jina_read_url answers the JSON content when asked, and fails with the API message', async () => {
    expect(await s.run('jina_read_url', { apiKey: 'k', url: 'https://weft.example/', jsonResponse: true })).toEqual({
      success: true,
      output: { content: '# Weft\nWorkflows', title: 'Weft', url: 'https://weft.example/' },
    });
    const req = s.expectRequest('jina_read_url', 'GET', '/jina/https://weft.example/', { headers: { authorization: 'Bearer k', accept: 'application/json' } });
    expect(req.headers['x-respond-with']).toBeUndefined();
    s.fake.once('GET', '/jina/https://weft.example/', { status: 401, json: { code: 401, message: 'Invalid API key' } });
    await s.expectError('jina_read_url', { apiKey: 'k', url: 'https://weft.example/' }, 'Jina Reader error: Invalid API key');
  });

  it('linkup_search asks for a sourced answer or search results', async () => {
    const r = await s.run('linkup_search', { apiKey: 'lk', q: 'weft', depth: 'deep', outputType: 'sourcedAnswer' });
    s.expectRequest('linkup_search', 'POST', '/linkup/search', { headers: { authorization: 'Bearer lk', 'content-type': 'application/json' }, body: { q: 'weft', depth: 'deep', outputType: 'sourcedAnswer' } });
    expect(r).toEqual({ success: true, output: { answer: 'Weft is a workflow builder.', sources: [{ name: 'Weft', url: 'https://weft.example', snippet: 'Workflow builder' }] } });
    expect(await s.run('linkup_search', { apiKey: 'lk', q: 'weft', depth: 'bogus', outputType: 'searchResults' })).toEqual({ success: true, output: { results: f.linkupResults.results } });
    s.expectRequest('linkup_search', 'POST', '/linkup/search', { body: { q: 'weft', depth: 'standard', outputType: 'searchResults' } });
    s.fake.once('POST', '/linkup/search', { status: 401, json: { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } } });
    await s.expectError('linkup_search', { apiKey: 'x', q: 'q', depth: 'standard', outputType: 'sourcedAnswer' }, 'Linkup API error: Invalid API key');
  });
});

describe('firecrawl', () => {
  it('firecrawl_scrape asks for markdown with the scrape options and answers markdown, html and metadata', async () => {
    const r = await s.run('firecrawl_scrape', { apiKey: 'fc-1', url: 'https://weft.example', scrapeOptions: '{"onlyMainContent":true}' });
    s.expectRequest('firecrawl_scrape', 'POST', '/firecrawl/scrape', { headers: { authorization: 'Bearer fc-1', 'content-type': 'application/json' }, body: { formats: ['markdown'], onlyMainContent: true, url: 'https://weft.example' } });
    expect(r).toEqual({ success: true, output: { markdown: '# Weft', html: '<h1>Weft</h1>', metadata: f.firecrawlScrape.data.metadata } });
  });

  it('firecrawl_scrape: bad options JSON, 401, 402 and 429 give their messages', async () => {
    expect(await s.run('firecrawl_scrape', { apiKey: 'k', url: 'u', scrapeOptions: '{bad' })).toMatchObject({ success: false, error: expect.stringMatching(/^Invalid JSON for scrapeOptions: /) });
    s.fake.once('POST', '/firecrawl/scrape', { status: 401, json: { success: false, error: 'Unauthorized' } });
    await s.expectError('firecrawl_scrape', { apiKey: 'k', url: 'u' }, 'Invalid API key. Please check your Firecrawl API key.');
    s.fake.once('POST', '/firecrawl/scrape', { status: 402, json: { success: false, error: 'Payment required' } });
    await s.expectError('firecrawl_scrape', { apiKey: 'k', url: 'u' }, 'Insufficient credits. Please check your Firecrawl plan and usage.');
    s.fake.once('POST', '/firecrawl/scrape', { status: 429, json: {} });
    await s.expectError('firecrawl_scrape', { apiKey: 'k', url: 'u' }, 'Rate limit exceeded. Please try again later.');
  });

  it('firecrawl_search posts the query and answers data and warning', async () => {
    const r = await s.run('firecrawl_search', { apiKey: 'k', query: 'weft docs' });
    s.expectRequest('firecrawl_search', 'POST', '/firecrawl/search', { headers: { authorization: 'Bearer k' }, body: { query: 'weft docs' } });
    expect(r).toEqual({ success: true, output: { data: f.firecrawlSearch.data, warning: null } });
    s.fake.once('POST', '/firecrawl/search', { status: 400, json: { success: false, error: 'Invalid query' } });
    await s.expectError('firecrawl_search', { apiKey: 'k', query: 'q' }, 'Firecrawl API error: Invalid query');
  });
});

describe('search blocks reach their tools', () => {
  it('Tavily: the form\'s Max Results is the max_results sent (clamped 1-20; empty keeps the default 5)', async () => {
    for (const [maxResults, sent] of [['12', 12], ['50', 20], ['', 5]] as const) {
      const { toolId, params } = blockRun('tavily', { operation: 'search', apiKey: 'tvly-1', query: 'weft', maxResults });
      await s.run(toolId, params);
      s.expectRequest('tavily_search', 'POST', '/tavily/search', { body: { query: 'weft', max_results: sent } });
    }
  });

  it('Firecrawl scrape: the Only Main Content switch is sent, on or off; unset leaves Firecrawl\'s default', async () => {
    for (const [only, body] of [[false, { onlyMainContent: false }], [true, { onlyMainContent: true }], [undefined, {}]] as const) {
      const { toolId, params } = blockRun('firecrawl', { operation: 'scrape', apiKey: 'fc-1', url: 'https://weft.example', onlyMainContent: only });
      await s.run(toolId, params);
      s.expectRequest('firecrawl_scrape', 'POST', '/firecrawl/scrape', { body: { formats: ['markdown'], ...body, url: 'https://weft.example' } });
    }
  });

  it('Jina: each ticked option is its reader flag (a list, or ids comma-separated); unticked ones are off', async () => {
    const ticked = blockRun('jina', { url: 'https://weft.example/', apiKey: 'jina-1', options: ['useReaderLMv2', 'gatherLinks'] });
    await s.run(ticked.toolId, ticked.params);
    s.expectRequest('jina_read_url', 'GET', '/jina/https://weft.example/', { headers: { accept: 'text/plain', 'x-respond-with': 'readerlm-v2', 'x-with-links-summary': 'true' } });
    const json = blockRun('jina', { url: 'https://weft.example/', apiKey: 'jina-1', options: 'jsonResponse', useReaderLMv2: true });
    expect(await s.run(json.toolId, json.params)).toMatchObject({ success: true, output: { title: 'Weft' } });
    const req = s.expectRequest('jina_read_url', 'GET', '/jina/https://weft.example/', { headers: { accept: 'application/json' } });
    expect([req.headers['x-respond-with'], req.headers['x-with-links-summary']]).toEqual([undefined, undefined]);
  });
});
