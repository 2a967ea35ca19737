import { describe, expect, it } from 'vitest';
import { BROWSER_TASK_POLLING, EXA_RESEARCH_POLLING, FIRECRAWL_CRAWL_POLLING, FUNCTION_TIMEOUT_MS } from '@weft/catalog';
import { TOOL_CALL_MAX_MS, TOOL_DEADLINE_MARGIN_MS as M, functionDeadlineMs, httpToolDeadlineMs, routeDeadlineMs, toolDeadlineMs } from './toolDeadlines.js';

describe('tool call deadlines', () => {
  it('a function waits for its own time limit, up to the 300 s a caller may ask, beyond the 10 s default', () => {
    expect(functionDeadlineMs(10_000)).toBe(10_000 + M);
    expect(functionDeadlineMs(300_000)).toBe(300_000 + M);
    expect(toolDeadlineMs('custom_weather', {})).toBe(FUNCTION_TIMEOUT_MS + M);
  });

  it('the HTTP tool waits for its timeout as the integrations service reads it (default, fallback, capped)', () => {
    expect(httpToolDeadlineMs(undefined)).toBe(10_000 + M);
    expect(httpToolDeadlineMs(45_000)).toBe(45_000 + M);
    expect(httpToolDeadlineMs('45000')).toBe(45_000 + M);
    expect(httpToolDeadlineMs('soon')).toBe(120_000 + M);
    expect(httpToolDeadlineMs(86_400_000)).toBe(TOOL_CALL_MAX_MS + M);
    expect(toolDeadlineMs('http_request', { timeout: 30_000 })).toBe(30_000 + M);
  });

  it('polling tools wait for their maximum polling time (180 s, 300 s)', () => {
    expect(toolDeadlineMs('browser_use_run_task', {})).toBe(BROWSER_TASK_POLLING.timeoutMs + M);
    expect(toolDeadlineMs('firecrawl_crawl', {})).toBe(FIRECRAWL_CRAWL_POLLING.timeoutMs + M);
    expect(toolDeadlineMs('exa_research', {})).toBe(EXA_RESEARCH_POLLING.timeoutMs + M);
    expect(BROWSER_TASK_POLLING.timeoutMs).toBe(180_000);
    expect(EXA_RESEARCH_POLLING.timeoutMs).toBe(300_000);
  });

  it('routes that fetch files and pages or call models get a tool call’s limit; quick data routes keep the default', () => {
    for (const path of ['/files/parse', '/tools/stagehand/agent', '/tools/stagehand/extract', '/proxy/tts', '/tools/email/send']) expect(routeDeadlineMs(path), path).toBe(TOOL_CALL_MAX_MS + M);
    expect(routeDeadlineMs('/tools/workflow-executor')).toBeGreaterThan(10 * 60_000);
    for (const path of ['/memory', '/memory/chat', '/docs/search', '/providers/ollama/models']) expect(routeDeadlineMs(path), path).toBeUndefined();
    // The same tools by id through the proxy wait as long as their routes do.
    expect(toolDeadlineMs('stagehand_agent', {})).toBe(TOOL_CALL_MAX_MS + M);
    expect(toolDeadlineMs('workflow_executor', {})).toBe(routeDeadlineMs('/tools/workflow-executor'));
  });
});
