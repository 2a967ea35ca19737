import type { CallModelInput, ModelMessage, ModelToolDefinition } from '@weft/contracts';
import { parseJson, secretForms } from '@weft/catalog';
import { ToolError } from '../tools/serviceTool.js';
import { guardedFetch, NetworkError, OutboundRefusedError, RequestTimeoutError, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import { tableToRecord } from '../tools/runtime/httpRequest.js';
import { errorMessage } from '../tools/runtime/errors.js';
import { callModel, TimedModelError, type ModelDeps } from '../models/callModel.js';
import { ModelProviderError, ModelRequestError } from '../models/errors.js';
import { parseBytes } from './files.routes.js';
import { isHttpUrl, json, objectBody, str, type Route } from './router.js';
import { ActionError, browserFromEnv, BrowserSession, type BrowserConfig, type BrowserLimits, DownloadRefusedError, type PageView } from './stagehandBrowser.js';

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
/** Bytes all the responses of one browser call may have together (its pages, scripts, images). */
const BROWSER_BYTES_LIMIT = 50 * 1024 * 1024;
/** How long a click, typing or a selection may wait for its element. */
const BROWSER_ACTION_TIMEOUT_MS = 10_000;

export interface StagehandDeps {
  policy: AddressPolicy;
  /** The model layer (provider base URLs and operator keys). */
  models: Pick<ModelDeps, 'config' | 'logger'> & { adapters?: ModelDeps['adapters'] };
  /**
   * The Chromium of the agent and of extraction; null keeps them in text mode. Default: the environment's
   * (`WEFT_BROWSER_PATH`, else `CHROMIUM_PATH` or /usr/bin/chromium when it exists; stagehandBrowser.ts).
   */
  browser?: BrowserConfig | null;
  /** The browser's limits (default: 5 MB a response, 50 MB a call, 30 s a request, navigation or page read, 10 s an action). */
  browserLimits?: Partial<BrowserLimits>;
}

/** A page as the model reads it: its final URL and its text (as fetched, or rendered in the browser). */
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

/** Why a page did not load, as the route answers it (both modes): a refusal 400, too large 413, a network failure, time limit or download 502. */
function loadFailure(url: string, err: unknown): Error {
  if (err instanceof ToolError) return err;
  if (err instanceof OutboundRefusedError) return new ToolError(err.message, 400);
  if (err instanceof ResponseTooLargeError) return new ToolError(tooLarge(url), 413);
  if (err instanceof RequestTimeoutError || err instanceof NetworkError || err instanceof DownloadRefusedError) return new ToolError(`Failed to load ${url}: ${err.message}`, 502);
  return err instanceof Error ? err : new Error(String(err));
}

async function loadPage(url: string, policy: AddressPolicy, signal: AbortSignal | undefined): Promise<Page> {
  if (!isHttpUrl(url)) throw new ToolError(`Failed to load ${url}: not an http(s) URL`, 400);
  let res: Response;
  try {
    res = await guardedFetch(url, { headers: { Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' }, timeoutMs: PAGE_TIMEOUT_MS, maxBodyBytes: PAGE_BYTES_LIMIT, signal }, policy);
  } catch (err) {
    throw loadFailure(url, err);
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

/** Values shorter than this are not looked for: they would match inside nearly any URL or word (a port's digit). */
const CONCEALED_MIN_LENGTH = 3;

/**
 * Replaces every variable's value in a text with its `%key%`: in every form secretForms knows (as
 * given, lower-cased, percent-encoded and form-encoded as a URL a redirect or a submitted form
 * carries it, JSON-escaped), longest first, in one pass.
 * Values under three characters are left (they would match anywhere).
 */
export function concealer(variables: Record<string, string>): (text: string) => string {
  const forms = new Map<string, string>();
  for (const [key, value] of Object.entries(variables)) {
    if (value.length < CONCEALED_MIN_LENGTH) continue;
    for (const form of secretForms(value)) {
      if (!forms.has(form)) forms.set(form, `%${key}%`);
    }
  }
  if (forms.size === 0) return (text) => text;
  const pattern = new RegExp([...forms.keys()].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, (found) => forms.get(found) ?? found);
}

/** An action as the log keeps it: no variable's value in any of its texts. */
function concealedAction(action: AgentAction, conceal: (text: string) => string): AgentAction {
  return Object.fromEntries(Object.entries(action).map(([k, v]) => [k, typeof v === 'string' ? conceal(v) : v])) as AgentAction;
}

const EXTRACT_SYSTEM =
  'You extract data from a web page. Answer only with JSON that follows the given schema, taken from the page content; use null for what the page does not say.';

const TEXT_AGENT_SYSTEM = [
  'You are a web agent. You read pages as text (their scripts do not run) and move between them with the goto tool.',
  'When the task is done, or cannot be done, call the done tool once with success, a short message and, when an output schema is given, the output.',
].join(' ');

const BROWSER_AGENT_SYSTEM = [
  'You are a web agent driving a real browser. Each page is shown as its visible text followed by its interactive elements, numbered like [3].',
  'Name an element by its number (the target "3") from the latest page view; numbers change when the page changes.',
  'Use navigate to open a URL, click, type (fills a field, replacing its value), press (a key such as Enter, optionally on a target), select (an option of a select by value or label) and read_page to see the page again.',
  'Every action answers the page as it is afterwards. When the task is done, or cannot be done, call the done tool once with success, a short message and, when an output schema is given, the output.',
].join(' ');

function doneTool(outputSchema: Record<string, unknown> | undefined): ModelToolDefinition {
  return {
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
  };
}

const object = (properties: Record<string, unknown>, requiredKeys: string[]) => ({ type: 'object', properties, required: requiredKeys });
const TARGET = { type: 'string', description: 'The element: its number from the latest page view, e.g. "3"' };

const BROWSER_TOOLS: ModelToolDefinition[] = [
  { name: 'navigate', description: 'Open a URL in the browser', parameters: object({ url: { type: 'string', description: 'Absolute URL to open' } }, ['url']) },
  { name: 'click', description: 'Click an element (a link, a button, a checkbox)', parameters: object({ target: TARGET }, ['target']) },
  { name: 'type', description: 'Type text into a field, replacing what it holds', parameters: object({ target: TARGET, text: { type: 'string', description: 'The text; %key% is replaced by the variable' } }, ['target', 'text']) },
  { name: 'press', description: 'Press a key (Enter, Tab, Escape, ArrowDown, …), on an element or wherever the focus is', parameters: object({ key: { type: 'string' }, target: TARGET }, ['key']) },
  { name: 'select', description: 'Pick an option of a select element by its value or label', parameters: object({ target: TARGET, value: { type: 'string' } }, ['target', 'value']) },
  { name: 'read_page', description: 'Read the page again: its visible text and numbered interactive elements', parameters: object({}, []) },
];

interface AgentAction {
  type: string;
  url?: string;
  title?: string;
  target?: string;
  element?: string;
  text?: string;
  key?: string;
  value?: string;
  error?: string;
  reasoning?: string;
}

/** Where an agent works: its tools and how it opens the start page and carries out a tool call. */
interface AgentEnvironment {
  system: string;
  tools: ModelToolDefinition[];
  /** Every answer is a whole page view: earlier ones are shortened in the conversation. */
  latestViewOnly?: boolean;
  /** Opens the start page (a failure ends the call) and answers what the model first reads. */
  start(url: string): Promise<{ observation: string; action: AgentAction }>;
  /** Carries out one tool call: what the model reads back, and the action recorded. */
  act(call: { name: string; arguments: Record<string, unknown> }): Promise<{ result: string; action?: AgentAction }>;
  close(): Promise<void>;
}

/** The text mode: pages fetched through the outbound guard and read as text, links followed with goto. */
function textEnvironment(deps: StagehandDeps, signal: AbortSignal | undefined): AgentEnvironment {
  return {
    system: TEXT_AGENT_SYSTEM,
    tools: [{ name: 'goto', description: 'Open a URL and read its text', parameters: object({ url: { type: 'string', description: 'Absolute URL to open' } }, ['url']) }],
    async start(url) {
      const page = await loadPage(url, deps.policy, signal);
      return { observation: pageMessage(page), action: { type: 'goto', url: page.url, title: page.title } };
    },
    async act(call) {
      if (call.name !== 'goto' || typeof call.arguments.url !== 'string' || !call.arguments.url.trim()) return { result: `Unknown action ${call.name}; use goto or done.` };
      const url = withScheme(call.arguments.url);
      try {
        const page = await loadPage(url, deps.policy, signal);
        return { result: pageMessage(page), action: { type: 'goto', url: page.url, title: page.title } };
      } catch (err) {
        return { result: `Could not open ${url}: ${errorMessage(err)}`, action: { type: 'goto', url, error: errorMessage(err) } };
      }
    },
    close: () => Promise.resolve(),
  };
}

/** How a browser page reads to the model. */
function viewMessage(view: PageView): string {
  const parts = [`Page ${view.url}${view.title ? ` (${view.title})` : ''}:`, view.text || '(no visible text)', '', 'Interactive elements:', ...(view.elements.length ? view.elements : ['(none)'])];
  if (view.refused.length) parts.push('', 'Requests of the page refused:', ...view.refused);
  return parts.join('\n');
}

const BROWSER_LIMITS: BrowserLimits = { responseBytes: PAGE_BYTES_LIMIT, totalBytes: BROWSER_BYTES_LIMIT, timeoutMs: PAGE_TIMEOUT_MS, actionTimeoutMs: BROWSER_ACTION_TIMEOUT_MS };

/** A browser of the call's own (a place among WEFT_BROWSER_MAX); one that does not start is an error naming the setting. */
async function openBrowser(deps: StagehandDeps, config: BrowserConfig, signal: AbortSignal | undefined): Promise<BrowserSession> {
  try {
    return await BrowserSession.open(config, deps.policy, { ...BROWSER_LIMITS, ...deps.browserLimits }, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ToolError(`Could not start the browser at ${config.executablePath} (WEFT_BROWSER_PATH): ${errorMessage(err).split('\n')[0]}`, 500);
  }
}

/**
 * Extraction's page in the browser: loaded as the agent's start page (every request through the
 * guard, the same limits and errors), then read as rendered, its frames' text included; the browser
 * is closed before the model is asked.
 */
async function renderedPage(deps: StagehandDeps, config: BrowserConfig, url: string, signal: AbortSignal | undefined): Promise<Page> {
  const session = await openBrowser(deps, config, signal);
  try {
    const nav = await session.navigate(url);
    if (nav.status >= 400) throw new ToolError(`Failed to load ${url}: HTTP error ${nav.status}: ${nav.statusText}`, 502);
    const view = await session.view(PAGE_TEXT_LIMIT);
    return { url: view.url, title: view.title, text: view.text };
  } catch (err) {
    const timeout = session.timeout;
    if (timeout && !signal?.aborted) throw new ToolError(timeout.message, 504);
    const failure = loadFailure(url, err);
    if (failure instanceof ToolError) throw failure;
    // The browser's own reasons (a redirect loop, a navigation Chromium gave up on).
    throw new ToolError(`Failed to load ${url}: ${errorMessage(failure).split('\n')[0]}`, 502);
  } finally {
    await session.close();
  }
}

/**
 * The browser mode: a Chromium of the call's own (stagehandBrowser.ts) where the model navigates,
 * clicks, types, presses keys and picks options on numbered elements. Pages opened are recorded as
 * `goto` actions, as in the text mode; a navigation's failures are the text mode's errors.
 */
async function browserEnvironment(deps: StagehandDeps, config: BrowserConfig, variables: Record<string, string>, signal: AbortSignal | undefined): Promise<AgentEnvironment> {
  const session = await openBrowser(deps, config, signal);
  /** URLs the model opened with `%key%` references, as opened → as given: the action log and the messages keep the references, not the values. */
  const typed = new Map<string, string>();
  /** The URLs opened as given, then any value left (a redirect's or a form's URL carrying one). */
  const conceal = concealer(variables);
  const hide = (text: string) => conceal([...typed].sort(([a], [b]) => b.length - a.length).reduce((out, [opened, given]) => out.split(opened).join(given), text));
  /** A page that did not answer in time closed the browser: the call fails (unless it was cancelled). */
  const stopIfClosed = (err: unknown) => {
    if (signal?.aborted) throw err;
    const timeout = session.timeout;
    if (timeout) throw new ToolError(timeout.message, 504);
  };
  const view = async () => {
    try {
      return viewMessage(await session.view(PAGE_TEXT_LIMIT));
    } catch (err) {
      stopIfClosed(err);
      throw err;
    }
  };
  const open = async (url: string) => {
    try {
      const nav = await session.navigate(url);
      if (nav.status >= 400) throw new ToolError(`Failed to load ${hide(url)}: HTTP error ${nav.status}: ${nav.statusText}`, 502);
      return nav;
    } catch (err) {
      stopIfClosed(err);
      const failure = loadFailure(url, err);
      if (failure instanceof ToolError) throw new ToolError(hide(failure.message), failure.status);
      // The browser's own reasons (a redirect loop, a navigation Chromium gave up on).
      throw new ToolError(hide(`Failed to load ${url}: ${errorMessage(failure).split('\n')[0]}`), 502);
    }
  };
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return {
    system: BROWSER_AGENT_SYSTEM,
    tools: BROWSER_TOOLS,
    latestViewOnly: true,
    async start(url) {
      const nav = await open(url);
      return { observation: await view(), action: { type: 'goto', url: nav.url, title: nav.title } };
    },
    async act(call) {
      const a = call.arguments;
      // goto is the text mode's name for navigate: a model or script written for either works.
      const name = call.name === 'goto' ? 'navigate' : call.name;
      if (name === 'navigate') {
        const given = str(a.url).trim();
        if (!given) return { result: 'navigate needs a url.' };
        const shown = withScheme(given);
        const url = withScheme(substitute(given, variables));
        if (url !== shown) typed.set(url, shown);
        if (!isHttpUrl(url)) return { result: `Could not open ${shown}: not an http(s) URL`, action: { type: 'goto', url: shown, error: 'not an http(s) URL' } };
        try {
          const nav = await open(url);
          return { result: await view(), action: { type: 'goto', url: hide(nav.url), title: nav.title } };
        } catch (err) {
          stopIfClosed(err);
          return { result: `Could not open ${shown}: ${errorMessage(err)}`, action: { type: 'goto', url: shown, error: errorMessage(err) } };
        }
      }
      if (name === 'read_page') {
        const result = await view();
        let title: string;
        try {
          title = await session.pageTitle();
        } catch (err) {
          stopIfClosed(err);
          throw err;
        }
        return { result, action: { type: 'read_page', url: hide(session.url()), title } };
      }
      const target = str(a.target);
      const action: AgentAction = { type: name, ...(target ? { target } : {}) };
      try {
        let element: string | undefined;
        if (name === 'click') element = await session.click(target);
        else if (name === 'type') {
          action.text = str(a.text);
          element = await session.type(target, substitute(action.text, variables));
        } else if (name === 'press') {
          action.key = str(a.key);
          element = await session.press(action.key, target || undefined);
        } else if (name === 'select') {
          action.value = str(a.value);
          element = await session.select(target, substitute(action.value, variables));
        } else return { result: `Unknown action ${call.name}; use navigate, click, type, press, select, read_page or done.` };
        if (element) action.element = element;
        action.url = hide(session.url());
        return { result: await view(), action };
      } catch (err) {
        stopIfClosed(err);
        const message = hide(errorMessage(err).split('\n')[0] ?? '');
        if (err instanceof ActionError && err.element) action.element = err.element;
        const after = await view().catch((failed: unknown) => {
          stopIfClosed(failed);
          return '';
        });
        return { result: `The ${name} failed: ${message}\n\n${after}`, action: { ...action, error: message } };
      }
    },
    close: () => session.close(),
  };
}

/** The agent's `%key%` variables: the block's table (`[{cells {Key, Value}}]` or its JSON); anything else is none. */
function agentVariables(body: Record<string, unknown>): Record<string, string> {
  const given = parseJson(body.variables);
  return tableToRecord(given.ok ? given.value : {});
}

/**
 * The agent's answer (spec 001 §7): `{agentResult {success, completed, message, actions}, structuredOutput}`.
 * `conceal` is the variables' concealer: the action log keeps `%key%` for their values (the route conceals its errors).
 */
async function runAgent(deps: StagehandDeps, body: Record<string, unknown>, variables: Record<string, string>, conceal: (text: string) => string, signal: AbortSignal | undefined) {
  const startUrl = pageUrl(body, 'startUrl');
  const task = substitute(required(body, 'task'), variables);
  const outputSchema = schemaOf(body.outputSchema, 'outputSchema', false);
  const apiKey = str(body, 'apiKey');
  const browser = deps.browser === undefined ? browserFromEnv() : deps.browser;
  const env = browser ? await browserEnvironment(deps, browser, variables, signal) : textEnvironment(deps, signal);
  try {
    return await agentLoop(deps, env, { startUrl, task, outputSchema, apiKey, conceal }, signal);
  } finally {
    await env.close();
  }
}

const SUPERSEDED = '\n[This page view is superseded by a later one.]';

/** Earlier tool answers keep their first line only: each browser action answers the whole page again, the latest view is what counts. */
function shortenEarlierViews(messages: ModelMessage[]): void {
  for (const m of messages) {
    if (m.role !== 'tool' || typeof m.content !== 'string' || m.content.endsWith(SUPERSEDED)) continue;
    const firstLine = m.content.split('\n', 1)[0] ?? '';
    if (firstLine.length < m.content.length) m.content = `${firstLine}${SUPERSEDED}`;
  }
}

/**
 * The model's turns until it calls done or the step limit. The action log keeps `%key%` for every
 * variable's value (`run.conceal`); the model's own answer (its message, its output) is kept as it is.
 */
async function agentLoop(
  deps: StagehandDeps,
  env: AgentEnvironment,
  run: { startUrl: string; task: string; outputSchema: Record<string, unknown> | undefined; apiKey: string; conceal: (text: string) => string },
  signal: AbortSignal | undefined,
) {
  const { outputSchema } = run;
  const actions: AgentAction[] = [];
  const first = await env.start(run.startUrl);
  actions.push(concealedAction(first.action, run.conceal));
  const messages: ModelMessage[] = [{ role: 'user', content: `Task: ${run.task}\n\n${first.observation}` }];
  const tools = [...env.tools, doneTool(outputSchema)];
  for (let step = 0; step < STAGEHAND_AGENT_MAX_STEPS; step++) {
    signal?.throwIfAborted();
    const out = await ask(deps, { provider: 'anthropic', model: STAGEHAND_AGENT_MODEL, apiKey: run.apiKey, systemPrompt: env.system, messages, tools, maxTokens: 4096 }, signal);
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
      signal?.throwIfAborted();
      const { result, action } = await env.act(call);
      if (action) actions.push(concealedAction(action.error || !out.content ? action : { ...action, reasoning: out.content }, run.conceal));
      if (env.latestViewOnly) shortenEarlierViews(messages);
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result });
    }
  }
  return { agentResult: { success: false, completed: false, message: `The agent did not finish within ${STAGEHAND_AGENT_MAX_STEPS} steps`, actions }, structuredOutput: null };
}

/**
 * Stagehand (spec 001 §7): `POST /api/tools/stagehand/extract {instruction, schema, apiKey, url}` →
 * `{data}` or `{error}`, and `POST /api/tools/stagehand/agent {task, startUrl, outputSchema, variables,
 * apiKey}` → `{agentResult, structuredOutput}`; a failed agent answers `{error, agentResult {success
 * false, completed false, message, actions []}, structuredOutput null}` (§8). Extraction and the agent
 * use a headless Chromium when the operator has one (stagehandBrowser.ts: every request of the page
 * through the outbound guard; extraction reads the rendered page), else they read pages as text
 * fetched through the guard (the fallback). The models are called through the model layer (OpenAI for
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
        const browser = deps.browser === undefined ? browserFromEnv() : deps.browser;
        const page = browser ? await renderedPage(deps, browser, url, req.signal) : await loadPage(url, deps.policy, req.signal);
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
        // Every failure's message names no variable's value (a ToolError, a browser's or a library's own error
        // carrying a URL a redirect moved a value into): the concealer is built before anything can fail.
        let conceal = (text: string) => text;
        try {
          const body = objectBody(req.body);
          const variables = agentVariables(body);
          conceal = concealer(variables);
          return json(await runAgent(deps, body, variables, conceal, req.signal));
        } catch (err) {
          const message = conceal(errorMessage(err));
          const status = err instanceof ToolError && err.status ? err.status : 500;
          return json({ error: message, agentResult: { success: false, completed: false, message, actions: [] }, structuredOutput: null }, status);
        }
      },
    },
  ];
}
