/**
 * Temporal activity contracts of the model layer (spec 001 §3 "LLM request/response", §4, §7):
 * one activity per model call, embeddings and image generation, served on the integrations queue.
 * The runner's model workflows import these as types only.
 */
import type { CallContext, Timing } from './activities.js';

/** Who answers a model call: the catalogue's providers plus Hugging Face's router (its own block). */
export type ModelProviderId =
  | 'openai'
  | 'azure-openai'
  | 'anthropic'
  | 'google'
  | 'deepseek'
  | 'xai'
  | 'cerebras'
  | 'groq'
  | 'ollama'
  | 'huggingface';

/** The environment variable that holds each provider's key: the operator's, and a user's own of the same name. */
export const MODEL_KEY_VARIABLES: Readonly<Record<ModelProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  'azure-openai': 'AZURE_OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GEMINI_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
  xai: 'XAI_API_KEY',
  cerebras: 'CEREBRAS_API_KEY',
  groq: 'GROQ_API_KEY',
  ollama: 'OLLAMA_API_KEY',
  huggingface: 'HUGGINGFACE_API_KEY',
};

/** Each provider's name in its "API key is required for …" message (spec 001 §5); Ollama needs no key. */
export const MODEL_KEY_NAMES: Readonly<Partial<Record<ModelProviderId, string>>> = {
  anthropic: 'Anthropic',
  cerebras: 'Cerebras',
  deepseek: 'Deepseek',
  google: 'Gemini',
  groq: 'Groq',
  xai: 'xAI',
  openai: 'OpenAI',
  'azure-openai': 'Azure OpenAI',
  huggingface: 'Hugging Face',
};

/** A tool call the model asked for; `arguments` is the parsed JSON object. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Gemini's opaque signature of the reasoning behind the call: sent back with it in the follow-up (Gemini 3 refuses the call without it). */
  thoughtSignature?: string;
}

export type ModelContentPart = { type: 'text'; text: string } | { type: 'image'; url: string };

/** One message of a conversation, provider-neutral. */
export type ModelMessage =
  | { role: 'system' | 'user'; content: string | ModelContentPart[] }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool offered to the model: JSON-schema parameters of the values the model fills. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** `auto`: the model decides; `none`: no tool; `{name}`: that tool is forced. */
export type ModelToolChoice = 'auto' | 'none' | { name: string };

/** Structured output: a JSON schema the answer must follow (Azure: strict unless `strict` is false). */
export interface ModelResponseFormat {
  name?: string;
  schema: Record<string, unknown>;
  strict?: boolean;
}

/** Stream tool call states (spec 000 §4). */
export type ToolCallState = 'detecting' | 'executing' | 'completed' | 'error';

/** Where a streaming call publishes its tokens (`runChunksSubject`), and from which sequence number. */
export interface ModelStreamTarget {
  executionId: string;
  blockId: string;
  seqStart: number;
  /** Tool call states to publish before the request (the previous round's tools finishing). */
  toolStates?: Array<{ id: string; name: string; state: ToolCallState }>;
  /**
   * The caller publishes the states of the tool calls it runs (`executing` as each starts, `completed`
   * or `error` as each ends): the call publishes only `detecting`. Without it the call publishes
   * `executing` for every tool call of its answer.
   */
  callerSendsToolStates?: boolean;
  /**
   * Set when the workflow tries the call itself (one activity per try): the id its tries share and
   * this try's number (1 the first), so a try goes on from what the earlier ones streamed as a retry
   * by Temporal does.
   */
  callId?: string;
  attempt?: number;
}

/** One model request (spec 001 §3 "LLM request"); the provider comes from the model unless given. */
export interface CallModelInput {
  model: string;
  provider?: ModelProviderId;
  systemPrompt?: string;
  messages: ModelMessage[];
  tools?: ModelToolDefinition[];
  toolChoice?: ModelToolChoice;
  temperature?: number;
  maxTokens?: number;
  responseFormat?: ModelResponseFormat;
  /** The block's key (`{{KEY}}` already resolved); else the operator's variable for the provider. */
  apiKey?: string;
  azureEndpoint?: string;
  azureApiVersion?: string;
  /** Hugging Face inference provider (novita, together, …). */
  hfProvider?: string;
  /** Stream the answer's tokens to the run's chunk subject. */
  stream?: ModelStreamTarget;
  context?: CallContext;
}

/** Tokens of one call; `cachedPrompt` is the part of the prompt the provider served from its cache. */
export interface ModelTokens {
  prompt: number;
  completion: number;
  total: number;
  cachedPrompt?: number;
}

/** Dollars of one call or block (catalogue pricing). */
export interface ModelCost {
  input: number;
  output: number;
  total: number;
}

/** One model answer (spec 001 §3 "LLM response"). */
export interface CallModelOutput {
  content: string;
  model: string;
  provider: ModelProviderId;
  toolCalls: ModelToolCall[];
  tokens: ModelTokens;
  cost: ModelCost;
  timing: Timing;
  /** Stream chunks published by this call (the next call starts at `seqStart + chunks`). */
  chunks: number;
  /** Time to the first streamed token, when streamed. */
  firstTokenMs?: number;
  /** Shown in the block's output: the answer was cut off at the max tokens limit and is incomplete. */
  warning?: string;
}

/** A failed provider call, as the `details[0]` of the activity's ApplicationFailure. */
export interface ModelErrorDetails {
  provider: ModelProviderId;
  status?: number;
  timing: Timing;
}

/**
 * A call its workflow cancelled, as the `details[0]` of the activity's CancelledFailure: the text its
 * stream had sent (a workflow that waits for the cancellation keeps it as the partial answer).
 */
export interface ModelCancelledDetails {
  text: string;
}

export interface CreateEmbeddingsInput {
  input: string | string[];
  model?: string;
  encodingFormat?: 'float' | 'base64';
  apiKey?: string;
  context?: CallContext;
}

export interface CreateEmbeddingsOutput {
  embeddings: Array<number[] | string>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
  cost: ModelCost;
}

export interface GenerateImageInput {
  model: 'dall-e-3' | 'gpt-image-1';
  prompt: string;
  size?: string;
  quality?: string;
  style?: string;
  background?: string;
  n?: number;
  apiKey?: string;
  context?: CallContext;
}

export interface GenerateImageOutput {
  /** The first image's URL, or a data URL when the model answers base64. */
  content: string;
  image: string;
  metadata: { model: string; images: string[]; revisedPrompt?: string };
}

/** Activities of the model layer on the integrations task queue. */
export interface ModelActivities {
  /** One model request; streams its tokens when asked. Provider errors throw with `ModelErrorDetails` (4xx other than 408/429 non-retryable). */
  callModel(input: CallModelInput): Promise<CallModelOutput>;
  createEmbeddings(input: CreateEmbeddingsInput): Promise<CreateEmbeddingsOutput>;
  generateImage(input: GenerateImageInput): Promise<GenerateImageOutput>;
  /** Names of the models the local Ollama server reports (empty when it is unreachable). */
  listLocalModels(): Promise<string[]>;
}
