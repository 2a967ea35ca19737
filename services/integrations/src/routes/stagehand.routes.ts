import type { CallModelInput, ModelMessage, ModelToolDefinition } from '@weft/contracts';
import { parseJson } from '@weft/catalog';
import { ToolError } from '../tools/serviceTool.js';
import { guardedFetch, NetworkError, OutboundRefusedError, RequestTimeoutError, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { tableToRecord } from '../tools/runtime/httpRequest.js';
import { errorMessage } from '../tools/runtime/errors.js';
import { callModel, TimedModelError, type ModelDeps } from '../models/callModel.js';
import { ModelProviderError, ModelRequestError } from '../models/errors.js';
import { parseBytes } from './files.routes.js';
import { isHttpUrl, json, objectBody, str, type Route } from './router.js';

/** Extraction model (the block asks for an OpenAI key). */
export const STAGEHAND_EXTRACT_MODEL = 'gpt-4o';
/** Agent model (the block asks for an Anthropic key; spec 001 §9 flags it for computer use). */
export const STAGEHAND_AGENT_MODEL = 'claude-3-7-sonnet-latest';
/** Model turns an agent may take before it is stopped (the tool loop's limit, spec 001 §9). */
export const STAGEHAND_AGENT_MAX_STEPS = 10;
/** Characters of a page's text given to the model. */
const PAGE_TEXT_LIMIT = 30_000;
/** Bytes of a page read. */
const PAGE_BYTES_LIMIT = 5 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 30_000;

export interface StagehandDeps {
  policy: AddressPolicy;
  /** The model layer (provider base URLs and operator keys). */
  models: Pick<ModelDeps, 'config' | 'logger'> & { adapters?: ModelDeps['adapters'] };
}

/** A page as the model reads it: its final URL and its text (scripts not run). */
interface Page {
  url: string;
  title: string;
  text: string;
}

/** Start URLs get https:// when they name no scheme (spec 001 §7). */
export function withScheme(url: string): string {
  const u = url.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `https://${u}`;
}

const tooLarge = (url: string) => `Failed to load ${url}: the page is larger than ${PAGE_BYTES_LIMIT / 1024 / 1024} MB`;

async function loadPage(url: string, policy: AddressPolicy, signal: AbortSignal | undefined): Promise<Page> {
  if (!isHttpUrl(url)) throw new ToolError(`Failed to load ${url}: not an http(s) URL`, 400);
  let res: Response;
  try {
    res = await guardedFetch(url, { headers: { Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' }, timeoutMs: PAGE_TIMEOUT_MS, maxBodyBytes: PAGE_BYTES_LIMIT, signal }, policy);
  } catch (err) {
    if (err instanceof OutboundRefusedError) throw new ToolError(err.message, 400);
    if (err instanceof ResponseTooLargeError) throw new ToolError(tooLarge(url), 413);
    if (err instanceof RequestTimeoutError || err instanceof NetworkError) throw new ToolError(`Failed to load ${url}: ${err.message}`, 502);
    throw err;
  }
  if (!res.ok) throw new ToolError(`Failed to load ${url}: HTTP error ${res.status}: ${res.statusText}`, 502);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const html = new TextDecoder().decode(bytes);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  const type = res.headers.get('content-type') ?? '';
  const text = /html/i.test(type) || /<html|<body/i.test(html) ? (await parseBytes(bytes, 'html', url)).content : html;
  return { url: res.url || url, title, text: text.slice(0, PAGE_TEXT_LIMIT) };
}

function pageMessage(page: Page): string {
  return `Page ${page.url}${page.title ? ` (${page.title})` : ''}:\n${page.text}`;
}

/** A JSON schema field: an object, or JSON text of one. */
function schemaOf(value: unknown, field: string, required: boolean): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') {
    if (required) throw new ToolError(`${field} is required`, 400);
    return undefined;
  }
  const parsed = parseJson(value);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw new ToolError(`${field} must be a JSON schema object`, 400);
  return parsed.value as Record<string, unknown>;
}

function required(body: Record<string, unknown>, field: string): string {
  const v = str(body, field).trim();
  if (!v) throw new ToolError(`${field} is required`, 400);
  return v;
}

/** A page URL field: required, https:// when it names no scheme, and an http(s) URL. */
function pageUrl(body: Record<string, unknown>, field: string): string {
  const url = withScheme(required(body, field));
  if (!isHttpUrl(url)) throw new ToolError(`${field} must be an http(s) URL`, 400);
  return url;
}

/** A model failure as a route error with the provider's status. */
function modelFailure(err: unknown): ToolError {
  const original = err instanceof TimedModelError ? err.original : err;
  if (original instanceof ModelRequestError) return new ToolError(original.message, 400);
  if (original instanceof ModelProviderError) return new ToolError(original.message, original.status && original.status < 500 ? original.status : 502);
  return new ToolError(errorMessage(err), 500);
}

async function ask(deps: StagehandDeps, input: CallModelInput, signal: AbortSignal | undefined) {
  try {
    return await callModel({ ...deps.models, instance: '' }, input, signal);
  } catch (err) {
    throw modelFailure(err);
  }
}

/** `%key%` references of the task replaced by the variables' values. */
function substitute(task: string, variables: Record<string, string>): string {
  return task.replace(/%([A-Za-z0-9_.-]+)%/g, (whole, key: string) => (Object.hasOwn(variables, key) ? (variables[key] ?? '') : whole));
}

const EXTRACT_SYSTEM =
  'You extract data from a web page. Answer only with JSON that follows the given schema, taken from the page content; use null for what the page does not say.';

const AGENT_SYSTEM = [
  'You are a web agent. You read pages as text (their scripts do not run) and move between them with the goto tool.',
  'When the task is done, or cannot be done, call the done tool once with success, a short message and, when an output schema is given, the output.',
].join(' ');

function agentTools(outputSchema: Record<string, unknown> | undefined): ModelToolDefinition[] {
  return [
    { name: 'goto', description: 'Open a URL and read its text', parameters: { type: 'object', properties: { url: { type: 'string', description: 'Absolute URL to open' } }, required: ['url'] } },
    {
      name: 'done',
      description: 'Finish the task',
      parameters: {
        type: 'object',
        properties: {
          success: { type: 'boolean', description: 'Whether the task was completed' },
          message: { type: 'string', description: 'What was done or found' },
          ...(outputSchema ? { output: outputSchema } : {}),
        },
        required: ['success', 'message', ...(outputSchema ? ['output'] : [])],
      },
    },
  ];
}

interface AgentAction {
  type: string;
  url?: string;
  title?: string;
  error?: string;
  reasoning?: string;
}

/** The agent's answer (spec 001 §7): `{agentResult {success, completed, message, actions}, structuredOutput}`. */
async function runAgent(deps: StagehandDeps, body: Record<string, unknown>, signal: AbortSignal | undefined) {
  const startUrl = pageUrl(body, 'startUrl');
  const given = parseJson(body.variables);
  const variables = tableToRecord(given.ok ? given.value : {});
  const task = substitute(required(body, 'task'), variables);
  const outputSchema = schemaOf(body.outputSchema, 'outputSchema', false);
  const apiKey = str(body, 'apiKey');
  const actions: AgentAction[] = [];
  const first = await loadPage(startUrl, deps.policy, signal);
  actions.push({ type: 'goto', url: first.url, title: first.title });
  const messages: ModelMessage[] = [{ role: 'user', content: `Task: ${task}\n\n${pageMessage(first)}` }];
  const tools = agentTools(outputSchema);
  for (let step = 0; step < STAGEHAND_AGENT_MAX_STEPS; step++) {
    signal?.throwIfAborted();
    const out = await ask(deps, { provider: 'anthropic', model: STAGEHAND_AGENT_MODEL, apiKey, systemPrompt: AGENT_SYSTEM, messages, tools, maxTokens: 4096 }, signal);
    if (out.toolCalls.length === 0) {
      return { agentResult: { success: true, completed: true, message: out.content, actions }, structuredOutput: null };
    }
    messages.push({ role: 'assistant', content: out.content, toolCalls: out.toolCalls });
    for (const call of out.toolCalls) {
      if (call.name === 'done') {
        const a = call.arguments;
        const success = a.success !== false;
        return {
          agentResult: { success, completed: true, message: typeof a.message === 'string' ? a.message : out.content, actions },
          structuredOutput: outputSchema ? (a.output ?? null) : null,
        };
      }
      let result: string;
      if (call.name === 'goto' && typeof call.arguments.url === 'string' && call.arguments.url.trim()) {
        const url = withScheme(call.arguments.url);
        try {
          const page = await loadPage(url, deps.policy, signal);
          actions.push({ type: 'goto', url: page.url, title: page.title, ...(out.content ? { reasoning: out.content } : {}) });
          result = pageMessage(page);
        } catch (err) {
          actions.push({ type: 'goto', url, error: errorMessage(err) });
          result = `Could not open ${url}: ${errorMessage(err)}`;
        }
      } else {
        result = `Unknown action ${call.name}; use goto or done.`;
      }
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result });
    }
  }
  return { agentResult: { success: false, completed: false, message: `The agent did not finish within ${STAGEHAND_AGENT_MAX_STEPS} steps`, actions }, structuredOutput: null };
}

/**
 * Stagehand (spec 001 §7): `POST /api/tools/stagehand/extract {instruction, schema, apiKey, url}` →
 * `{data}` or `{error}`, and `POST /api/tools/stagehand/agent {task, startUrl, outputSchema, variables,
 * apiKey}` → `{agentResult, structuredOutput}`; a failed agent answers `{error, agentResult {success
 * false, completed false, message, actions []}, structuredOutput null}` (§8). Pages are loaded through
 * the outbound guard and read as text; the models are called through the model layer (OpenAI for
 * extraction, Anthropic for the agent; the block's key, else the operator's).
 */
export function stagehandRoutes(deps: StagehandDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/tools/stagehand/extract',
      async handle(req) {
        const body = objectBody(req.body);
        const url = pageUrl(body, 'url');
        const instruction = required(body, 'instruction');
        const schema = schemaOf(body.schema, 'schema', true) ?? {};
        const page = await loadPage(url, deps.policy, req.signal);
        const out = await ask(deps, {
          provider: 'openai',
          model: STAGEHAND_EXTRACT_MODEL,
          apiKey: str(body, 'apiKey'),
          systemPrompt: EXTRACT_SYSTEM,
          messages: [{ role: 'user', content: `Instruction: ${instruction}\n\n${pageMessage(page)}` }],
          responseFormat: { name: 'extraction', schema, strict: false },
          temperature: 0,
        }, req.signal);
        const data = parseJson(out.content);
        if (!data.ok) throw new ToolError(`Extraction answered no JSON: ${out.content.slice(0, 200)}`, 502);
        return json({ data: data.value });
      },
    },
    {
      method: 'POST',
      path: '/tools/stagehand/agent',
      async handle(req) {
        try {
          return json(await runAgent(deps, objectBody(req.body), req.signal));
        } catch (err) {
          const message = errorMessage(err);
          const status = err instanceof ToolError && err.status ? err.status : 500;
          return json({ error: message, agentResult: { success: false, completed: false, message, actions: [] }, structuredOutput: null }, status);
        }
      },
    },
  ];
}
