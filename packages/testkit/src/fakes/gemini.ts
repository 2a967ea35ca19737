import { answerBase, createTurnQueue, modelFakeOf, streamPieces, usageOf, type FakeModelServer, type FakeModelTurn } from './modelScript.js';
import { createFakeServer, type FakeAnswer, type RecordedRequest } from './server.js';

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

function geminiAnswer(req: RecordedRequest, turn: FakeModelTurn): FakeAnswer {
  if (turn.error) {
    return { status: turn.error.status, json: { error: { code: turn.error.status, message: turn.error.message, status: STATUS_NAMES[turn.error.status] ?? 'UNKNOWN' } }, ...answerBase(turn) };
  }
  const model = decodeURIComponent(req.path.split('/').pop() ?? '').split(':')[0] ?? 'gemini';
  const usage = usageOf(turn);
  const usageMetadata = usage && { promptTokenCount: usage.prompt, candidatesTokenCount: usage.completion, totalTokenCount: usage.prompt + usage.completion, ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}) };
  const calls = (turn.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments } }));
  const finishReason = turn.finishReason ?? 'STOP';
  const response = (parts: unknown[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason } : {}) }],
    ...(last && usageMetadata ? { usageMetadata } : {}),
    modelVersion: model,
  });
  if (!req.path.endsWith(':streamGenerateContent')) {
    const parts = [...(turn.content ? [{ text: turn.content }] : []), ...calls];
    return { json: response(parts, true), ...answerBase(turn) };
  }
  const pieces = streamPieces(turn.content ?? '');
  const events: unknown[] = pieces.map((text, i) => response([{ text }], i === pieces.length - 1 && calls.length === 0));
  if (calls.length > 0 || pieces.length === 0) events.push(response(calls, true));
  return { sse: events, ...answerBase(turn) };
}

/** A fake of Gemini's `models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (key in the query string). */
export async function createGeminiFake(): Promise<FakeModelServer> {
  const server = await createFakeServer();
  const turns = createTurnQueue();
  const handle = (req: RecordedRequest): FakeAnswer => {
    if (!/:(stream)?[gG]enerateContent$/.test(req.path)) return { status: 404, json: { error: { code: 404, message: `unknown method ${req.path}`, status: 'NOT_FOUND' } } };
    if (!req.query.key) return { status: 403, json: { error: { code: 403, message: 'Method doesn\'t allow unregistered callers. Please use API Key.', status: 'PERMISSION_DENIED' } } };
    return geminiAnswer(req, turns.next(req));
  };
  server.on('POST', '/v1beta/models/:method', handle);
  return modelFakeOf(server, turns, () => server.received('POST', '/v1beta/models/:method'));
}
