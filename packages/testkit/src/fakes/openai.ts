import { answerBase, createTurnQueue, modelFakeOf, streamPieces, usageOf, type FakeModelServer, type FakeModelTurn } from './modelScript.js';
import { createFakeServer, type FakeAnswer, type RecordedRequest } from './server.js';

/** Chat completion routes of the OpenAI-compatible providers this fake stands in for. */
const CHAT_PATHS = [
  '/v1/chat/completions', // OpenAI, Deepseek, xAI, Cerebras, Ollama's OpenAI route, Hugging Face's router (model `<id>:<provider>`)
  '/openai/v1/chat/completions', // Groq
];
const AZURE_CHAT_PATH = '/openai/deployments/:deployment/chat/completions';

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but not gpt-5-chat): they refuse max_tokens and any temperature but 1. */
const isReasoningModel = (model: string): boolean => /^o\d+(?:-|$)/.test(model) || /^gpt-5(?!-chat)/.test(model);
/** Deepseek's API knows only these two models. */
const DEEPSEEK_MODELS = ['deepseek-chat', 'deepseek-reasoner'];

/** OpenAI's 400 body. */
function invalidRequest(message: string, param: string | null = null, code: string | null = null): FakeAnswer {
  return { status: 400, json: { error: { message, type: 'invalid_request_error', param, code } } };
}

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What OpenAI's strict mode refuses in a schema: an object not closed by additionalProperties false, or not requiring
 * all its properties; oneOf, allOf, not, if, patternProperties, minLength, maxLength, default.
 */
function strictProblem(schema: unknown, at: string): string | undefined {
  if (!isSchema(schema)) return undefined;
  const unsupported = ['oneOf', 'allOf', 'not', 'if', 'patternProperties', 'minLength', 'maxLength', 'default'].find((key) => schema[key] !== undefined);
  if (unsupported) return `In context=(${at}), '${unsupported}' is not permitted.`;
  if (isSchema(schema.properties) || schema.type === 'object') {
    if (schema.additionalProperties !== false) return `In context=(${at}), 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys(isSchema(schema.properties) ? schema.properties : {});
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = keys.find((k) => !required.includes(k));
    if (missing !== undefined) return `In context=(${at}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
  }
  const children: Array<[unknown, string]> = [
    ...Object.entries(isSchema(schema.properties) ? schema.properties : {}).map(([k, v]): [unknown, string] => [v, `${at ? `${at}, ` : ''}'properties', '${k}'`]),
    [schema.items, `${at ? `${at}, ` : ''}'items'`],
    ...['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]).map((v, i): [unknown, string] => [v, `${at ? `${at}, ` : ''}'${key}', '${i}'`]) : [])),
  ];
  for (const [child, where] of children) {
    const problem = strictProblem(child, where);
    if (problem) return problem;
  }
  return undefined;
}

interface ChatBody {
  model?: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  stream_options?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } };
}

/** What OpenAI (and, for `model`, the Azure deployment's model) refuses in a chat request, as its 400 answer. */
function refusedChat(body: ChatBody, model: string): FakeAnswer | undefined {
  if (isReasoningModel(model)) {
    if (body.max_tokens !== undefined) return invalidRequest("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'max_tokens', 'unsupported_parameter');
    if (body.temperature !== undefined && body.temperature !== 1)
      return invalidRequest(`Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value');
  }
  if (/^deepseek-[^:/]*$/.test(model)) {
    if (!DEEPSEEK_MODELS.includes(model)) return invalidRequest('Model Not Exist', null, 'invalid_request_error');
    if (body.response_format?.type && !['text', 'json_object'].includes(body.response_format.type)) return invalidRequest('This response_format type is unavailable now', null, 'invalid_request_error');
  }
  const format = body.response_format;
  if (format?.type === 'json_schema' && format.json_schema?.strict === true) {
    const root = format.json_schema.schema;
    // The root must be an object schema (a root anyOf is refused too).
    if (!isSchema(root) || root.type !== 'object' || root.anyOf !== undefined) {
      const type = isSchema(root) && typeof root.type === 'string' ? root.type : 'None';
      return invalidRequest(`Invalid schema for response_format '${format.json_schema.name ?? ''}': schema must be a JSON Schema of 'type: "object"', got 'type: "${type}"'.`, 'response_format', 'invalid_json_schema');
    }
    const problem = strictProblem(root, '');
    if (problem) return invalidRequest(`Invalid schema for response_format '${format.json_schema.name ?? ''}': ${problem}`, 'response_format', 'invalid_json_schema');
  }
  return undefined;
}

/** Azure api versions by date: stream_options from 2024-09-01-preview, json_schema from 2024-08-01-preview, o1 and o3-mini from 2024-12-01-preview, o3, o4-mini and later reasoning models from 2025-04-01-preview. */
function refusedByAzure(req: RecordedRequest, deployment: string): FakeAnswer | undefined {
  const version = req.query['api-version'] ?? '';
  const date = /^\d{4}-\d{2}-\d{2}/.exec(version)?.[0];
  if (!date) return { status: 404, json: { error: { code: '404', message: 'Resource not found' } } };
  const body = (req.body ?? {}) as ChatBody;
  const reasoningFrom = !isReasoningModel(deployment) ? undefined : /^(?:o1(?:-|$)|o3-mini(?:-|$))/.test(deployment) ? '2024-12-01-preview' : '2025-04-01-preview';
  if (reasoningFrom && date < reasoningFrom.slice(0, 10)) return invalidRequest(`Model ${deployment} is enabled only for api versions ${reasoningFrom} and later`, null, 'BadRequest');
  const unknown = [...(body.stream_options !== undefined && date < '2024-09-01' ? ['stream_options'] : []), ...(body.max_completion_tokens !== undefined && date < '2024-09-01' ? ['max_completion_tokens'] : [])];
  if (unknown.length > 0) return invalidRequest(`Unrecognized request argument supplied: ${unknown.join(', ')}`);
  if (body.response_format?.type === 'json_schema' && date < '2024-08-01') return invalidRequest("Invalid value: 'json_schema'. Supported values are: 'json_object' and 'text'.", 'response_format.type', 'invalid_value');
  return refusedChat(body, deployment);
}

export interface OpenAIFakeOptions {
  /** Models the fake Ollama server lists at GET /api/tags. */
  localModels?: string[];
}

/** An OpenAI-compatible fake: chat completions (JSON and SSE, scripted tool calls), embeddings, images and Ollama's model list. */
export interface OpenAIFake extends FakeModelServer {
  /** Base URL ending in /v1, as the OpenAI client takes it. */
  baseUrl: string;
  setLocalModels(models: string[]): void;
}

function errorAnswer(turn: FakeModelTurn): FakeAnswer | undefined {
  if (!turn.error) return undefined;
  const type = turn.error.type ?? (turn.error.status === 401 ? 'invalid_request_error' : turn.error.status === 429 ? 'rate_limit_exceeded' : 'server_error');
  const code = turn.error.code ?? (turn.error.status === 401 ? 'invalid_api_key' : null);
  return { status: turn.error.status, json: { error: { message: turn.error.message, type, param: null, code } }, ...answerBase(turn) };
}

function chatAnswer(req: RecordedRequest, turn: FakeModelTurn, n: number): FakeAnswer {
  const failed = errorAnswer(turn);
  if (failed) return failed;
  const body = (req.body ?? {}) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const model = body.model ?? 'fake';
  const id = `chatcmpl-fake-${n}`;
  const created = Math.floor(Date.now() / 1000);
  const calls = (turn.toolCalls ?? []).map((c, i, all) => {
    const args = JSON.stringify(c.arguments);
    // A cut call's arguments end at their first half.
    const cut = turn.cutToolCall && i === all.length - 1;
    return { id: c.id ?? `call_${n}_${i}`, type: 'function' as const, function: { name: c.name, arguments: cut ? args.slice(0, Math.floor(args.length / 2)) : args } };
  });
  const finish = turn.finishReason ?? (turn.cutToolCall && calls.length > 0 ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop');
  const usage = usageOf(turn);
  const wireUsage = usage && {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cached },
  };
  if (!body.stream) {
    const message = { role: 'assistant', content: turn.content ?? (calls.length ? null : ''), ...(calls.length ? { tool_calls: calls } : {}) };
    return { json: { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], ...(wireUsage ? { usage: wireUsage } : {}) }, ...answerBase(turn) };
  }
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const events: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of streamPieces(turn.content ?? '')) events.push(chunk({ content: piece }));
  calls.forEach((c, index) => {
    const args = c.function.arguments;
    const half = Math.floor(args.length / 2);
    events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: args.slice(0, half) } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  events.push(chunk({}, finish));
  if (wireUsage && body.stream_options?.include_usage) events.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: wireUsage });
  events.push('data: [DONE]');
  return { sse: events, ...answerBase(turn) };
}

/** A deterministic unit-length-ish vector per text, so equal inputs embed equally. */
function fakeVector(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => ((text.charCodeAt(i % Math.max(text.length, 1)) || 1) % 17) / 17);
  return v;
}

/** Starts an OpenAI-compatible fake on 127.0.0.1. */
export async function createOpenAIFake(opts: OpenAIFakeOptions = {}): Promise<OpenAIFake> {
  const server = await createFakeServer();
  const turns = createTurnQueue();
  let localModels = opts.localModels ?? [];
  let served = 0;
  for (const path of CHAT_PATHS) server.on('POST', path, (req) => refusedChat((req.body ?? {}) as ChatBody, String((req.body as ChatBody | undefined)?.model ?? '')) ?? chatAnswer(req, turns.next(req), ++served));
  server.on('POST', AZURE_CHAT_PATH, (req) => refusedByAzure(req, decodeURIComponent(req.path.split('/')[3] ?? '')) ?? chatAnswer(req, turns.next(req), ++served));
  server.on('POST', '/v1/embeddings', (req) => {
    const body = (req.body ?? {}) as { input?: string | string[]; model?: string; encoding_format?: string };
    if (req.headers.authorization === 'Bearer bad-key') return { status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } };
    const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
    const tokens = inputs.reduce((sum, t) => sum + streamPieces(t).length, 0);
    return { json: { object: 'list', model: body.model, data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })), usage: { prompt_tokens: tokens, total_tokens: tokens } } };
  });
  server.on('POST', '/v1/images/generations', (req) => {
    const body = (req.body ?? {}) as { model?: string; prompt?: string; n?: number };
    const n = body.n ?? 1;
    // dall-e-3 makes one image a request.
    if (body.model === 'dall-e-3' && n !== 1) return invalidRequest('You must provide n=1 for this model.', 'n');
    const data = Array.from({ length: n }, (_, i) =>
      body.model === 'gpt-image-1' ? { b64_json: Buffer.from(`png-${i}`).toString('base64') } : { url: `${server.url}/images/${i}.png`, revised_prompt: `revised: ${body.prompt ?? ''}` },
    );
    return { json: { created: Math.floor(Date.now() / 1000), data } };
  });
  server.on('GET', '/api/tags', () => ({ json: { models: localModels.map((name) => ({ name, model: name, size: 1 })) } }));
  const fake: OpenAIFake = Object.assign(
    modelFakeOf(server, turns, () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))),
    {
      baseUrl: `${server.url}/v1`,
      setLocalModels(models: string[]) {
        localModels = models;
      },
    },
  );
  return fake;
}
