import { EXA_RESULTS, TAVILY_MAX_RESULTS, clamp, commaList, parseJson, text, toInt } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, RATE_LIMITED, serviceTool, str, type ApiResponse, type CallSpec, type Obj } from '../http.js';

/** A boolean parameter as the block sends it (true or 'true'). */
export const flag = (v: unknown) => v === true || v === 'true';

// ---------------------------------------------------------------- Exa

/** The §8 messages for Exa: 401 and 429 have their own, otherwise the API's message. Exa research runs as a polling job (src/jobs). */
export async function exa(io: ToolIO, p: Obj, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<Obj> {
  const { path, ...rest } = spec;
  const res = await call(io, { method: 'POST', ...rest, url: `${io.baseUrl('exa')}${path}`, headers: { 'x-api-key': text(p.apiKey) }, answerStatuses: RATE_LIMITED });
  if (res.status === 401) throw new ToolError('Invalid API key. Please check your Exa AI API key.', 401);
  if (res.status === 429) throw new ToolError('Rate limit exceeded. Please try again later.', 429);
  // 410: Exa retired the endpoint (research/v0, which the spec names, is one); say so rather than 'Gone'.
  if (res.status === 410) throw new ToolError(`Exa AI API error: Exa no longer serves ${path} (410 Gone)${apiMessage(res, '') ? `: ${apiMessage(res, '')}` : ''}`, 410);
  if (!res.ok) throw new ToolError(`Exa AI API error: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

const EXA_TYPES = new Set(['neural', 'keyword', 'auto', 'magic']);
const exaCount = (v: unknown) => clamp(toInt(v, EXA_RESULTS.default), 1, EXA_RESULTS.max);

/** A web search result (§3). */
function exaResult(value: unknown) {
  const r = obj(value);
  return {
    title: r.title ?? '',
    url: r.url,
    publishedDate: r.publishedDate,
    author: r.author,
    summary: r.summary,
    favicon: r.favicon,
    image: r.image,
    text: r.text,
    score: r.score,
  };
}

const exaTools: ServiceTool[] = [
  serviceTool('exa_search', async (p, io) => {
    const type = text(p.type);
    const data = await exa(io, p, {
      path: '/search',
      json: { query: text(p.query), numResults: exaCount(p.numResults), useAutoprompt: flag(p.useAutoprompt), type: EXA_TYPES.has(type) ? type : 'auto' },
    });
    return { results: list(data.results).map(exaResult) };
  }),
  serviceTool('exa_get_contents', async (p, io) => {
    const summaryQuery = text(p.summaryQuery);
    const data = await exa(io, p, {
      path: '/contents',
      json: { urls: commaList(p.urls), text: flag(p.text), ...(summaryQuery ? { summary: { query: summaryQuery } } : {}) },
    });
    return { results: list(data.results).map((v) => ({ url: obj(v).url, title: obj(v).title ?? '', text: obj(v).text ?? '', summary: obj(v).summary ?? '' })) };
  }),
  serviceTool('exa_find_similar_links', async (p, io) => {
    const data = await exa(io, p, { path: '/findSimilar', json: { url: text(p.url), numResults: exaCount(p.numResults), contents: { text: flag(p.text) } } });
    return { similarLinks: list(data.results).map((v) => ({ url: obj(v).url, title: obj(v).title ?? '', text: obj(v).text ?? '', score: obj(v).score ?? 0 })) };
  }),
  serviceTool('exa_answer', async (p, io) => {
    const query = text(p.query);
    const data = await exa(io, p, { path: '/answer', json: { query, text: flag(p.text) } });
    return {
      query,
      answer: data.answer ?? '',
      citations: list(data.citations).map((v) => ({ title: obj(v).title ?? '', url: obj(v).url, text: obj(v).text ?? '' })),
    };
  }),
];

// ---------------------------------------------------------------- Tavily

async function tavily(io: ToolIO, p: Obj, path: string, json: Obj): Promise<Obj> {
  const res = await call(io, { method: 'POST', url: `${io.baseUrl('tavily')}${path}`, headers: bearer(p.apiKey), json });
  if (!res.ok) throw new ToolError(`Tavily API error: ${str(obj(obj(res.data).detail).error) ?? apiMessage(res)}`, res.status);
  return obj(res.data);
}

const tavilyTools: ServiceTool[] = [
  serviceTool('tavily_search', async (p, io) => {
    const query = text(p.query);
    const data = await tavily(io, p, '/search', { query, max_results: clamp(toInt(p.max_results, TAVILY_MAX_RESULTS.default), TAVILY_MAX_RESULTS.min, TAVILY_MAX_RESULTS.max) });
    return {
      query: data.query ?? query,
      answer: data.answer ?? null,
      results: list(data.results).map((v) => ({ title: obj(v).title ?? '', url: obj(v).url, content: obj(v).content ?? '', score: obj(v).score ?? 0 })),
    };
  }),
  serviceTool('tavily_extract', async (p, io) => {
    const parsed = Array.isArray(p.urls) ? p.urls : commaList(p.urls);
    const urls = parsed.map(text).filter((u) => u !== '');
    const depth = text(p.extract_depth) === 'advanced' ? 'advanced' : 'basic';
    const data = await tavily(io, p, '/extract', { urls: urls.length === 1 ? urls[0] : urls, extract_depth: depth });
    return {
      results: list(data.results).map((v) => ({ url: obj(v).url, content: obj(v).raw_content ?? '' })),
      failedResults: list(data.failed_results).map((v) => ({ url: obj(v).url, error: obj(v).error ?? '' })),
    };
  }),
];

// ---------------------------------------------------------------- Serper, Google Custom Search, YouTube

const SERPER_RESULTS: Record<string, string> = { search: 'organic', news: 'news', places: 'places', images: 'images' };

const googleLikeTools: ServiceTool[] = [
  serviceTool('serper_search', async (p, io) => {
    const type = Object.hasOwn(SERPER_RESULTS, text(p.type)) ? text(p.type) : 'search';
    const body: Obj = { q: text(p.query), num: toInt(p.num, 10) };
    if (text(p.gl)) body.gl = text(p.gl);
    if (text(p.hl)) body.hl = text(p.hl);
    const res = await call(io, { method: 'POST', url: `${io.baseUrl('serper')}/${type}`, headers: { 'X-API-KEY': text(p.apiKey) }, json: body });
    if (!res.ok) throw new ToolError(`Serper API error: ${apiMessage(res)}`, res.status);
    return { searchResults: list(obj(res.data)[SERPER_RESULTS[type]!]) };
  }),
  serviceTool('google_search', async (p, io) => {
    const res = await call(io, {
      url: io.baseUrl('googleSearch'),
      query: { q: text(p.query), key: text(p.apiKey), cx: text(p.searchEngineId), num: clamp(toInt(p.num, 10), 1, 10) },
    });
    if (!res.ok) throw new ToolError(`Google Search API error: ${apiMessage(res)}`, res.status);
    const d = obj(res.data);
    const info = obj(d.searchInformation);
    return {
      items: list(d.items).map((v) => ({ title: obj(v).title ?? '', link: obj(v).link, snippet: obj(v).snippet ?? '', displayLink: obj(v).displayLink })),
      searchInformation: {
        totalResults: info.totalResults ?? '0',
        searchTime: info.searchTime ?? 0,
        formattedSearchTime: info.formattedSearchTime ?? '',
        formattedTotalResults: info.formattedTotalResults ?? '',
      },
    };
  }),
  serviceTool('youtube_search', async (p, io) => {
    const res = await call(io, {
      url: `${io.baseUrl('youtube')}/search`,
      query: { part: 'snippet', type: 'video', q: text(p.query), maxResults: clamp(toInt(p.maxResults, 5), 0, 20), key: text(p.apiKey), pageToken: text(p.pageToken) },
    });
    if (!res.ok) {
      const e = obj(obj(res.data).error);
      throw new ToolError(`YouTube API error (${String(e.code ?? res.status)}): ${apiMessage(res)}`, res.status);
    }
    const d = obj(res.data);
    return {
      items: list(d.items).map((v) => {
        const s = obj(obj(v).snippet);
        const thumbs = obj(s.thumbnails);
        return {
          videoId: obj(obj(v).id).videoId,
          title: s.title ?? '',
          description: s.description ?? '',
          thumbnail: obj(thumbs.medium).url ?? obj(thumbs.default).url ?? obj(thumbs.high).url ?? '',
        };
      }),
      totalResults: obj(d.pageInfo).totalResults ?? 0,
      nextPageToken: d.nextPageToken,
    };
  }),
];

// ---------------------------------------------------------------- Jina, Linkup

const readerTools: ServiceTool[] = [
  serviceTool('jina_read_url', async (p, io) => {
    const json = flag(p.jsonResponse);
    const headers: Record<string, string> = { ...bearer(p.apiKey), Accept: json ? 'application/json' : 'text/plain' };
    if (flag(p.useReaderLMv2)) headers['X-Respond-With'] = 'readerlm-v2';
    if (flag(p.gatherLinks)) headers['X-With-Links-Summary'] = 'true';
    const res = await call(io, { url: `${io.baseUrl('jina')}/${text(p.url)}`, headers });
    if (!res.ok) throw new ToolError(`Jina Reader error: ${apiMessage(res)}`, res.status);
    if (json && res.json) return { content: obj(obj(res.data).data).content ?? '', title: obj(obj(res.data).data).title, url: obj(obj(res.data).data).url };
    return { content: res.text };
  }),
  serviceTool('linkup_search', async (p, io) => {
    const depth = text(p.depth) === 'deep' ? 'deep' : 'standard';
    const outputType = text(p.outputType) === 'searchResults' ? 'searchResults' : 'sourcedAnswer';
    const res = await call(io, { method: 'POST', url: `${io.baseUrl('linkup')}/search`, headers: bearer(p.apiKey), json: { q: text(p.q), depth, outputType } });
    if (!res.ok) throw new ToolError(`Linkup API error: ${apiMessage(res)}`, res.status);
    const d = obj(res.data);
    if (outputType === 'searchResults') return { results: list(d.results) };
    return { answer: d.answer ?? '', sources: list(d.sources).map((v) => ({ name: obj(v).name ?? '', url: obj(v).url, snippet: obj(v).snippet ?? '' })) };
  }),
];

// ---------------------------------------------------------------- Firecrawl

/** The §8 messages for Firecrawl. */
function firecrawlFailure(res: ApiResponse): ToolError {
  if (res.status === 401) return new ToolError('Invalid API key. Please check your Firecrawl API key.', 401);
  if (res.status === 429) return new ToolError('Rate limit exceeded. Please try again later.', 429);
  if (res.status === 402) return new ToolError('Insufficient credits. Please check your Firecrawl plan and usage.', 402);
  return new ToolError(`Firecrawl API error: ${apiMessage(res)}`, res.status);
}

/** A Firecrawl call with its §8 messages; the crawl runs as a polling job (src/jobs). */
export async function firecrawl(io: ToolIO, p: Obj, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<Obj> {
  const { path, ...rest } = spec;
  const res = await call(io, { method: 'POST', ...rest, url: `${io.baseUrl('firecrawl')}${path}`, headers: bearer(p.apiKey), answerStatuses: RATE_LIMITED });
  if (!res.ok) throw firecrawlFailure(res);
  return obj(res.data);
}

const firecrawlTools: ServiceTool[] = [
  serviceTool('firecrawl_scrape', async (p, io) => {
    const options = parseJson(p.scrapeOptions ?? {});
    if (!options.ok) throw new ToolError(`Invalid JSON for scrapeOptions: ${options.error}`);
    const data = await firecrawl(io, p, { path: '/scrape', json: { formats: ['markdown'], ...obj(options.value), url: text(p.url) } });
    const page = obj(data.data);
    return { markdown: page.markdown ?? '', html: page.html, metadata: obj(page.metadata) };
  }),
  serviceTool('firecrawl_search', async (p, io) => {
    const data = await firecrawl(io, p, { path: '/search', json: { query: text(p.query) } });
    return { data: list(data.data), warning: data.warning ?? null };
  }),
];

/** Web search, reading and crawling services: Exa, Tavily, Serper, Google Custom Search, YouTube, Jina, Linkup, Firecrawl. */
export const searchTools: ServiceTool[] = [...exaTools, ...tavilyTools, ...googleLikeTools, ...readerTools, ...firecrawlTools];
