import { BROWSER_TASK_POLLING, parseJson, text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, pollUntil, seg, serviceTool, str, type CallSpec, type Obj, type Polling } from '../http.js';

/** Browser task polling (the catalogue's; tests shorten the interval). */
export const browserUsePolling: Polling = { ...BROWSER_TASK_POLLING };

async function browserUse(io: ToolIO, p: Obj, spec: Omit<CallSpec, 'url'> & { path: string }): Promise<Obj> {
  const { path, ...rest } = spec;
  const res = await call(io, { ...rest, url: `${io.baseUrl('browserUse')}${path}`, headers: bearer(p.apiKey) });
  if (res.status === 422) {
    const detail = obj(res.data).detail;
    const message = Array.isArray(detail) ? detail.map((d) => str(obj(d).msg) ?? JSON.stringify(d)).join('; ') : apiMessage(res);
    throw new ToolError(`Validation error: ${message}`, 422);
  }
  if (!res.ok) throw new ToolError(`Browser Use API error: ${apiMessage(res)}`, res.status);
  return obj(res.data);
}

const FINAL = new Set(['finished', 'failed', 'stopped']);

/** A browser agent task on Browser Use, and a Clay table webhook. */
export const automationTools: ServiceTool[] = [
  serviceTool('browser_use_run_task', async (p, io) => {
    const body: Obj = { task: text(p.task), save_browser_data: p.save_browser_data === true || p.save_browser_data === 'true', llm_model: text(p.model) || 'gpt-4o' };
    if (p.variables !== undefined && p.variables !== '') {
      const vars = parseJson(p.variables);
      if (!vars.ok || typeof vars.value !== 'object' || vars.value === null || Array.isArray(vars.value)) throw new ToolError('Invalid JSON for variables: expected an object of {key: value}');
      body.secrets = vars.value;
    }
    const created = await browserUse(io, p, { method: 'POST', path: '/run-task', json: body });
    const id = str(created.id);
    if (!id) throw new ToolError('Browser Use API error: the task has no id');
    const task = await pollUntil(browserUsePolling, `Task did not complete within the maximum polling time (${Math.round(BROWSER_TASK_POLLING.timeoutMs / 1000)}s)`, async () => {
      const t = await browserUse(io, p, { path: `/task/${seg(id)}` });
      return FINAL.has(String(t.status)) ? t : undefined;
    });
    const steps = list(task.steps).map((s) => ({ step: obj(s).step, goal: obj(s).next_goal ?? obj(s).goal ?? '', url: obj(s).url ?? '' }));
    return { id, success: task.status === 'finished', output: task.output ?? null, steps, status: task.status };
  }),
  serviceTool('clay_populate', async (p, io) => {
    const url = text(p.webhookURL);
    if (url === '') throw new ToolError('Webhook URL is required');
    const data = parseJson(p.data);
    if (!data.ok) throw new ToolError(`Invalid JSON for data: ${data.error}`);
    const res = await call(io, { method: 'POST', url, headers: bearer(p.authToken), json: { data: data.value } });
    if (!res.ok) throw new ToolError(`Clay webhook error: ${res.status} ${apiMessage(res)}`, res.status);
    return { data: res.json ? (res.data ?? null) : res.text };
  }),
];
