import { BROWSER_TASK_POLLING } from '@weft/catalog';
import { ToolError, type ToolIO } from '../tools/serviceTool.js';
import type { JobCheck } from './types.js';
import { exaResearchJob, firecrawlCrawlJob } from './searchJobs.js';

/** A tool that starts a job at its service and is finished by polling it (spec 001 §4). */
export interface ToolJobDefinition {
  toolId: string;
  polling: { intervalMs: number; timeoutMs: number };
  timeoutMessage: string;
  /** Starts the job; answers its id. Answered failures throw a ToolError with the spec's message. */
  start(params: Record<string, unknown>, io: ToolIO): Promise<string>;
  check(jobId: string, params: Record<string, unknown>, io: ToolIO): Promise<JobCheck>;
}

async function bodyOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function detailOf(body: unknown): string {
  if (typeof body === 'string') return body.slice(0, 500);
  if (typeof body === 'object' && body !== null) {
    const b = body as { detail?: unknown; message?: unknown; error?: unknown };
    for (const v of [b.detail, b.message, b.error]) {
      if (typeof v === 'string' && v) return v;
      if (v !== undefined && v !== null) return JSON.stringify(v);
    }
  }
  return '';
}

/** The catalogue's Browser Use endpoint (its host is rewritten when the operator configured another). */
const BROWSER_USE_API = 'https://api.browser-use.com/api/v1';

const BROWSER_DONE = new Set(['finished']);
const BROWSER_FAILED = new Set(['failed', 'stopped']);

/** Browser Use cloud task: POST run-task, then GET task/{id} until finished, failed or stopped (180 s). */
export const browserTaskJob: ToolJobDefinition = {
  toolId: 'browser_use_run_task',
  polling: { ...BROWSER_TASK_POLLING },
  timeoutMessage: `Task did not complete within the maximum polling time (${BROWSER_TASK_POLLING.timeoutMs / 1000}s)`,
  async start(p, io) {
    const apiKey = typeof p.apiKey === 'string' ? p.apiKey : '';
    const variables = typeof p.variables === 'object' && p.variables !== null ? p.variables : undefined;
    const res = await io.fetch(`${BROWSER_USE_API}/run-task`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        task: p.task,
        ...(variables ? { secrets: variables } : {}),
        save_browser_data: p.save_browser_data === true,
        llm_model: typeof p.model === 'string' && p.model ? p.model : 'gpt-4o',
      }),
    });
    const body = await bodyOf(res);
    if (res.status === 422) throw new ToolError(`Validation error: ${detailOf(body)}`, 422);
    if (!res.ok) {
      const detail = detailOf(body);
      throw new ToolError(detail ? `API Error: ${res.statusText || res.status} - ${detail}` : `Request failed with status ${res.status}`, res.status);
    }
    const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || !id) throw new ToolError('Failed to parse response from browser_use_run_task');
    return id;
  },
  async check(id, p, io) {
    const apiKey = typeof p.apiKey === 'string' ? p.apiKey : '';
    const res = await io.fetch(`${BROWSER_USE_API}/task/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    const body = await bodyOf(res);
    if (!res.ok) {
      const detail = detailOf(body);
      throw new ToolError(detail ? `API Error: ${res.statusText || res.status} - ${detail}` : `Request failed with status ${res.status}`, res.status);
    }
    const task = (typeof body === 'object' && body !== null ? body : {}) as { status?: unknown; output?: unknown; steps?: unknown; live_url?: unknown };
    const status = typeof task.status === 'string' ? task.status : '';
    const output = { id, success: BROWSER_DONE.has(status), output: task.output ?? null, steps: Array.isArray(task.steps) ? task.steps : [] };
    if (BROWSER_DONE.has(status)) return { state: 'done', output };
    if (BROWSER_FAILED.has(status)) return { state: 'failed', error: `Browser task ${status}`, output };
    return { state: 'pending' };
  },
};

/** The polling jobs by tool id. */
export const TOOL_JOBS: Record<string, ToolJobDefinition> = Object.fromEntries([browserTaskJob, firecrawlCrawlJob, exaResearchJob].map((job) => [job.toolId, job]));
