import { calculateCost, estimateStreamingCost, getProviderIdForModel, getTemperatureRange } from '@weft/catalog';
import type { CallModelInput, CallModelOutput, ModelCost, ModelMessage, ModelProviderId, ModelTokens, RunStreamChunk, Timing } from '@weft/contracts';
import { runChunksSubject } from '@weft/contracts';
import { resolveApiKey, type ModelConfig } from './config.js';
import { cutShortWarning, ModelRequestError } from './errors.js';
import { ADAPTERS } from './providers/index.js';
import { redaction, type Redaction } from '../tools/runtime/errors.js';
import type { AdapterRequest, CacheWrites, ProviderAdapter, StreamSink } from './types.js';

/** The one log call the model layer makes (a pino logger fits). */
export interface ModelLog {
  warn(data: Record<string, unknown>, message: string): void;
}

/** What the model activities need: configuration, the chunk publisher and a log. */
export interface ModelDeps {
  config: ModelConfig;
  /** Instance prefix of the chunk subjects. */
  instance: string;
  /** Publishes one stream chunk (core NATS); absent when nothing listens (tests). */
  publish?: (subject: string, chunk: RunStreamChunk) => void;
  logger: ModelLog;
  /** Adapters by provider (tests inject their own). */
  adapters?: Partial<Record<ModelProviderId, ProviderAdapter>>;
}

/** What a call has streamed so far: the text the client holds, the next sequence number, the tool states sent. */
export interface StreamProgress {
  text: string;
  nextSeq: number;
  states: string[];
}

/** A call's stream across its tries: what an earlier try sent, and where each publish is recorded. */
export interface StreamResume {
  /** The try (1 the first). */
  attempt: number;
  /** What the earlier tries sent, when this process or the last heartbeat knows it. */
  previous?: StreamProgress;
  record(progress: StreamProgress): void;
}

/**
 * A retry that cannot know what the earlier try sent (it ran in a worker that was lost) numbers its
 * chunks from `seqStart + attempt × this`, above anything the lost try can have sent, and marks a restart.
 */
export const RETRY_SEQ_GAP = 100_000;

/** Anthropic's default temperature when the block gives none (§9). */
const ANTHROPIC_DEFAULT_TEMPERATURE = 0.7;
/** Range used for local and Hugging Face models, which the catalogue does not list (the block's slider, §9). */
const OPEN_RANGE = { min: 0, max: 2 };

/** A call's failure with the time it took (§8: provider errors are rethrown with timing). */
export class TimedModelError extends Error {
  constructor(
    readonly original: Error,
    readonly provider: ModelProviderId,
    readonly timing: Timing,
  ) {
    super(original.message);
    this.name = original.name;
  }
}

function timingSince(start: number): Timing {
  const end = Date.now();
  return { startTime: new Date(start).toISOString(), endTime: new Date(end).toISOString(), duration: end - start };
}

/** Temperature sent only where the model supports it, clamped to its range (§5, §9). */
export function settleTemperature(provider: ModelProviderId, model: string, given: number | undefined): number | undefined {
  const range = provider === 'ollama' || provider === 'huggingface' ? OPEN_RANGE : getTemperatureRange(model);
  if (!range) return undefined;
  const wanted = given ?? (provider === 'anthropic' ? ANTHROPIC_DEFAULT_TEMPERATURE : undefined);
  if (wanted === undefined || !Number.isFinite(wanted)) return undefined;
  return Math.min(range.max, Math.max(range.min, wanted));
}

function textLength(messages: ModelMessage[], systemPrompt: string | undefined): number {
  let n = systemPrompt?.length ?? 0;
  for (const m of messages) {
    if (typeof m.content === 'string') n += m.content.length;
    else for (const p of m.content) n += p.type === 'text' ? p.text.length : p.url.length;
  }
  return n;
}

/** Anthropic bills a prompt cache write above the input rate: 1.25× for the 5-minute cache (its default), 2× for the 1-hour one. */
export const CACHE_WRITE_RATES = { fiveMinute: 1.25, oneHour: 2 } as const;

/**
 * Cost of reported tokens by the catalogue's table: the cached part of the prompt at the cached rate,
 * the part written to the cache (`writes`, within the prompt) at the input rate times CACHE_WRITE_RATES.
 */
export function costOf(model: string, tokens: ModelTokens, writes?: CacheWrites): ModelCost {
  const cached = Math.min(tokens.cachedPrompt ?? 0, tokens.prompt);
  const fiveMinute = Math.min(writes?.fiveMinute ?? 0, tokens.prompt - cached);
  const oneHour = Math.min(writes?.oneHour ?? 0, tokens.prompt - cached - fiveMinute);
  const fresh = calculateCost(model, tokens.prompt - cached - fiveMinute - oneHour, tokens.completion);
  const reused = calculateCost(model, cached, 0, true);
  const written = calculateCost(model, fiveMinute * CACHE_WRITE_RATES.fiveMinute + oneHour * CACHE_WRITE_RATES.oneHour, 0);
  const input = round(fresh.input + reused.input + written.input);
  return { input, output: fresh.output, total: round(input + fresh.output) };
}

function round(n: number): number {
  return Math.round(n * 1_000_000) / 1_000_000;
}

/** A text the model layer logs (a provider's error body) is cut to this many characters, after redaction. */
export const LOGGED_TEXT_CHARS = 2000;
const cutForLog = (v: unknown): unknown => (typeof v === 'string' && v.length > LOGGED_TEXT_CHARS ? v.slice(0, LOGGED_TEXT_CHARS) : v);

/** Runs one model request: key, temperature and tokens settled, stream chunks published, cost priced. */
export async function callModel(deps: ModelDeps, input: CallModelInput, signal?: AbortSignal, resume?: StreamResume): Promise<CallModelOutput> {
  const started = Date.now();
  const model = input.model?.trim() ?? '';
  const provider: ModelProviderId = input.provider ?? (model ? getProviderIdForModel(model) : 'openai');
  // The key (Gemini's rides in the URL) never reaches a log or an error, in any encoded form.
  const hide = redaction();
  try {
    if (!model) throw new ModelRequestError('No model selected');
    const adapter = deps.adapters?.[provider] ?? ADAPTERS[provider];
    const maxTokens = typeof input.maxTokens === 'number' && Number.isFinite(input.maxTokens) && input.maxTokens > 0 ? Math.floor(input.maxTokens) : undefined;
    const temperature = settleTemperature(provider, model, input.temperature);
    const req: AdapterRequest = {
      model,
      messages: input.messages,
      apiKey: resolveApiKey(deps.config, provider, input.apiKey, input.azureEndpoint),
      stream: input.stream !== undefined,
      ...(input.systemPrompt ? { systemPrompt: input.systemPrompt } : {}),
      ...(input.tools?.length ? { tools: input.tools } : {}),
      ...(input.toolChoice ? { toolChoice: input.toolChoice } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(input.responseFormat ? { responseFormat: input.responseFormat } : {}),
      ...(input.azureEndpoint ? { azureEndpoint: input.azureEndpoint } : {}),
      ...(input.azureApiVersion ? { azureApiVersion: input.azureApiVersion } : {}),
      ...(input.hfProvider ? { hfProvider: input.hfProvider } : {}),
    };
    hide.add(req.apiKey);
    const target = input.stream;
    const subject = target ? runChunksSubject(deps.instance, target.executionId) : '';
    const seqStart = target?.seqStart ?? 0;
    // A retried call goes on from what its failed try streamed: the client keeps that text and numbering.
    const unknownEarlierTry = resume !== undefined && resume.attempt > 1 && !resume.previous;
    let seq = resume?.previous?.nextSeq ?? (unknownEarlierTry ? seqStart + (resume?.attempt ?? 1) * RETRY_SEQ_GAP : seqStart);
    let clientText = resume?.previous?.text ?? '';
    let restartPending = unknownEarlierTry;
    let answerText = '';
    const statesSent = new Set(resume?.previous?.states ?? []);
    let firstTokenMs: number | undefined;
    const publish = (chunk: string, extra: Pick<RunStreamChunk, 'toolCall' | 'restart'> = {}) => {
      if (!target || !deps.publish) return;
      deps.publish(subject, { executionId: target.executionId, blockId: target.blockId, seq: seq++, chunk, ...extra });
      resume?.record({ text: clientText, nextSeq: seq, states: [...statesSent] });
    };
    const publishState = (toolCall: NonNullable<RunStreamChunk['toolCall']>) => {
      const key = `${toolCall.id}:${toolCall.state}`;
      if (statesSent.has(key)) return;
      statesSent.add(key);
      publish('', { toolCall });
    };
    /** Sends the answer's new text: nothing while a retry repeats what the client has, a restart where it differs. */
    const sendText = (final: boolean) => {
      if (!restartPending && answerText.startsWith(clientText)) {
        if (answerText.length === clientText.length) return;
        const delta = answerText.slice(clientText.length);
        clientText = answerText;
        publish(delta);
      } else if (!restartPending && !final && clientText.startsWith(answerText)) {
        return;
      } else {
        restartPending = false;
        clientText = answerText;
        publish(answerText, { restart: { fromSeq: seqStart } });
      }
    };
    for (const state of target?.toolStates ?? []) publishState(state);
    const sink: StreamSink = {
      text(delta) {
        if (!delta) return;
        firstTokenMs ??= Date.now() - started;
        answerText += delta;
        sendText(false);
      },
      toolDetected(id, name) {
        publishState({ id, name, state: 'detecting' });
      },
      warn(message, data) {
        // Redacted whole, then cut: a key straddling the cut is never logged half.
        const shown = hide.value({ provider, model, ...data }) as Record<string, unknown>;
        deps.logger.warn(Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, cutForLog(v)])), cutForLog(hide.text(message)) as string);
      },
    };
    const result = await adapter.call(req, deps.config, sink, signal);
    // A retry whose answer is shorter than what the failed try sent replaces that text.
    if (target && (restartPending || answerText !== clientText)) sendText(true);
    if (!target?.callerSendsToolStates) for (const call of result.toolCalls) publishState({ id: call.id, name: call.name, state: 'executing' });
    let tokens: ModelTokens;
    let cost: ModelCost;
    if (result.tokens) {
      tokens = result.tokens;
      cost = costOf(model, tokens, result.cacheWrites);
    } else {
      // §9: a stream that reports no usage is estimated at 0.0001 per token (about 4 characters a token).
      const prompt = Math.ceil(textLength(input.messages, input.systemPrompt) / 4);
      const completion = Math.ceil((result.content.length + JSON.stringify(result.toolCalls).length * (result.toolCalls.length ? 1 : 0)) / 4);
      tokens = { prompt, completion, total: prompt + completion };
      const inputCost = estimateStreamingCost(prompt);
      const outputCost = estimateStreamingCost(completion);
      cost = { input: inputCost, output: outputCost, total: round(inputCost + outputCost) };
    }
    return {
      content: result.content,
      model: result.model || model,
      provider,
      toolCalls: result.toolCalls,
      tokens,
      cost,
      timing: timingSince(started),
      chunks: seq - seqStart,
      ...(firstTokenMs !== undefined ? { firstTokenMs } : {}),
      ...(result.cutShort ? { warning: cutShortWarning(result.cutShort) } : {}),
    };
  } catch (err) {
    throw timedFailure(err, provider, started, hide);
  }
}

/** A call's failure with the time since `started`, the secrets `hide` knows redacted from its message and stack. */
function timedFailure(err: unknown, provider: ModelProviderId, started: number, hide: Redaction): TimedModelError {
  const cause = err instanceof Error ? err : new Error(String(err));
  // Own properties: some errors (DOMException) answer message from a getter. The stack starts with the message, so it is redacted too.
  const hidden = hide.text(cause.message);
  if (hidden !== cause.message) Object.defineProperty(cause, 'message', { value: hidden, configurable: true, writable: true });
  const stack = typeof cause.stack === 'string' ? hide.text(cause.stack) : undefined;
  if (stack !== undefined && stack !== cause.stack) Object.defineProperty(cause, 'stack', { value: stack, configurable: true, writable: true });
  return new TimedModelError(cause, provider, timingSince(started));
}

/**
 * Runs a provider call other than a chat (embeddings, image generation): its failure carries the call's
 * timing, as a model call's does (§8), and none of `keys` (the block's key, the operator's).
 */
export async function timedCall<T>(provider: ModelProviderId, keys: Array<string | undefined>, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } catch (err) {
    throw timedFailure(err, provider, started, redaction(keys));
  }
}
