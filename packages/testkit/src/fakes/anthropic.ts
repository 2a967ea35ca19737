import { answerBase, createTurnQueue, modelFakeOf, streamPieces, usageOf, type FakeModelServer, type FakeModelTurn } from './modelScript.js';
import { createFakeServer, type FakeAnswer, type FakeHandler, type RecordedRequest } from './server.js';

/** Anthropic's error type for a status. */
function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function sse(event: string, data: Record<string, unknown>): string {
  return `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}`;
}

function invalid(message: string): FakeAnswer {
  return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

/** What Anthropic refuses before answering: no messages, an empty text block (in messages or system blocks). */
function requestProblem(body: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  if (messages.length === 0) return 'messages: at least one message is required';
  for (const [i, m] of messages.entries()) {
    if (m.content === '') return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    if (Array.isArray(m.content)) {
      if (m.content.length === 0) return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
      if ((m.content as Array<{ type?: string; text?: unknown }>).some((b) => b.type === 'text' && b.text === '')) return 'messages: text content blocks must be non-empty';
    }
  }
  if (Array.isArray(body.system) && (body.system as Array<{ type?: string; text?: unknown }>).some((b) => b.type === 'text' && b.text === '')) return 'system: text content blocks must be non-empty';
  return undefined;
}

function messagesAnswer(req: RecordedRequest, turn: FakeModelTurn, n: number): FakeAnswer {
  if (turn.error) {
    return { status: turn.error.status, json: { type: 'error', error: { type: turn.error.type ?? errorType(turn.error.status), message: turn.error.message } }, ...answerBase(turn) };
  }
  const body = (req.body ?? {}) as { model?: string; stream?: boolean };
  const model = body.model ?? 'claude-fake';
  const id = `msg_fake_${n}`;
  const usage = usageOf(turn);
  const uses = (turn.toolCalls ?? []).map((c, i) => ({ type: 'tool_use' as const, id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: c.arguments }));
  const cut = turn.cutToolCall && uses.length > 0 ? uses.length - 1 : -1;
  const stop = turn.finishReason ?? (cut >= 0 ? 'max_tokens' : uses.length > 0 ? 'tool_use' : 'end_turn');
  const wireUsage = {
    input_tokens: usage?.prompt ?? 0,
    output_tokens: usage?.completion ?? 0,
    cache_read_input_tokens: usage?.cached ?? 0,
    cache_creation_input_tokens: usage?.cacheWrite ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: usage?.cacheWrite ?? 0, ephemeral_1h_input_tokens: 0 },
  };
  if (!body.stream) {
    const content = [...(turn.content ? [{ type: 'text', text: turn.content }] : []), ...uses.map((u, i) => (i === cut ? { ...u, input: {} } : u))];
    return { json: { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: wireUsage }, ...answerBase(turn) };
  }
  const events: string[] = [sse('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...wireUsage, output_tokens: usage ? 1 : 0 } } })];
  let index = 0;
  if (turn.content) {
    events.push(sse('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of streamPieces(turn.content)) events.push(sse('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    events.push(sse('content_block_stop', { index }));
    index += 1;
  }
  for (const [i, use] of uses.entries()) {
    const json = JSON.stringify(use.input);
    const half = Math.floor(json.length / 2);
    events.push(sse('content_block_start', { index, content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} } }));
    events.push(sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }));
    // A cut call's JSON ends at its first half.
    if (i !== cut) events.push(sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }));
    events.push(sse('content_block_stop', { index }));
    index += 1;
  }
  events.push(sse('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage?.completion ?? 0 } }));
  events.push(sse('message_stop', {}));
  return { sse: events, ...answerBase(turn) };
}

/**
 * The `POST /v1/messages` handler of an Anthropic fake, answering each request with the turn `next`
 * gives it (JSON or SSE as asked); for servers that speak Anthropic beside another protocol.
 */
export function anthropicMessagesHandler(next: (req: RecordedRequest) => FakeModelTurn): FakeHandler {
  let served = 0;
  return (req) => {
    const problem = requestProblem(typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {});
    return problem ? invalid(problem) : messagesAnswer(req, next(req), ++served);
  };
}

/**
 * A fake of Anthropic's messages API (`POST /v1/messages`, JSON and SSE, tool_use blocks, error bodies,
 * cache usage); it refuses, with Anthropic's 400 texts, a request without messages and an empty text block.
 */
export async function createAnthropicFake(): Promise<FakeModelServer> {
  const server = await createFakeServer();
  const turns = createTurnQueue();
  server.on('POST', '/v1/messages', anthropicMessagesHandler((req) => turns.next(req)));
  return modelFakeOf(server, turns, () => server.received('POST', '/v1/messages'));
}
