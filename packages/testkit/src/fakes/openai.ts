import { answerBase, createTurnQueue, modelFakeOf, streamPieces, usageOf, type FakeModelServer, type FakeModelTurn } from './modelScript.js';
import { createFakeServer, type FakeAnswer, type RecordedRequest } from './server.js';

/** Chat completion routes of the OpenAI-compatible providers this fake stands in for. */
const CHAT_PATHS = [
  '/v1/chat/completions', // OpenAI, Deepseek, xAI, Cerebras, Ollama's OpenAI route
  '/openai/v1/chat/completions', // Groq
  '/openai/deployments/:deployment/chat/completions', // Azure OpenAI
  '/:provider/v1/chat/completions', // Hugging Face router
];

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
  return { status: turn.error.status, json: { error: { message: turn.error.message, type, param: null, code: turn.error.status === 401 ? 'invalid_api_key' : null } }, ...answerBase(turn) };
}

function chatAnswer(req: RecordedRequest, turn: FakeModelTurn, n: number): FakeAnswer {
  const failed = errorAnswer(turn);
  if (failed) return failed;
  const body = (req.body ?? {}) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const model = body.model ?? 'fake';
  const id = `chatcmpl-fake-${n}`;
  const created = Math.floor(Date.now() / 1000);
  const calls = (turn.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
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
  for (const path of CHAT_PATHS) server.on('POST', path, (req) => chatAnswer(req, turns.next(req), ++served));
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
