import { HTTP_TIMEOUT_MS } from '@weft/catalog';
import { guardedFetch, NetworkError, OutboundRefusedError, RequestTimeoutError } from '../../net/guardedFetch.js';
import { TransientToolError } from './errors.js';
import type { AddressPolicy } from '../../net/addressPolicy.js';
import { ToolError } from '../serviceTool.js';

/** A table field's rows (spec 000 §3 "Table row"), or a plain object, as key/value pairs. */
export function tableToRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const row of value) {
      if (typeof row !== 'object' || row === null) continue;
      const cells = (row as { cells?: unknown }).cells;
      if (typeof cells !== 'object' || cells === null) continue;
      const { Key, Value } = cells as { Key?: unknown; Value?: unknown };
      if (typeof Key === 'string' && Key.trim()) out[Key.trim()] = Value === undefined || Value === null ? '' : String(Value);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  } else if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      return tableToRecord(JSON.parse(value));
    } catch {
      return out;
    }
  }
  return out;
}

/**
 * The request timeout: the given milliseconds when positive, the default 10,000 ms when absent,
 * and the fallback 120,000 ms when a value was given but is not a usable number (spec 001 §9:
 * "default 10000 ms (fallback 120000 ms)"; this is our reading).
 */
export function httpTimeout(value: unknown): number {
  if (value === undefined || value === null || value === '') return HTTP_TIMEOUT_MS.default;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : HTTP_TIMEOUT_MS.fallback;
}

export interface HttpOutput {
  data: unknown;
  status: number;
  headers: Record<string, string>;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === name);
}

/** Whether a text is a JSON object or array. */
function isJsonText(text: string): boolean {
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Parses a body by its content type: JSON when it says so (falling back to text), text otherwise. */
export async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The API block's HTTP request tool: method, URL, query, headers, body; answers `{data, status, headers}`. */
export async function httpRequest(params: Record<string, unknown>, policy: AddressPolicy, signal?: AbortSignal): Promise<{ ok: boolean; output: HttpOutput; error?: string }> {
  const rawUrl = typeof params.url === 'string' ? params.url.trim() : '';
  if (!rawUrl) throw new ToolError('Parameter "url" is required for http_request but was not provided.');
  let urlText = rawUrl;
  for (const [k, v] of Object.entries(tableToRecord(params.pathParams))) urlText = urlText.split(`:${k}`).join(encodeURIComponent(v));
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(urlText)) urlText = `https://${urlText}`;
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new ToolError(`Invalid URL: ${rawUrl}`);
  }
  for (const [k, v] of Object.entries(tableToRecord(params.params))) url.searchParams.append(k, v);
  const method = (typeof params.method === 'string' && params.method.trim() ? params.method.trim() : 'GET').toUpperCase();
  const headers = tableToRecord(params.headers);
  let body: string | URLSearchParams | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const form = tableToRecord(params.formData);
    if (Object.keys(form).length > 0) body = new URLSearchParams(form);
    else if (typeof params.body === 'string') {
      body = params.body;
      // The API block's body field is JSON text (its references filled in): sent as JSON unless a
      // header says otherwise, as a JSON value is — a server reading JSON ignores a body without it.
      if (!hasHeader(headers, 'content-type') && isJsonText(body)) headers['Content-Type'] = 'application/json';
    }
    else if (params.body !== undefined && params.body !== null) {
      body = JSON.stringify(params.body);
      if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
    }
  }
  const timeoutMs = httpTimeout(params.timeout);
  let res: Response;
  try {
    res = await guardedFetch(url, { method, headers, ...(body !== undefined ? { body } : {}), timeoutMs, signal }, policy);
  } catch (err) {
    if (err instanceof RequestTimeoutError) throw new TransientToolError(`Request timeout after ${timeoutMs}ms`);
    if (err instanceof OutboundRefusedError) throw new ToolError(err.message);
    if (err instanceof NetworkError) throw new TransientToolError(err.message);
    throw err;
  }
  const output: HttpOutput = { data: await readBody(res), status: res.status, headers: Object.fromEntries(res.headers.entries()) };
  const error = `HTTP error ${res.status}: ${res.statusText}`;
  // 429 and 5xx are worth another try (a run's block retries them); other statuses are the answer.
  if (res.status === 429 || res.status >= 500) throw new TransientToolError(error, res.status, output);
  if (!res.ok) return { ok: false, output, error };
  return { ok: true, output };
}
