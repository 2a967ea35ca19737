import type OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ModelMessage, ModelProviderId, ModelToolCall, ModelToolChoice } from '@weft/contracts';
import { toProviderError } from '../errors.js';
import { newToolCallId, parseArguments, toolCallIdsOf, type AdapterRequest, type AdapterResult, type StreamSink } from '../types.js';

/** How one OpenAI-compatible provider differs from OpenAI itself. */
export interface CompatibleOptions {
  provider: ModelProviderId;
  /** The model name the provider expects (prefixes like `groq/` removed, Azure deployments). */
  wireModel: string;
  /** Whether `tool_choice` is sent (false for Cerebras and Groq, §9). */
  toolUsageControl: boolean;
  /** Whether a forced tool_choice is honoured; Ollama ignores it, so only the forced tool is offered. */
  honoursForcedChoice?: boolean;
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
              : m.content.map((p): ChatCompletionContentPart => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: p.url } })),
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
  const wireTools: ChatCompletionTool[] = tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  const body: ChatCompletionCreateParamsBase = {
    model: opts.wireModel,
    messages: toOpenAIMessages(req.systemPrompt, req.messages),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
  };
  if (wireTools.length > 0) {
    body.tools = wireTools;
    // Providers without usage control still take 'none' (Cerebras' final answer, §4).
    if (req.toolChoice && (opts.toolUsageControl || req.toolChoice === 'none')) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  if (req.responseFormat) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: req.responseFormat.name ?? 'response_schema', schema: req.responseFormat.schema, strict: req.responseFormat.strict !== false },
    };
  }
  return body;
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
      return {
        content: message?.content ?? '',
        model: req.model,
        toolCalls,
        ...(usage
          ? { tokens: { prompt: usage.prompt_tokens, completion: usage.completion_tokens, total: usage.total_tokens, cachedPrompt: usage.prompt_tokens_details?.cached_tokens ?? 0 } }
          : {}),
      };
    }
    const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, { signal });
    let content = '';
    const calls = new Map<number, { id: string; name: string; args: string }>();
    let tokens: AdapterResult['tokens'];
    for await (const chunk of stream) {
      if (chunk.usage) {
        const u = chunk.usage;
        tokens = { prompt: u.prompt_tokens, completion: u.completion_tokens, total: u.total_tokens, cachedPrompt: u.prompt_tokens_details?.cached_tokens ?? 0 };
      }
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
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
    return { content, model: req.model, toolCalls, ...(tokens ? { tokens } : {}) };
  } catch (err) {
    throw toProviderError(err, opts.provider);
  }
}
