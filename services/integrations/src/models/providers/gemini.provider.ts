import type { ModelMessage, ModelToolCall } from '@weft/contracts';
import { ModelProviderError, toProviderError } from '../errors.js';
import { newToolCallId, toolCallIdsOf, type AdapterRequest, type AdapterResult, type ProviderAdapter, type StreamSink } from '../types.js';

type GeminiPart = { text?: string; functionCall?: { name: string; args?: Record<string, unknown> }; functionResponse?: { name: string; response: Record<string, unknown> } };
interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}
interface GeminiResponse {
  candidates?: Array<{ content?: { parts?: GeminiPart[] }; finishReason?: string }>;
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number; cachedContentTokenCount?: number };
}

/** Neutral messages → Gemini contents; a tool result answers as the function's response. */
export function toGeminiContents(messages: ModelMessage[]): { system: string[]; contents: GeminiContent[] } {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : p.url)).join('\n'));
        break;
      case 'user':
        push('user', typeof m.content === 'string' ? [{ text: m.content }] : m.content.map((p) => ({ text: p.type === 'text' ? p.text : p.url })));
        break;
      case 'assistant':
        push('model', [...(m.content ? [{ text: m.content }] : []), ...(m.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments } }))]);
        break;
      case 'tool': {
        let response: Record<string, unknown>;
        try {
          const parsed: unknown = JSON.parse(m.content);
          response = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { result: parsed };
        } catch {
          response = { result: m.content };
        }
        push('user', [{ functionResponse: { name: m.name, response } }]);
        break;
      }
      default: {
        const unreachable: never = m;
        throw new Error(`Unknown message role: ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return { system, contents };
}

/** Keeps the OpenAPI subset Gemini's responseSchema accepts. */
function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => k !== 'additionalProperties' && k !== '$schema').map(([k, v]) => [k, geminiSchema(v)]));
}

/** The generateContent body (§7): contents, generationConfig, systemInstruction, tools, toolConfig. */
export function geminiBody(req: AdapterRequest, sink: StreamSink): Record<string, unknown> {
  const { system, contents } = toGeminiContents(req.messages);
  const systemText = [req.systemPrompt, ...system].filter((s): s is string => !!s).join('\n\n');
  const tools = req.tools ?? [];
  const generationConfig: Record<string, unknown> = {
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { maxOutputTokens: req.maxTokens } : {}),
  };
  if (req.responseFormat) {
    // §8: Gemini ignores structured output when tools are present.
    if (tools.length > 0) sink.warn('Gemini does not support structured output together with tools; the response format is ignored');
    else Object.assign(generationConfig, { responseMimeType: 'application/json', responseSchema: geminiSchema(req.responseFormat.schema) });
  }
  const body: Record<string, unknown> = { contents, generationConfig };
  if (systemText) body.systemInstruction = { parts: [{ text: systemText }] };
  if (tools.length > 0) {
    body.tools = [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: geminiSchema(t.parameters) })) }];
    const choice = req.toolChoice;
    if (choice) {
      body.toolConfig = {
        functionCallingConfig: typeof choice === 'object' ? { mode: 'ANY', allowedFunctionNames: [choice.name] } : { mode: choice === 'none' ? 'NONE' : 'AUTO' },
      };
    }
  }
  return body;
}

function readParts(res: GeminiResponse, into: { content: string; calls: ModelToolCall[]; taken: Set<string> }, sink: StreamSink, streaming: boolean): void {
  const candidate = res.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    if (part.text) {
      into.content += part.text;
      if (streaming) sink.text(part.text);
    } else if (part.functionCall) {
      const id = newToolCallId(into.taken);
      into.calls.push({ id, name: part.functionCall.name, arguments: part.functionCall.args ?? {} });
      if (streaming) sink.toolDetected(id, part.functionCall.name);
    }
  }
  if (streaming && candidate?.finishReason === 'UNEXPECTED_TOOL_CALL') sink.warn('Gemini stream ended with UNEXPECTED_TOOL_CALL; ignored');
}

function tokensOf(res: GeminiResponse | undefined): AdapterResult['tokens'] {
  const u = res?.usageMetadata;
  if (!u) return undefined;
  const prompt = u.promptTokenCount ?? 0;
  const completion = u.candidatesTokenCount ?? 0;
  return { prompt, completion, total: u.totalTokenCount ?? prompt + completion, cachedPrompt: u.cachedContentTokenCount ?? 0 };
}

async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let cut: number;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
      const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
      if (data) yield data;
    }
  }
  const tail = buffer.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
  if (tail) yield tail;
}

/**
 * Gemini over REST: `models/{model}:generateContent`, or `:streamGenerateContent?alt=sse`, key in the
 * query string (base URL `WEFT_GEMINI_BASE_URL`). Errors: 'Gemini API error: {status} {statusText}',
 * 'Gemini API streaming error: …' for a failing stream, 'Gemini API check error: …' when an answer
 * cannot be read; the response body is logged (whole: the model layer redacts the key, then cuts it).
 */
export const geminiAdapter: ProviderAdapter = {
  id: 'google',
  async call(req, config, sink, signal): Promise<AdapterResult> {
    const method = req.stream ? 'streamGenerateContent' : 'generateContent';
    const query = new URLSearchParams({ ...(req.stream ? { alt: 'sse' } : {}), key: req.apiKey });
    const url = `${config.baseUrls.google}/models/${encodeURIComponent(req.model)}:${method}?${query.toString()}`;
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(geminiBody(req, sink)), signal });
    } catch (err) {
      throw toProviderError(err, 'google');
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      sink.warn('Gemini API error response', { status: res.status, body: text });
      const prefix = req.stream ? 'Gemini API streaming error' : 'Gemini API error';
      throw new ModelProviderError(`${prefix}: ${res.status} ${res.statusText}`, 'google', res.status);
    }
    // Gemini gives calls no ids: each gets a random 8-character one (spec 000 §9), unlike the conversation's earlier ones.
    const taken = toolCallIdsOf(req.messages);
    const into = { content: '', calls: [] as ModelToolCall[], taken };
    if (!req.stream) {
      let body: GeminiResponse;
      const text = await res.text();
      try {
        body = JSON.parse(text) as GeminiResponse;
      } catch (err) {
        sink.warn('Gemini API answer is not JSON', { body: text });
        throw new ModelProviderError(`Gemini API check error: ${err instanceof Error ? err.message : String(err)}`, 'google');
      }
      readParts(body, into, sink, false);
      const tokens = tokensOf(body);
      return { content: into.content, model: req.model, toolCalls: into.calls, ...(tokens ? { tokens } : {}) };
    }
    let last: GeminiResponse | undefined;
    try {
      if (!res.body) throw new Error('empty stream');
      for await (const data of sseData(res.body)) {
        const event = JSON.parse(data) as GeminiResponse;
        if (event.usageMetadata) last = event;
        readParts(event, into, sink, true);
      }
    } catch (err) {
      if (err instanceof ModelProviderError) throw err;
      throw new ModelProviderError(`Gemini API streaming error: ${err instanceof Error ? err.message : String(err)}`, 'google');
    }
    const tokens = tokensOf(last);
    return { content: into.content, model: req.model, toolCalls: into.calls, ...(tokens ? { tokens } : {}) };
  },
};
