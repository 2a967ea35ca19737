import type { FakeAnswer, FakeServer, RecordedRequest } from './server.js';

/** One scripted answer of a fake model: text, tool calls, usage, or one of the provider's errors. */
export interface FakeModelTurn {
  content?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown>; id?: string }>;
  /**
   * The max tokens limit is hit while the model writes the last of `toolCalls`, as each provider answers it:
   * Anthropic stop_reason max_tokens with that tool_use block last (its input_json_delta chunks end mid-JSON,
   * `input` {} unstreamed); OpenAI finish_reason length with its arguments cut mid-JSON; Gemini finishReason
   * MAX_TOKENS with the call left out (Gemini gives only whole calls).
   */
  cutToolCall?: boolean;
  /**
   * Token counts reported; `null` reports none (a stream without usage). Default 10 / 5. `thoughts`:
   * Gemini's thinking tokens (thoughtsTokenCount); `cacheWrite`: Anthropic's cache_creation_input_tokens.
   */
  usage?: { prompt: number; completion: number; cached?: number; thoughts?: number; cacheWrite?: number } | null;
  /** Answer the provider's error body with this status instead. */
  error?: { status: number; message: string; type?: string; code?: string };
  /** Overrides the finish reason sent (Gemini's UNEXPECTED_TOOL_CALL, MAX_TOKENS; Anthropic's stop_reason max_tokens; OpenAI's length). */
  finishReason?: string;
  /** Gemini: the prompt was blocked, answered as promptFeedback.blockReason with no candidates. */
  blockReason?: string;
  delayMs?: number;
  /** Drop the connection (network failure). */
  destroy?: boolean;
  /** Milliseconds between streamed events, and a hook called as each leaves the fake. */
  sseIntervalMs?: number;
  onSseEvent?: (index: number) => void;
  /** Awaited before each streamed event is written (FakeAnswer.sseGate). */
  sseGate?: (index: number) => Promise<void> | void;
}

export type FakeModelTurnSource = FakeModelTurn | ((req: RecordedRequest) => FakeModelTurn);

/** A model provider's fake: scripted turns answered in order, then the fallback. */
export interface FakeModelServer {
  /** Root URL of the fake (`http://127.0.0.1:port`). */
  url: string;
  server: FakeServer;
  /** Queues answers for the next chat requests, in order. */
  reply(...turns: FakeModelTurnSource[]): FakeModelServer;
  /** The answer once the queue is empty (default: 'Hello from the fake model.'). */
  fallback(turn: FakeModelTurnSource): FakeModelServer;
  /** Chat requests received so far, oldest first. */
  chatRequests(): RecordedRequest[];
  /** Forgets queued turns and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_TURN: FakeModelTurn = { content: 'Hello from the fake model.' };

/** Splits text into stream pieces the way models do: word by word, spaces kept. */
export function streamPieces(text: string): string[] {
  return text === '' ? [] : (text.match(/\S+\s*|\s+/g) ?? [text]);
}

export function usageOf(turn: FakeModelTurn): { prompt: number; completion: number; cached: number; thoughts: number; cacheWrite: number } | null {
  if (turn.usage === null) return null;
  return { prompt: turn.usage?.prompt ?? 10, completion: turn.usage?.completion ?? 5, cached: turn.usage?.cached ?? 0, thoughts: turn.usage?.thoughts ?? 0, cacheWrite: turn.usage?.cacheWrite ?? 0 };
}

/** Timing and failure parts of a turn, shared by every protocol. */
export function answerBase(turn: FakeModelTurn): Pick<FakeAnswer, 'delayMs' | 'destroy' | 'sseIntervalMs' | 'onSseEvent' | 'sseGate'> {
  return {
    ...(turn.delayMs ? { delayMs: turn.delayMs } : {}),
    ...(turn.destroy ? { destroy: true } : {}),
    ...(turn.sseIntervalMs ? { sseIntervalMs: turn.sseIntervalMs } : {}),
    ...(turn.onSseEvent ? { onSseEvent: turn.onSseEvent } : {}),
    ...(turn.sseGate ? { sseGate: turn.sseGate } : {}),
  };
}

export interface TurnQueue {
  next(req: RecordedRequest): FakeModelTurn;
  push(turns: FakeModelTurnSource[]): void;
  setFallback(t: FakeModelTurnSource): void;
  clear(): void;
}

/** The queue of scripted turns behind every model fake. */
export function createTurnQueue(): TurnQueue {
  const queue: FakeModelTurnSource[] = [];
  let fallback: FakeModelTurnSource = DEFAULT_FAKE_TURN;
  return {
    next(req) {
      const source = queue.shift() ?? fallback;
      return typeof source === 'function' ? source(req) : source;
    },
    push: (turns) => void queue.push(...turns),
    setFallback: (t) => void (fallback = t),
    clear: () => void (queue.length = 0),
  };
}

/** The scripting surface every model fake shares, around its server, its turn queue and how it tells chat requests. */
export function modelFakeOf(server: FakeServer, turns: TurnQueue, chatRequests: () => RecordedRequest[]): FakeModelServer {
  const fake: FakeModelServer = {
    url: server.url,
    server,
    reply(...t) {
      turns.push(t);
      return fake;
    },
    fallback(t) {
      turns.setFallback(t);
      return fake;
    },
    chatRequests,
    reset() {
      turns.clear();
      server.requests.length = 0;
    },
    close: () => server.close(),
  };
  return fake;
}
