import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, ImageBlockParam, MessageCreateParamsBase, MessageParam, StopReason, Tool, ToolChoice, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelMessage, ModelResponseFormat, ModelToolCall } from '@weft/contracts';
import { cutToolCallError, emptyCutError, ModelRequestError, toProviderError } from '../errors.js';
import { checkImageUrl, decodeDataUrl, shownImageUrl, sniffImageType } from '../imageUrls.js';
import { parseArguments, type AdapterRequest, type AdapterResult, type CacheWrites, type ProviderAdapter, type StreamSink } from '../types.js';

/** Anthropic's defaults (§9): 1024 tokens; the 0.7 temperature is the block default applied upstream. */
export const ANTHROPIC_MAX_TOKENS = 1024;

const textBlocks = (text: string): ContentBlockParam[] => (text ? [{ type: 'text', text }] : []);

/** The image types Anthropic reads (its base64 source's `media_type`). */
const ANTHROPIC_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type AnthropicImageType = (typeof ANTHROPIC_IMAGE_TYPES)[number];
const isAnthropicImageType = (t: string): t is AnthropicImageType => (ANTHROPIC_IMAGE_TYPES as readonly string[]).includes(t);

/**
 * An image as Anthropic takes it: an http(s) URL as a `url` source (Anthropic fetches it), a data: URL
 * as a `base64` source (a `url` source must be http(s)), typed by its bytes when they say, else as declared.
 */
export function anthropicImage(url: string): ImageBlockParam {
  checkImageUrl(url);
  let data: ReturnType<typeof decodeDataUrl>;
  try {
    data = decodeDataUrl(url);
  } catch (err) {
    throw new ModelRequestError(`Could not send image ${shownImageUrl(url)} to Anthropic: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!data) return { type: 'image', source: { type: 'url', url } };
  const type = sniffImageType(data.bytes) ?? data.declared;
  if (!isAnthropicImageType(type)) {
    const reason = type.startsWith('image/') ? `${type} is not an image type Anthropic reads (JPEG, PNG, GIF or WEBP)` : `a data URL of ${type}, not an image`;
    throw new ModelRequestError(`Could not send image ${shownImageUrl(url)} to Anthropic: ${reason}`);
  }
  return { type: 'image', source: { type: 'base64', media_type: type, data: data.bytes.toString('base64') } };
}

/** Neutral messages → Anthropic messages: tool results ride in the next user turn, merged when consecutive. */
export function toAnthropicMessages(messages: ModelMessage[]): { system: string[]; messages: MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : p.url)).join('\n'));
        break;
      case 'user':
        // Anthropic refuses an empty text block ('text content blocks must be non-empty'): none is sent.
        push(
          'user',
          typeof m.content === 'string'
            ? textBlocks(m.content)
            : m.content.flatMap((p): ContentBlockParam[] => (p.type === 'text' ? textBlocks(p.text) : [anthropicImage(p.url)])),
        );
        break;
      case 'assistant':
        push('assistant', [
          ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
          ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.arguments })),
        ]);
        break;
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }]);
        break;
      default: {
        const unreachable: never = m;
        throw new Error(`Unknown message role: ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return { system, messages: out };
}

/** Anthropic has no schema parameter here: the schema goes into the system prompt. */
function schemaInstruction(format: ModelResponseFormat): string {
  return `Respond only with a JSON object that follows this JSON schema, with no other text:\n${JSON.stringify(format.schema)}`;
}

/** Shown when a request has neither messages nor a system prompt (the agent block's two prompt fields). */
export const ANTHROPIC_EMPTY_REQUEST = 'The request to Anthropic has no content: give a System Prompt (systemPrompt) or a User Prompt (userPrompt)';

export function anthropicBody(req: AdapterRequest): MessageCreateParamsBase {
  const built = toAnthropicMessages(req.messages);
  let messages = built.messages;
  let prompt = [req.systemPrompt, ...built.system].filter((s): s is string => !!s).join('\n\n');
  if (messages.length === 0) {
    // Anthropic needs a user message: a request of only a system prompt sends it as the user's turn.
    if (!prompt) throw new ModelRequestError(ANTHROPIC_EMPTY_REQUEST);
    messages = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
    prompt = '';
  }
  const systemText = [prompt, req.responseFormat ? schemaInstruction(req.responseFormat) : undefined].filter((s): s is string => !!s).join('\n\n');
  const tools: Tool[] = (req.tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object', ...t.parameters } }));
  const body: MessageCreateParamsBase = {
    model: req.model,
    max_tokens: req.maxTokens ?? ANTHROPIC_MAX_TOKENS,
    messages,
    ...(systemText ? { system: systemText } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
  };
  if (tools.length > 0) {
    body.tools = tools;
    if (req.toolChoice) {
      const choice: ToolChoice = typeof req.toolChoice === 'object' ? { type: 'tool', name: req.toolChoice.name } : { type: req.toolChoice };
      body.tool_choice = choice;
    }
  }
  return body;
}

/** Tokens of an answer: the prompt counts its cached and cache-written parts; the writes are priced apart. */
function usageOf(u: Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens' | 'cache_creation'>): {
  tokens: NonNullable<AdapterResult['tokens']>;
  cacheWrites: CacheWrites;
} {
  const cached = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  // The split by cache lifetime when given; all 5-minute (the default) otherwise.
  const oneHour = Math.min(written, u.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  const prompt = u.input_tokens + cached + written;
  return { tokens: { prompt, completion: u.output_tokens, total: prompt + u.output_tokens, cachedPrompt: cached }, cacheWrites: { fiveMinute: written - oneHour, oneHour } };
}

/** What the answer ended with: the last content block's type and, for a tool_use, the tool's name. */
interface LastBlock {
  type: string;
  name?: string;
}

/**
 * A refused answer is an error. At the max tokens limit, an answer whose last block is a tool_use was cut while
 * the model wrote that call (Anthropic's tool use docs: an incomplete tool use block, to be asked again with a
 * higher max_tokens): an error naming the tool, never a call with cut or empty arguments; nothing written is an
 * error too; an answer with text stays, cut short, with a warning.
 */
function settle(stop: StopReason | null | undefined, last: LastBlock | undefined, content: string, sink: StreamSink): Pick<AdapterResult, 'cutShort'> {
  if (stop === 'refusal') throw new ModelRequestError('Anthropic declined to answer (stop_reason refusal)');
  if (stop !== 'max_tokens') return {};
  const cutShort = 'Anthropic stop_reason max_tokens';
  if (last?.type === 'tool_use') throw cutToolCallError(last.name ?? '', cutShort);
  if (!content) throw emptyCutError(cutShort);
  sink.warn('Anthropic stopped at the max tokens limit (stop_reason max_tokens): the answer is cut short', { stopReason: stop });
  return { cutShort };
}

/** Anthropic's messages API through the official client (base URL `WEFT_ANTHROPIC_BASE_URL`). */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  async call(req, config, sink, signal): Promise<AdapterResult> {
    // The SDK appends /v1/messages itself; accept an override written with /v1 like the tools' variable.
    const client = new Anthropic({ apiKey: req.apiKey, baseURL: config.baseUrls.anthropic.replace(/\/v1$/, ''), maxRetries: 0 });
    const body = anthropicBody(req);
    try {
      if (!req.stream) {
        const res = await client.messages.create({ ...body, stream: false }, { signal });
        let content = '';
        const toolCalls: ModelToolCall[] = [];
        for (const block of res.content) {
          if (block.type === 'text') content += block.text;
          else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: isRecord(block.input) ? block.input : {} });
        }
        const last = res.content.at(-1);
        const cut = settle(res.stop_reason, last && { type: last.type, ...(last.type === 'tool_use' ? { name: last.name } : {}) }, content, sink);
        return { content, model: req.model, toolCalls, ...usageOf(res.usage), ...cut };
      }
      const stream = await client.messages.create({ ...body, stream: true }, { signal });
      let content = '';
      let usage: Parameters<typeof usageOf>[0] = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: null };
      let stop: StopReason | null = null;
      const uses = new Map<number, { id: string; name: string; json: string }>();
      let last: { index: number } & LastBlock | undefined;
      for await (const event of stream) {
        switch (event.type) {
          case 'message_start':
            usage = event.message.usage;
            break;
          case 'content_block_start':
            if (!last || event.index >= last.index) last = { index: event.index, type: event.content_block.type, ...(event.content_block.type === 'tool_use' ? { name: event.content_block.name } : {}) };
            if (event.content_block.type === 'tool_use') {
              uses.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
              sink.toolDetected(event.content_block.id, event.content_block.name);
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              content += event.delta.text;
              sink.text(event.delta.text);
            } else if (event.delta.type === 'input_json_delta') {
              const use = uses.get(event.index);
              if (use) use.json += event.delta.partial_json;
            }
            break;
          case 'message_delta':
            usage = { ...usage, output_tokens: event.usage.output_tokens };
            stop = event.delta.stop_reason;
            break;
          default:
            break;
        }
      }
      const cut = settle(stop, last, content, sink);
      const toolCalls = [...uses.entries()].sort(([a], [b]) => a - b).map(([, u]) => ({ id: u.id, name: u.name, arguments: parseArguments(u.json) }));
      return { content, model: req.model, toolCalls, ...usageOf(usage), ...cut };
    } catch (err) {
      throw toProviderError(err, 'anthropic');
    }
  },
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
