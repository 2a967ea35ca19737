import type OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ModelMessage, ModelProviderId, ModelResponseFormat, ModelToolCall, ModelToolChoice } from '@weft/contracts';
import { cutToolCallError, emptyCutError, ModelRequestError, toProviderError } from '../errors.js';
import { checkImageUrl } from '../imageUrls.js';
import { newToolCallId, parseArguments, toolCallIdsOf, type AdapterRequest, type AdapterResult, type StreamSink } from '../types.js';
import { checkRefs, RESPONSE_FORMAT_FIELD, toolParametersField } from './schemaRefs.js';

/** How one OpenAI-compatible provider differs from OpenAI itself. */
export interface CompatibleOptions {
  provider: ModelProviderId;
  /** The model name the provider expects (prefixes like `groq/` removed, Azure deployments). */
  wireModel: string;
  /** Whether `tool_choice` is sent (false for Cerebras and Groq, §9). */
  toolUsageControl: boolean;
  /** Whether a forced tool_choice is honoured; Ollama ignores it, so only the forced tool is offered. */
  honoursForcedChoice?: boolean;
  /**
   * A reasoning model of OpenAI or Azure (o1, o3, o4-mini, gpt-5…): the limit goes as max_completion_tokens
   * (they refuse max_tokens) and no temperature is sent (they refuse any but the default).
   */
  reasoning?: boolean;
  /** Whether a stream asks for its usage (stream_options.include_usage); default true. Azure before 2024-09-01-preview refuses it. */
  streamUsage?: boolean;
  /**
   * How a response schema is asked for: 'json_schema' (default), or 'json_object' with the schema written into
   * the system prompt, for providers that take no json_schema (Deepseek, older Azure api versions, some Groq models).
   */
  responseFormat?: 'json_schema' | 'json_object';
  /** Whether json_schema may be strict (default true); Groq's constrained decoding is only on some models. */
  strictSchemas?: boolean;
}

/** OpenAI's reasoning models by name (o1, o3, o4-mini, gpt-5 but not gpt-5-chat): they take max_completion_tokens and no temperature. */
export function isReasoningModel(model: string): boolean {
  return /^o\d+(?:-|$)/.test(model) || /^gpt-5(?!-chat)/.test(model);
}

/** The instruction that carries a response schema when the provider only takes `json_object` (which also needs the word JSON in the prompt). */
export function schemaInstruction(format: ModelResponseFormat): string {
  return `Respond only with a JSON object that matches this JSON schema${format.name ? ` (${format.name})` : ''}: ${JSON.stringify(format.schema)}`;
}

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A schema that also admits null (how strict mode says a property may be absent). */
function nullable(schema: Schema): Schema {
  const type = schema.type;
  if (typeof type === 'string' && !Array.isArray(schema.enum) && schema.const === undefined) return { ...schema, type: type === 'null' ? 'null' : [type, 'null'] };
  if (Array.isArray(type) && !Array.isArray(schema.enum) && schema.const === undefined) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * Keywords OpenAI's strict mode refuses (it combines schemas with anyOf only; of the string keywords it takes
 * pattern and format, not minLength or maxLength; a default is not permitted): a schema holding one is sent with
 * strict false. minimum, maximum, multipleOf, minItems and maxItems are supported.
 */
export const STRICT_UNSUPPORTED_KEYWORDS = [
  'allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'dependencies', 'patternProperties',
  'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'minProperties', 'maxProperties', 'contains', 'minContains', 'maxContains',
  'minLength', 'maxLength', 'default',
] as const;

const isObjectSchema = (schema: Schema) => schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || isSchema(schema.properties);

/**
 * A response schema as strict mode takes it (strictSchema), or undefined when it cannot be strict: OpenAI also
 * requires the root to be an object, so a root anyOf/oneOf (or any other root) goes with strict false, as typed.
 * A root with `properties` and no `type` is the object users mean: it is sent as `type: 'object'` (OpenAI
 * refuses a strict root without a type, 'got type: "None"').
 */
export function strictResponseSchema(schema: unknown): Schema | undefined {
  const root = isSchema(schema) && schema.type === undefined && isSchema(schema.properties) ? { type: 'object', ...schema } : schema;
  const strict = strictSchema(root);
  return strict && strict.type === 'object' && strict.anyOf === undefined ? strict : undefined;
}

/**
 * A user's schema in the form OpenAI's strict mode takes: every object closed (additionalProperties false) with all
 * its properties required, the ones the user left optional admitting null; a oneOf sent as anyOf (the model then
 * matches at least one choice rather than exactly one). Undefined when the schema cannot be strict (an object open to
 * other properties or without properties, a keyword of STRICT_UNSUPPORTED_KEYWORDS, oneOf beside anyOf): it is then
 * sent with strict false, as typed.
 */
export function strictSchema(schema: unknown): Schema | undefined {
  if (!isSchema(schema)) return undefined;
  if (STRICT_UNSUPPORTED_KEYWORDS.some((key) => schema[key] !== undefined)) return undefined;
  if (schema.oneOf !== undefined && schema.anyOf !== undefined) return undefined;
  const { oneOf, ...rest } = schema;
  const out: Schema = oneOf === undefined ? { ...rest } : { ...rest, anyOf: oneOf };
  if (isObjectSchema(schema)) {
    if (!isSchema(schema.properties) || (schema.additionalProperties !== undefined && schema.additionalProperties !== false)) return undefined;
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
    const properties: Schema = {};
    for (const [key, value] of Object.entries(schema.properties)) {
      const strict = strictSchema(value);
      if (!strict) return undefined;
      properties[key] = required.has(key) ? strict : nullable(strict);
    }
    Object.assign(out, { properties, required: Object.keys(properties), additionalProperties: false });
  }
  if (schema.items !== undefined) {
    const items = strictSchema(schema.items);
    if (!items) return undefined;
    out.items = items;
  }
  if (out.anyOf !== undefined) {
    if (!Array.isArray(out.anyOf)) return undefined;
    const strict = out.anyOf.map(strictSchema);
    if (strict.some((s) => !s)) return undefined;
    out.anyOf = strict;
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (!isSchema(defs)) continue;
    const strict: Schema = {};
    for (const [name, def] of Object.entries(defs)) {
      const s = strictSchema(def);
      if (!s) return undefined;
      strict[name] = s;
    }
    out[key] = strict;
  }
  return out;
}

/** Provider-neutral messages → chat completion messages (system prompt first). */
export function toOpenAIMessages(systemPrompt: string | undefined, messages: ModelMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        out.push({ role: 'system', content: typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : p.url)).join('\n') });
        break;
      case 'user':
        out.push({
          role: 'user',
          content:
            typeof m.content === 'string'
              ? m.content
              : m.content.map((p): ChatCompletionContentPart => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: checkImageUrl(p.url) } })),
        });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: m.content || null,
          ...(m.toolCalls?.length
            ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
            : {}),
        });
        break;
      case 'tool':
        out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
        break;
      default: {
        const unreachable: never = m;
        throw new Error(`Unknown message role: ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return out;
}

function toolChoiceOf(choice: ModelToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** The request body shared by OpenAI, Azure, Deepseek, xAI, Cerebras, Groq, Ollama and Hugging Face. */
export function compatibleBody(req: AdapterRequest, opts: CompatibleOptions): ChatCompletionCreateParamsBase {
  const forced = typeof req.toolChoice === 'object' ? req.toolChoice.name : undefined;
  let tools = req.tools ?? [];
  if (forced && opts.honoursForcedChoice === false) tools = tools.filter((t) => t.name === forced);
  // Refs go as written (the provider resolves them); a malformed one is the user's to fix before anything is sent.
  for (const t of tools) checkRefs(t.parameters, toolParametersField(t.name));
  if (req.responseFormat) checkRefs(req.responseFormat.schema, RESPONSE_FORMAT_FIELD);
  const wireTools: ChatCompletionTool[] = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  const jsonObject = req.responseFormat !== undefined && opts.responseFormat === 'json_object';
  const systemPrompt = jsonObject && req.responseFormat ? [req.systemPrompt, schemaInstruction(req.responseFormat)].filter(Boolean).join('\n\n') : req.systemPrompt;
  const body: ChatCompletionCreateParamsBase = {
    model: opts.wireModel,
    messages: toOpenAIMessages(systemPrompt, req.messages),
    ...(req.temperature !== undefined && !opts.reasoning ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? (opts.reasoning ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }) : {}),
  };
  if (wireTools.length > 0) {
    body.tools = wireTools;
    // Providers without usage control still take 'none' (Cerebras' final answer, §4).
    if (req.toolChoice && (opts.toolUsageControl || req.toolChoice === 'none')) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  if (req.responseFormat && jsonObject) {
    body.response_format = { type: 'json_object' };
  } else if (req.responseFormat) {
    // Strict unless the block says otherwise (§9), with the schema made strict-compatible; one that cannot be (a root
    // that is not an object among them) goes non-strict.
    const strict = req.responseFormat.strict !== false && opts.strictSchemas !== false ? strictResponseSchema(req.responseFormat.schema) : undefined;
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: req.responseFormat.name ?? 'response_schema', schema: strict ?? req.responseFormat.schema, strict: strict !== undefined },
    };
  }
  return body;
}

/**
 * How the provider ended the answer. At the max tokens limit (finish_reason `length`, OpenAI's "the maximum
 * number of tokens specified in the request was reached"): with tool calls, the last one's arguments were cut
 * mid-JSON, so it fails naming that tool rather than running it with cut or empty arguments; with nothing
 * written it fails too; text stays an answer, cut short, with a warning. An answer the provider's content
 * filter stopped (`content_filter`), or one the model refused (a `refusal` instead of content), fails as
 * Gemini's blocked answers and Anthropic's refusals do, rather than passing as an empty or partial success.
 */
export function settleFinish(
  finish: string | null | undefined,
  answer: { content: string; calls: Array<{ name: string }>; refusal?: string | null },
  opts: Pick<CompatibleOptions, 'provider'>,
  sink: StreamSink,
): Pick<AdapterResult, 'cutShort'> {
  if (finish === 'content_filter') throw new ModelRequestError(`The model's answer was blocked by the provider's content filter (${opts.provider} finish_reason content_filter)`);
  if (answer.refusal && !answer.content && answer.calls.length === 0) throw new ModelRequestError(`The model declined to answer (${opts.provider} refusal): ${answer.refusal}`);
  if (finish !== 'length') return {};
  const stop = `${opts.provider} finish_reason length`;
  const cut = answer.calls.at(-1);
  if (cut) throw cutToolCallError(cut.name, stop);
  if (!answer.content) throw emptyCutError(stop);
  sink.warn(`The model stopped at the max tokens limit (${stop}): the answer is cut short`, { finishReason: finish });
  return { cutShort: stop };
}

/** Sends one chat completion (streamed when asked) and reads content, tool calls and usage. */
export async function callCompatible(client: OpenAI, req: AdapterRequest, opts: CompatibleOptions, sink: StreamSink, signal?: AbortSignal): Promise<AdapterResult> {
  const body = compatibleBody(req, opts);
  // A call the provider gives no id gets an 8-character one (spec 000 §9), unlike the conversation's.
  const taken = toolCallIdsOf(req.messages);
  try {
    if (!req.stream) {
      const res = await client.chat.completions.create({ ...body, stream: false }, { signal });
      const message = res.choices[0]?.message;
      const toolCalls: ModelToolCall[] = (message?.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id || newToolCallId(taken), name: c.function.name, arguments: parseArguments(c.function.arguments) }] : [],
      );
      const usage = res.usage;
      const cut = settleFinish(res.choices[0]?.finish_reason, { content: message?.content ?? '', calls: toolCalls, refusal: message?.refusal }, opts, sink);
      return {
        content: message?.content ?? '',
        model: req.model,
        toolCalls,
        ...cut,
        ...(usage
          ? { tokens: { prompt: usage.prompt_tokens, completion: usage.completion_tokens, total: usage.total_tokens, cachedPrompt: usage.prompt_tokens_details?.cached_tokens ?? 0 } }
          : {}),
      };
    }
    // Without stream_options the stream reports no usage: the tokens stay unknown (callModel's streaming estimate).
    const stream = await client.chat.completions.create({ ...body, stream: true, ...(opts.streamUsage !== false ? { stream_options: { include_usage: true } } : {}) }, { signal });
    let content = '';
    const calls = new Map<number, { id: string; name: string; args: string }>();
    let tokens: AdapterResult['tokens'];
    let finish: string | null | undefined;
    let refusal = '';
    for await (const chunk of stream) {
      if (chunk.usage) {
        const u = chunk.usage;
        tokens = { prompt: u.prompt_tokens, completion: u.completion_tokens, total: u.total_tokens, cachedPrompt: u.prompt_tokens_details?.cached_tokens ?? 0 };
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.refusal) refusal += delta.refusal;
      if (delta.content) {
        content += delta.content;
        sink.text(delta.content);
      }
      for (const tc of delta.tool_calls ?? []) {
        let call = calls.get(tc.index);
        if (!call) {
          call = { id: tc.id || newToolCallId(taken), name: tc.function?.name ?? '', args: '' };
          calls.set(tc.index, call);
          if (call.name) sink.toolDetected(call.id, call.name);
        } else if (tc.function?.name && !call.name) {
          call.name = tc.function.name;
          sink.toolDetected(call.id, call.name);
        }
        call.args += tc.function?.arguments ?? '';
      }
    }
    const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ id: c.id, name: c.name, arguments: parseArguments(c.args) }));
    const cut = settleFinish(finish, { content, calls: toolCalls, refusal }, opts, sink);
    return { content, model: req.model, toolCalls, ...(tokens ? { tokens } : {}), ...cut };
  } catch (err) {
    throw toProviderError(err, opts.provider);
  }
}
