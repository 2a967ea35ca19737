import { BROWSER_TASK_POLLING, EXA_RESEARCH_POLLING, FIRECRAWL_CRAWL_POLLING, FUNCTION_TIMEOUT_MS, HTTP_TIMEOUT_MS, getTool } from '@weft/catalog';

/**
 * How long the gateway waits for a synchronous tool call (its gRPC deadline to the integrations
 * service): what the call may legitimately take, plus a margin for the hops, a sandbox's start and
 * the answer. Without one, every call would get the services' default (GRPC_DEADLINE_MS, 10 s), and
 * a function allowed 60 s, a slow HTTP tool or a polling job would be cut off as "The service did not
 * answer in time" instead of answering its own result (or its own timeout message).
 */
export const TOOL_DEADLINE_MARGIN_MS = 15_000;

/** A tool call's limit inside a run (the runner's TOOL_TIMEOUT_MS): the bound for tools that set none of their own. */
export const TOOL_CALL_MAX_MS = 10 * 60_000;

/** A workflow run by the workflow executor tool (the integrations service's EXECUTOR_DEADLINE_MS). */
const EXECUTOR_DEADLINE_MS = 10 * 60_000;

/** Polling tools: their maximum polling time (spec 001 §4, §9). */
const POLLING_MS: Readonly<Record<string, number>> = {
  browser_use_run_task: BROWSER_TASK_POLLING.timeoutMs,
  firecrawl_crawl: FIRECRAWL_CRAWL_POLLING.timeoutMs,
  exa_research: EXA_RESEARCH_POLLING.timeoutMs,
};

/** POST /api/function/execute: the function's own time limit. */
export function functionDeadlineMs(timeoutMs: number): number {
  return timeoutMs + TOOL_DEADLINE_MARGIN_MS;
}

/**
 * The HTTP request tool: its request timeout as the integrations service reads it (absent: 10,000 ms;
 * given but unusable: the 120,000 ms fallback, spec 001 §9), at most a tool call's limit.
 */
export function httpToolDeadlineMs(timeout: unknown): number {
  let ms: number = HTTP_TIMEOUT_MS.default;
  if (timeout !== undefined && timeout !== null && timeout !== '') {
    const n = typeof timeout === 'number' ? timeout : Number(timeout);
    ms = Number.isFinite(n) && n > 0 ? Math.floor(n) : HTTP_TIMEOUT_MS.fallback;
  }
  return Math.min(ms, TOOL_CALL_MAX_MS) + TOOL_DEADLINE_MARGIN_MS;
}

/**
 * An internal route called directly (`/api/<path>`, path without /api), or undefined for the quick
 * ones (memory, docs search, models list) that keep the default. Routes that fetch files or pages
 * and call models (file parse, Stagehand, Firecrawl, Confluence, email, speech) get a tool call's
 * limit, as they would inside a run; the workflow executor the run it waits for.
 */
export function routeDeadlineMs(path: string): number | undefined {
  if (path === '/tools/workflow-executor') return EXECUTOR_DEADLINE_MS + TOOL_DEADLINE_MARGIN_MS;
  if (path === '/files/parse' || path.startsWith('/tools/') || path.startsWith('/proxy/')) return TOOL_CALL_MAX_MS + TOOL_DEADLINE_MARGIN_MS;
  return undefined;
}

/** POST /api/proxy: the named tool's own limit (custom code, HTTP timeout, polling time, its route's), else a tool call's. */
export function toolDeadlineMs(toolId: string, params: Record<string, unknown>): number {
  if (toolId.startsWith('custom_')) return functionDeadlineMs(FUNCTION_TIMEOUT_MS);
  if (toolId === 'http_request') return httpToolDeadlineMs(params.timeout);
  const polling = POLLING_MS[toolId];
  if (polling !== undefined) return polling + TOOL_DEADLINE_MARGIN_MS;
  const tool = getTool(toolId);
  const route = tool?.request.isInternalRoute ? routeDeadlineMs(tool.request.url.replace(/^\/api/, '').replace(/\?.*$/, '')) : undefined;
  return route ?? TOOL_CALL_MAX_MS + TOOL_DEADLINE_MARGIN_MS;
}
