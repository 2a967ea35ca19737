import { text } from '@weft/catalog';
import { ToolError, type ServiceTool, type ToolIO } from '../serviceTool.js';

/** One answered request: status, headers, the raw text and its JSON when it parses. */
export interface ApiResponse {
  status: number;
  ok: boolean;
  statusText: string;
  headers: Headers;
  text: string;
  /** The JSON body; `undefined` when the body is empty or not JSON. */
  data: unknown;
  /** Whether the body parsed as JSON (or was empty). */
  json: boolean;
}

/** A request as the tools describe it; query entries that are undefined, null or '' are left out. */
export interface CallSpec {
  method?: string;
  url: string;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** A JSON body (sets content-type application/json unless given). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  /** 429/5xx statuses the tool answers with its own §8 message (see ToolRequestInit.answerStatuses). */
  answerStatuses?: readonly number[];
}

/** The rate-limit status, for tools whose §8 catalogue has a message for it. */
export const RATE_LIMITED: readonly number[] = [429];

/** A plain object view of an unknown JSON value (anything else is an empty object). */
export type Obj = Record<string, unknown>;

export function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `url` with the query appended (values stringified; arrays joined with commas). */
export function withQuery(url: string, query: Record<string, unknown> | undefined): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    search.append(k, Array.isArray(v) ? v.map(String).join(',') : String(v));
  }
  const qs = search.toString();
  if (qs === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}

/** Fills `{name}` parts of a base URL from values (URL-encoded). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** Encodes one path segment. */
export const seg = encodeURIComponent;

/** Sends a request through the execution layer's client and reads the whole answer. */
export async function call(io: ToolIO, spec: CallSpec): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | Uint8Array | URLSearchParams | undefined = spec.body;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  } else if (spec.form) {
    body = new URLSearchParams(spec.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  const init: Parameters<ToolIO['fetch']>[1] = { method: spec.method ?? 'GET', headers };
  if (body !== undefined) init.body = body;
  if (spec.timeoutMs !== undefined) init.timeoutMs = spec.timeoutMs;
  if (spec.answerStatuses !== undefined) init.answerStatuses = spec.answerStatuses;
  const res = await io.fetch(withQuery(spec.url, spec.query), init);
  const text = await res.text();
  let data: unknown;
  let json = true;
  if (text !== '') {
    try {
      data = JSON.parse(text) as unknown;
    } catch {
      json = false;
    }
  }
  return { status: res.status, ok: res.ok, statusText: res.statusText, headers: res.headers, text, data, json };
}

/** The most specific message an API put in its error body, or `fallback`. */
export function apiMessage(res: ApiResponse, fallback?: string): string {
  const d = obj(res.data);
  const err = d.error;
  const firstError = obj(list(d.errors)[0]);
  // Atlassian's v2 APIs (Confluence) answer {errors: [{status, code, title, detail}]}, no message.
  const titled = [firstError.title, firstError.detail].filter((t) => typeof t === 'string' && t !== '').join(': ');
  const candidates = [
    obj(err).message,
    typeof err === 'string' ? err : undefined,
    d.message,
    firstError.message,
    titled,
    list(d.errorMessages)[0],
    d.detail,
    d.error_description,
    d.description,
    d.title,
  ];
  for (const c of candidates) if (typeof c === 'string' && c !== '') return c;
  if (fallback !== undefined) return fallback;
  return res.text !== '' && !res.json ? res.text : res.statusText || `HTTP ${res.status}`;
}

/** A service tool from its id and run function. */
export function serviceTool(id: string, execute: ServiceTool['execute']): ServiceTool {
  return { id, execute };
}

/** A bearer authorization header (plus JSON content type). */
export function bearer(token: unknown): Record<string, string> {
  return { Authorization: `Bearer ${String(token ?? '')}` };
}

/** A parameter as trimmed text; blank throws `message` (the §5 message naming the field). */
export function requireText(params: Record<string, unknown>, name: string, message: string): string {
  const t = text(params[name]);
  if (t === '') throw new ToolError(message);
  return t;
}
