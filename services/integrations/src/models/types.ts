import { randomInt } from 'node:crypto';
import type { ModelMessage, ModelProviderId, ModelResponseFormat, ModelTokens, ModelToolCall, ModelToolChoice, ModelToolDefinition } from '@weft/contracts';
import type { ModelConfig } from './config.js';

/** What an adapter sends: the activity's input after key, temperature and limits were settled. */
export interface AdapterRequest {
  model: string;
  systemPrompt?: string;
  messages: ModelMessage[];
  tools?: ModelToolDefinition[];
  toolChoice?: ModelToolChoice;
  /** Already clamped to the model's range; absent when the model takes none. */
  temperature?: number;
  maxTokens?: number;
  responseFormat?: ModelResponseFormat;
  apiKey: string;
  azureEndpoint?: string;
  azureApiVersion?: string;
  hfProvider?: string;
  stream: boolean;
}

/** Receives a streamed answer as it arrives. */
export interface StreamSink {
  text(delta: string): void;
  toolDetected(id: string, name: string): void;
  /**
   * Something the user should see in the service log (a provider's error body, an ignored event).
   * Texts are passed whole: the model layer redacts the call's key, then cuts each to LOGGED_TEXT_CHARS
   * (cut first, a key straddling the cut would be logged half, unredacted).
   */
  warn(message: string, data?: Record<string, unknown>): void;
}

/** Prompt tokens written to the provider's cache (Anthropic), by cache lifetime: part of `tokens.prompt`, priced above the input rate. */
export interface CacheWrites {
  fiveMinute: number;
  oneHour: number;
}

/** One provider's answer; `tokens` undefined when a stream reported no usage. */
export interface AdapterResult {
  content: string;
  model: string;
  toolCalls: ModelToolCall[];
  tokens?: ModelTokens;
  cacheWrites?: CacheWrites;
  /** How the provider said the answer was cut off at the max tokens limit ('Anthropic stop_reason max_tokens'), when it was. */
  cutShort?: string;
}

/** A provider adapter: one file per provider under models/providers. */
export interface ProviderAdapter {
  id: ModelProviderId;
  call(req: AdapterRequest, config: ModelConfig, sink: StreamSink, signal?: AbortSignal): Promise<AdapterResult>;
}

/** Parses a model's tool arguments; a non-object or bad JSON becomes `{}` so the tool reports what is missing. */
export function parseArguments(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Spec 000 §9: 'Tool call id is 8 characters.' */
export const TOOL_CALL_ID_LENGTH = 8;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new 8-character tool call id, unlike every id in `taken` (which it joins): for providers that give a call none. */
export function newToolCallId(taken: Set<string>): string {
  for (;;) {
    let id = '';
    for (let i = 0; i < TOOL_CALL_ID_LENGTH; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** The ids of the tool calls earlier in a conversation. */
export function toolCallIdsOf(messages: ModelMessage[]): Set<string> {
  return new Set(messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])));
}
