import type { ModelMessage, ModelToolCall } from '@weft/contracts';
import { emptyCutError, ModelProviderError, ModelRequestError, toProviderError } from '../errors.js';
import { newToolCallId, toolCallIdsOf, type AdapterRequest, type AdapterResult, type ProviderAdapter, type StreamSink } from '../types.js';
import { GEMINI_REQUEST_MAX_BYTES, geminiImagePart, imageReader, type GeminiImageReader } from './gemini.images.js';
import { applyFixups, fixedAnswer, geminiParameters, geminiResponseSchema, type Fixup } from './gemini.schema.js';
import { isRecord, RESPONSE_FORMAT_FIELD, toolParametersField } from './schemaRefs.js';

type GeminiPart = {
  text?: string;
  /** A thought summary (Gemini 2.5/3 with includeThoughts): not part of the answer. */
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { name: string; args?: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
  /** Gemini's opaque signature of the reasoning behind a part; sent back with that part (Gemini 3 refuses a function call without it). */
  thoughtSignature?: string;
};
interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}
interface GeminiResponse {
  candidates?: Array<{ content?: { parts?: GeminiPart[] }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; totalTokenCount?: number; cachedContentTokenCount?: number };
}

/** Text parts Gemini accepts: it refuses an empty text. */
function textParts(text: string): GeminiPart[] {
  return text ? [{ text }] : [];
}

/**
 * Neutral messages → Gemini contents; a tool result answers as the function's response, a call goes
 * back with the thought signature Gemini gave it, images as inlineData or fileData.
 */
export async function toGeminiContents(messages: ModelMessage[], reader: GeminiImageReader): Promise<{ system: string[]; contents: GeminiContent[] }> {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  /** The inline images' base64 so far: Gemini refuses a request over 20 MB. */
  let inline = 0;
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : p.url)).join('\n'));
        break;
      case 'user': {
        if (typeof m.content === 'string') {
          push('user', textParts(m.content));
          break;
        }
        const parts: GeminiPart[] = [];
        for (const p of m.content) {
          if (p.type === 'text') {
            parts.push(...textParts(p.text));
            continue;
          }
          const part = await geminiImagePart(p.url, reader);
          inline += 'inlineData' in part ? part.inlineData.data.length : 0;
          if (inline > GEMINI_REQUEST_MAX_BYTES) {
            throw new ModelRequestError(
              `The images sent inline to Gemini come to more than ${GEMINI_REQUEST_MAX_BYTES} bytes base64-encoded, over Gemini's 20 MB request limit: send fewer or smaller images, or upload them to Gemini's Files API`,
            );
          }
          parts.push(part);
        }
        push('user', parts);
        break;
      }
      case 'assistant':
        push('model', [
          ...textParts(m.content),
          ...(m.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.arguments }, ...(c.thoughtSignature ? { thoughtSignature: c.thoughtSignature } : {}) })),
        ]);
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


/** Shown when a request has neither messages nor a system prompt (the agent block's two prompt fields). */
export const GEMINI_EMPTY_REQUEST = 'The request to Gemini has no content: give a System Prompt (systemPrompt) or a User Prompt (userPrompt)';

/**
 * The generateContent body (§7): contents, generationConfig, systemInstruction, tools, toolConfig;
 * with `fixups`, per tool, the arguments its schema asked for in another form (JSON strings, typed enums),
 * and `answerFixups`, the same for a structured answer.
 */
export async function geminiRequest(
  req: AdapterRequest,
  sink: StreamSink,
  reader: GeminiImageReader,
): Promise<{ body: Record<string, unknown>; fixups: Map<string, Fixup[]>; answerFixups: Fixup[] }> {
  const built = await toGeminiContents(req.messages, reader);
  let contents = built.contents;
  let systemText = [req.systemPrompt, ...built.system].filter((s): s is string => !!s).join('\n\n');
  if (contents.length === 0) {
    // Gemini refuses empty contents: a request of only a system prompt sends it as the user's turn.
    if (!systemText) throw new ModelRequestError(GEMINI_EMPTY_REQUEST);
    contents = [{ role: 'user', parts: [{ text: systemText }] }];
    systemText = '';
  }
  const tools = req.tools ?? [];
  const generationConfig: Record<string, unknown> = {
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { maxOutputTokens: req.maxTokens } : {}),
  };
  let answerFixups: Fixup[] = [];
  if (req.responseFormat) {
    // §8: Gemini ignores structured output when tools are present.
    if (tools.length > 0) sink.warn('Gemini does not support structured output together with tools; the response format is ignored');
    else {
      const { schema: responseSchema, fixups } = geminiResponseSchema(req.responseFormat.schema, RESPONSE_FORMAT_FIELD);
      answerFixups = fixups;
      Object.assign(generationConfig, { responseMimeType: 'application/json', ...(responseSchema ? { responseSchema } : {}) });
    }
  }
  const body: Record<string, unknown> = { contents, generationConfig };
  if (systemText) body.systemInstruction = { parts: [{ text: systemText }] };
  const fixups = new Map<string, Fixup[]>();
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((t) => {
          const { schema, fixups: found } = geminiParameters(t.parameters, toolParametersField(t.name));
          if (found.length > 0) fixups.set(t.name, found);
          return { name: t.name, description: t.description, ...(schema ? { parameters: schema } : {}) };
        }),
      },
    ];
    const choice = req.toolChoice;
    if (choice) {
      body.toolConfig = {
        functionCallingConfig: typeof choice === 'object' ? { mode: 'ANY', allowedFunctionNames: [choice.name] } : { mode: choice === 'none' ? 'NONE' : 'AUTO' },
      };
    }
  }
  return { body, fixups, answerFixups };
}

interface Reading {
  content: string;
  calls: ModelToolCall[];
  taken: Set<string>;
  fixups: Map<string, Fixup[]>;
  /** The last finish reason seen, and whether any answer had a candidate. */
  finishReason?: string;
  sawCandidate: boolean;
  blockReason?: string;
}

function readParts(res: GeminiResponse, into: Reading, sink: StreamSink, streaming: boolean): void {
  if (res.promptFeedback?.blockReason) into.blockReason = res.promptFeedback.blockReason;
  const candidate = res.candidates?.[0];
  if (candidate) into.sawCandidate = true;
  if (candidate?.finishReason) into.finishReason = candidate.finishReason;
  for (const part of candidate?.content?.parts ?? []) {
    if (part.functionCall) {
      const id = newToolCallId(into.taken);
      const args = applyFixups(part.functionCall.args ?? {}, into.fixups.get(part.functionCall.name) ?? []);
      into.calls.push({ id, name: part.functionCall.name, arguments: isRecord(args) ? args : {}, ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}) });
      if (streaming) sink.toolDetected(id, part.functionCall.name);
    } else if (part.text && !part.thought) {
      into.content += part.text;
      if (streaming) sink.text(part.text);
    }
  }
  if (streaming && candidate?.finishReason === 'UNEXPECTED_TOOL_CALL') sink.warn('Gemini stream ended with UNEXPECTED_TOOL_CALL; ignored');
}

/** Finish reasons of an answer Gemini stopped for its content (safety filters, recitation, blocklists). */
const BLOCKED_FINISH = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

/**
 * An answer Gemini blocked (or could not give) is an error naming why, not an empty success; not
 * retried (the same prompt is blocked again). At the max tokens limit Gemini gives only whole function
 * calls (args parsed by Gemini): a call it was writing is left out, so an answer with calls runs them;
 * one with nothing in it (the cut call left out, or thoughts that used the budget) fails naming Max
 * Tokens; one with text stays an answer, cut short, with a warning.
 */
function settle(into: Reading, sink: StreamSink): Pick<AdapterResult, 'cutShort'> {
  if (!into.sawCandidate) {
    if (into.blockReason) throw new ModelRequestError(`Gemini blocked the prompt (blockReason ${into.blockReason}): no answer was given`);
    throw new ModelProviderError('Gemini API check error: the answer has no candidates', 'google');
  }
  const reason = into.finishReason;
  if (reason && BLOCKED_FINISH.has(reason)) throw new ModelRequestError(`Gemini stopped the answer (finishReason ${reason}): its content was blocked`);
  if (reason === 'MALFORMED_FUNCTION_CALL') throw new ModelRequestError('Gemini stopped the answer (finishReason MALFORMED_FUNCTION_CALL): the model wrote a function call that could not be read');
  if (reason === 'OTHER' && !into.content && into.calls.length === 0) throw new ModelRequestError('Gemini stopped the answer (finishReason OTHER) without content');
  if (reason === 'MAX_TOKENS' && !into.content && into.calls.length === 0) throw emptyCutError('Gemini finishReason MAX_TOKENS');
  if (reason !== 'MAX_TOKENS') return {};
  sink.warn('Gemini stopped at the max tokens limit (finishReason MAX_TOKENS): the answer is cut short', { finishReason: reason });
  return { cutShort: 'Gemini finishReason MAX_TOKENS' };
}

/** Tokens of an answer: thinking tokens are billed as output, so they count as completion. */
function tokensOf(res: GeminiResponse | undefined): AdapterResult['tokens'] {
  const u = res?.usageMetadata;
  if (!u) return undefined;
  const prompt = u.promptTokenCount ?? 0;
  const completion = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
  return { prompt, completion, total: u.totalTokenCount ?? prompt + completion, cachedPrompt: u.cachedContentTokenCount ?? 0 };
}

/** The adapter's result: a structured answer with the values its schema asked for in another form given back typed. */
function resultOf(into: Reading, model: string, answerFixups: Fixup[], last: GeminiResponse | undefined, cut: Pick<AdapterResult, 'cutShort'>): AdapterResult {
  const tokens = tokensOf(last);
  return { content: fixedAnswer(into.content, answerFixups), model, toolCalls: into.calls, ...(tokens ? { tokens } : {}), ...cut };
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
    const { body, fixups, answerFixups } = await geminiRequest(req, sink, imageReader(config, signal));
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
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
    const into: Reading = { content: '', calls: [], taken, fixups, sawCandidate: false };
    if (!req.stream) {
      let answer: GeminiResponse;
      const text = await res.text();
      try {
        answer = JSON.parse(text) as GeminiResponse;
      } catch (err) {
        sink.warn('Gemini API answer is not JSON', { body: text });
        throw new ModelProviderError(`Gemini API check error: ${err instanceof Error ? err.message : String(err)}`, 'google');
      }
      readParts(answer, into, sink, false);
      return resultOf(into, req.model, answerFixups, answer, settle(into, sink));
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
    // The streamed text went out as Gemini wrote it; the answer is given back typed.
    return resultOf(into, req.model, answerFixups, last, settle(into, sink));
  },
};
