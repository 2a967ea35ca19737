import type { ToolConfig } from '@weft/catalog';
import type { ExecuteToolInput } from '@weft/contracts';
import { ToolError, type ToolIO } from '../serviceTool.js';
import { TransientToolError } from './errors.js';
import type { InternalRoutes } from './types.js';

type Outcome = { success: boolean; output: unknown; error?: string };

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/** Fills `{name}` placeholders from the params (and the call context); answers the text and the names it used. */
export function fillTemplate(template: string, values: Record<string, unknown>, encode: boolean): { text: string; used: Set<string> } {
  const used = new Set<string>();
  const out = template.replace(PLACEHOLDER, (_whole, name: string) => {
    used.add(name);
    const v = text(values[name]);
    return encode ? encodeURIComponent(v) : v;
  });
  return { text: out, used };
}

function detailOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 500) : undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { error?: unknown; message?: unknown; error_description?: unknown };
  if (typeof b.error === 'object' && b.error !== null && typeof (b.error as { message?: unknown }).message === 'string') return (b.error as { message: string }).message;
  for (const v of [b.error, b.message, b.error_description]) if (typeof v === 'string' && v) return v;
  return undefined;
}

/**
 * The workflow an internal tool works in: the call's own (the gateway checked the caller's access to
 * it; the runner set it from the run). Only a tool that declares a workflowId param (the workflow
 * executor: the workflow to run, whose access its route checks) takes it from the params; for any
 * other tool a params.workflowId (a model's tool arguments, a proxy call's params) may only repeat
 * the call's own, and another one is refused naming the field.
 */
function workflowIdFor(tool: ToolConfig, params: Record<string, unknown>, input: ExecuteToolInput): unknown {
  if ('workflowId' in tool.params) return params.workflowId ?? input.context.workflowId;
  const named = params.workflowId;
  const own = input.context.workflowId;
  if (named !== undefined && named !== null && named !== '' && named !== own) {
    throw new ToolError(`params.workflowId (${text(named)}) is not the workflow this tool runs for (${own || 'none'})`, 400);
  }
  return own;
}

/**
 * An internal tool: its route's code is called directly with the params and the call's workflowId.
 * A 429 or 5xx answer (a service behind the route failed, the route itself crashed) is transient, as
 * for http_request: a run's block tries it again; a synchronous caller gets it as the answer.
 */
export async function callInternalTool(tool: ToolConfig, params: Record<string, unknown>, input: ExecuteToolInput, internal: InternalRoutes, signal?: AbortSignal): Promise<Outcome> {
  const values = { ...params, workflowId: workflowIdFor(tool, params, input) };
  const { text: filled, used } = fillTemplate(tool.request.url, values, true);
  const url = new URL(filled, 'http://internal');
  const method = tool.request.method;
  const body = method === 'GET' || method === 'DELETE' ? undefined : Object.fromEntries(Object.entries(values).filter(([k]) => !used.has(k) || k === 'workflowId'));
  const answer = await internal.handle({
    method,
    path: url.pathname.replace(/^\/api/, ''),
    query: Object.fromEntries(url.searchParams.entries()),
    body,
    context: input.context,
    envVars: input.envVars ?? {},
    signal,
  });
  const b = answer.body as { success?: unknown; output?: unknown; error?: unknown } | null;
  if (answer.status >= 400) {
    const error = typeof b?.error === 'string' && b.error ? b.error : `Request failed with status ${answer.status}`;
    // A route that answers an output beside its error (the Stagehand agent's failed result, §8) keeps it.
    const { success: _s, error: _e, ...rest } = b && typeof b === 'object' ? b : {};
    const output = Object.keys(rest).length > 0 ? ('output' in rest ? rest.output : rest) : undefined;
    if (answer.status === 429 || answer.status >= 500) throw new TransientToolError(error, answer.status, output);
    if (output !== undefined) return { success: false, output, error };
    throw new ToolError(error, answer.status);
  }
  if (b && typeof b === 'object' && typeof b.success === 'boolean' && 'output' in b) {
    return b.success ? { success: true, output: b.output } : { success: false, output: b.output, error: typeof b.error === 'string' ? b.error : 'Unknown error occurred' };
  }
  return { success: true, output: answer.body };
}

/**
 * Any other catalogue tool: the request is built from its metadata — `{param}` placeholders of the
 * URL (encoded) and headers filled, the remaining params sent as the query (GET, DELETE, HEAD) or as
 * the body (JSON, or a form when the headers ask for one) — and a JSON answer is its output.
 */
export async function callRemoteTool(tool: ToolConfig, params: Record<string, unknown>, input: ExecuteToolInput, io: ToolIO): Promise<Outcome> {
  const values = { ...params, workflowId: params.workflowId ?? input.context.workflowId };
  const { text: url, used } = fillTemplate(tool.request.url, values, true);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(tool.request.headers)) {
    const filled = fillTemplate(v, values, false);
    for (const u of filled.used) used.add(u);
    headers[k] = filled.text;
  }
  const rest = Object.fromEntries(Object.entries(params).filter(([k, v]) => !used.has(k) && v !== undefined && v !== null && v !== '' && k !== 'accessToken' && k !== 'apiKey'));
  const method = tool.request.method;
  let target = url;
  let body: string | URLSearchParams | undefined;
  if (method === 'GET' || method === 'DELETE' || method === 'HEAD') {
    const u = new URL(url);
    for (const [k, v] of Object.entries(rest)) u.searchParams.set(k, text(v));
    target = u.toString();
  } else {
    const type = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    body = type.includes('x-www-form-urlencoded') ? new URLSearchParams(Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, text(v)]))) : JSON.stringify(rest);
  }
  const res = await io.fetch(target, { method, headers, ...(body !== undefined ? { body } : {}) });
  const raw = await res.text();
  if (!res.ok) {
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw) as unknown;
    } catch {
      // a text error body is its own detail
    }
    const detail = detailOf(parsed);
    throw new ToolError(detail ? `API Error: ${res.statusText || String(res.status)} - ${detail}` : `Request failed with status ${res.status}`, res.status);
  }
  if (!raw.trim()) return { success: true, output: {} };
  try {
    return { success: true, output: JSON.parse(raw) as unknown };
  } catch {
    throw new ToolError(`Failed to parse response from ${tool.id}`);
  }
}
