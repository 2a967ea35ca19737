import { EXA_RESEARCH_POLLING, FIRECRAWL_CRAWL_POLLING, text, toInt } from '@weft/catalog';
import { ToolError } from '../tools/serviceTool.js';
import { list, obj, seg, str } from '../tools/services/http.js';
import { exa, firecrawl, flag } from '../tools/services/search/search.tools.js';
import type { ToolJobDefinition } from './definitions.js';

const seconds = (p: { timeoutMs: number }) => `${p.timeoutMs / 1000}s`;

/**
 * Firecrawl crawl (spec 001 §4, §8): POST crawl, then GET crawl/{id} until completed or failed (300 s).
 * 401, 429 and 402 at either call answer their §8 messages.
 */
export const firecrawlCrawlJob: ToolJobDefinition = {
  toolId: 'firecrawl_crawl',
  polling: { ...FIRECRAWL_CRAWL_POLLING },
  timeoutMessage: `Crawl job did not complete within the maximum polling time (${seconds(FIRECRAWL_CRAWL_POLLING)})`,
  async start(p, io) {
    const created = await firecrawl(io, p, {
      path: '/crawl',
      json: { url: text(p.url), limit: toInt(p.limit, 100), scrapeOptions: { onlyMainContent: flag(p.onlyMainContent) } },
    });
    const id = str(created.id);
    if (!id) throw new ToolError('Firecrawl API error: the crawl job has no id');
    return id;
  },
  async check(id, p, io) {
    const job = await firecrawl(io, p, { method: 'GET', path: `/crawl/${seg(id)}` });
    if (job.status === 'failed') return { state: 'failed', error: 'Crawl job failed' };
    if (job.status !== 'completed') return { state: 'pending' };
    const pages = list(job.data);
    return {
      state: 'done',
      output: {
        pages: pages.map((v) => ({ markdown: obj(v).markdown ?? '', html: obj(v).html, metadata: obj(obj(v).metadata) })),
        total: job.total ?? pages.length,
        creditsUsed: job.creditsUsed ?? 0,
      },
    };
  },
};

/**
 * Exa research task (spec 001 §4, §8): POST research/v0/tasks, then GET tasks/{id} until completed or
 * failed (300 s). A completed task answers its results, or one 'Research Complete' entry carrying the
 * task's data when it has no results array; a failed one `Research task failed: {error}`.
 */
export const exaResearchJob: ToolJobDefinition = {
  toolId: 'exa_research',
  polling: { ...EXA_RESEARCH_POLLING },
  timeoutMessage: `Research task did not complete within the maximum polling time (${seconds(EXA_RESEARCH_POLLING)})`,
  async start(p, io) {
    const created = await exa(io, p, {
      path: '/research/v0/tasks',
      json: { instructions: text(p.query), model: 'exa-research', output: { inferSchema: true } },
    });
    const id = str(created.id);
    if (!id) throw new ToolError('Exa AI API error: the research task has no id');
    return id;
  },
  async check(id, p, io) {
    const task = await exa(io, p, { method: 'GET', path: `/research/v0/tasks/${seg(id)}` });
    if (task.status === 'failed') return { state: 'failed', error: `Research task failed: ${str(task.error) ?? 'Unknown error'}` };
    if (task.status !== 'completed') return { state: 'pending' };
    const data = task.data;
    const results = obj(data).results;
    const research = Array.isArray(results)
      ? results
      : [{ title: 'Research Complete', url: '', summary: data ?? 'Research completed successfully', score: 1 }];
    const citations = Object.values(obj(task.citations)).flatMap((c) => list(c));
    return {
      state: 'done',
      output: {
        taskId: id,
        research,
        citations: citations.map((v) => ({ title: obj(v).title ?? '', url: obj(v).url, ...(flag(p.includeText) ? { text: obj(v).text ?? '' } : {}) })),
      },
    };
  },
};
