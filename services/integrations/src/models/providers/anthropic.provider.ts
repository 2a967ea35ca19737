import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelMessage, ModelResponseFormat, ModelToolCall } from '@weft/contracts';
import { toProviderError } from '../errors.js';
import { parseArguments, type AdapterRequest, type AdapterResult, type ProviderAdapter } from '../types.js';

/** Anthropic's defaults (§9): 1024 tokens; the 0.7 temperature is the block default applied upstream. */
export const ANTHROPIC_MAX_TOKENS = 1024;

/** Neutral messages → Anthropic messages: tool results ride in the next user turn, merged when consecutive. */
export function toAnthropicMessages(messages: ModelMessage[]): { system: string[]; messages: MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
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
        push(
          'user',
          typeof m.content === 'string'
            ? [{ type: 'text', text: m.content }]
            : m.content.map((p): ContentBlockParam => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', source: { type: 'url', url: p.url } })),
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

export function anthropicBody(req: AdapterRequest): MessageCreateParamsBase {
  const { system, messages } = toAnthropicMessages(req.messages);
  const systemText = [req.systemPrompt, ...system, req.responseFormat ? schemaInstruction(req.responseFormat) : undefined].filter((s): s is string => !!s).join('\n\n');
  const tools: Tool[] = (req.tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object', ...t.parameters } }));
  const body: MessageCreateParamsBase = {
    model: req.model,
    max_tokens: req.maxTokens ?? ANTHROPIC_MAX_TOKENS,
    messages: messages.length > 0 ? messages : [{ role: 'user', content: [{ type: 'text', text: '' }] }],
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
        const u = res.usage;
        const cached = u.cache_read_input_tokens ?? 0;
        const prompt = u.input_tokens + cached + (u.cache_creation_input_tokens ?? 0);
        return { content, model: req.model, toolCalls, tokens: { prompt, completion: u.output_tokens, total: prompt + u.output_tokens, cachedPrompt: cached } };
      }
      const stream = await client.messages.create({ ...body, stream: true }, { signal });
      let content = '';
      let prompt = 0;
      let cached = 0;
      let completion = 0;
      const uses = new Map<number, { id: string; name: string; json: string }>();
      for await (const event of stream) {
        switch (event.type) {
          case 'message_start': {
            const u = event.message.usage;
            cached = u.cache_read_input_tokens ?? 0;
            prompt = u.input_tokens + cached + (u.cache_creation_input_tokens ?? 0);
            completion = u.output_tokens;
            break;
          }
          case 'content_block_start':
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
            completion = event.usage.output_tokens;
            break;
          default:
            break;
        }
      }
      const toolCalls = [...uses.entries()].sort(([a], [b]) => a - b).map(([, u]) => ({ id: u.id, name: u.name, arguments: parseArguments(u.json) }));
      return { content, model: req.model, toolCalls, tokens: { prompt, completion, total: prompt + completion, cachedPrompt: cached } };
    } catch (err) {
      throw toProviderError(err, 'anthropic');
    }
  },
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
