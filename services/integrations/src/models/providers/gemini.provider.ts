import type { ModelMessage, ModelToolCall } from '@weft/contracts';
import { outboundPolicy, type ModelConfig } from '../config.js';
import { ModelProviderError, ModelRequestError, toProviderError } from '../errors.js';
import { guardedFetch, OutboundRefusedError, RequestCancelledError, ResponseTooLargeError } from '../../net/guardedFetch.js';
import { newToolCallId, toolCallIdsOf, type AdapterRequest, type AdapterResult, type ProviderAdapter, type StreamSink } from '../types.js';

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

/** Largest image read for an inline part: Gemini takes at most 20 MB a request, base64 adds a third. */
export const GEMINI_INLINE_IMAGE_MAX_BYTES = 15 * 1024 * 1024;
/** Gemini's request limit ('Request payload size exceeds the limit: 20971520 bytes.'): the inline images' base64 must stay under it. */
export const GEMINI_REQUEST_MAX_BYTES = 20 * 1024 * 1024;
const IMAGE_FETCH_TIMEOUT_MS = 30_000;

/** The image types Gemini reads (its docs: PNG, JPEG, WEBP, HEIC, HEIF). */
const GEMINI_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];
const READ_TYPES = 'PNG, JPEG, WEBP, HEIC or HEIF';

/** How an image is sent: a data URL or a fetched http(s) image inline (base64), a file uploaded to Gemini's Files API by its URI. */
export interface GeminiImageReader {
  /** URIs under this prefix (`{base}/files/`) are Gemini files, sent as fileData. */
  filesPrefix: string;
  fetch(url: string): Promise<Response>;
}

/** An image URL shortened for a message (a data URL can be megabytes). */
function shown(url: string): string {
  return url.length > 80 ? `${url.slice(0, 77)}...` : url;
}

function imageError(url: string, reason: string): ModelRequestError {
  return new ModelRequestError(`Could not send image ${shown(url)} to Gemini: ${reason}`);
}

/** A failure that may pass (5xx, 429, 408, a timeout, the network): retried as a provider error without its own status. */
function imageRetryable(url: string, reason: string, status?: number): ModelProviderError {
  return new ModelProviderError(`Could not send image ${shown(url)} to Gemini: ${reason}`, 'google', status);
}

/** The image type the bytes begin with (magic numbers); `image/gif` too, which Gemini does not read. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 8) === 'PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(0, 6))) return 'image/gif';
  if (bytes.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(brand)) return 'image/heic';
    if (['mif1', 'msf1', 'heif'].includes(brand)) return 'image/heif';
  }
  return undefined;
}

/**
 * The type an image is sent as: what its bytes are when they say (a server's `application/octet-stream`
 * or wrong label included), else the declared type when Gemini reads it; another is refused.
 */
function imageType(url: string, declared: string, bytes: Uint8Array): string {
  const sniffed = sniffImageType(bytes);
  const type = sniffed ?? declared;
  if (GEMINI_IMAGE_TYPES.includes(type)) return type;
  if (type.startsWith('image/')) throw imageError(url, `${type} is not an image type Gemini reads (${READ_TYPES})`);
  throw imageError(url, `the answer is ${type || 'untyped'}, not an image`);
}

/** A data URL's payload that is not base64: percent-escapes are bytes, other characters latin1 (RFC 2397). */
function percentDecoded(payload: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < payload.length; i++) {
    const hex = payload[i] === '%' ? payload.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      const code = payload.charCodeAt(i);
      if (code > 0xff) throw new Error(`character ${JSON.stringify(payload[i])} at ${i} is not a byte: percent-encode it`);
      bytes.push(code);
    }
  }
  return Buffer.from(bytes);
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

/**
 * An image content part as Gemini reads it: inlineData (base64) or fileData. A refused address, a
 * 4xx answer, something not an image or of a type Gemini does not read, and a too-large image fail
 * as the user's to fix (ModelRequestError); a 5xx, 429 or 408 answer, a timeout or a network failure
 * as a retryable ModelProviderError; a cancelled activity's RequestCancelledError goes through as it is.
 */
export async function geminiImagePart(url: string, reader: GeminiImageReader): Promise<GeminiPart> {
  const data = DATA_URL.exec(url);
  if (data) {
    const declared = (data[1] || 'text/plain').toLowerCase();
    const base64 = (data[2] ?? '').split(';').includes('base64');
    const payload = data[3] ?? '';
    let bytes: Buffer;
    try {
      bytes = base64 ? Buffer.from(payload, 'base64') : percentDecoded(payload);
    } catch (err) {
      throw imageError(url, err instanceof Error ? err.message : String(err));
    }
    if (bytes.length > GEMINI_INLINE_IMAGE_MAX_BYTES) throw imageError(url, `larger than ${GEMINI_INLINE_IMAGE_MAX_BYTES} bytes`);
    const sniffed = sniffImageType(bytes);
    if (!sniffed && !declared.startsWith('image/')) throw imageError(url, `a data URL of ${declared}, not an image`);
    return { inlineData: { mimeType: imageType(url, declared, bytes), data: bytes.toString('base64') } };
  }
  if (url.startsWith(reader.filesPrefix)) return { fileData: { fileUri: url } };
  let res: Response;
  try {
    res = await reader.fetch(url);
  } catch (err) {
    if (err instanceof RequestCancelledError) throw err;
    if (err instanceof OutboundRefusedError) throw imageError(url, err.message);
    if (err instanceof ResponseTooLargeError) throw imageError(url, `larger than ${GEMINI_INLINE_IMAGE_MAX_BYTES} bytes`);
    throw imageRetryable(url, err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) {
    const reason = `HTTP ${res.status} ${res.statusText}`.trim();
    if (res.status === 408 || res.status === 429 || res.status >= 500) throw imageRetryable(url, reason, res.status);
    throw imageError(url, reason);
  }
  const declared = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await res.arrayBuffer());
  } catch (err) {
    if (err instanceof RequestCancelledError) throw err;
    throw imageRetryable(url, err instanceof Error ? err.message : String(err));
  }
  return { inlineData: { mimeType: imageType(url, declared, bytes), data: Buffer.from(bytes).toString('base64') } };
}

/** The reader used by the adapter: the tools' outbound guard (no private addresses unless allowed), size and time limited. */
function imageReader(config: ModelConfig, signal: AbortSignal | undefined): GeminiImageReader {
  return {
    filesPrefix: `${config.baseUrls.google}/files/`,
    fetch: (url) => guardedFetch(url, { maxBodyBytes: GEMINI_INLINE_IMAGE_MAX_BYTES, timeoutMs: IMAGE_FETCH_TIMEOUT_MS, signal }, outboundPolicy(config)),
  };
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
          inline += part.inlineData?.data.length ?? 0;
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

/** Keys of Gemini's Schema object (the OpenAPI 3.0 subset of generateContent); any other is dropped. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/**
 * A value the schema asked for in another form, to be given back as the tool expects it: `path` is
 * where it sits in the arguments (property names, `*` for an array's items). `json`: asked for as a
 * JSON string (`object`: only an object is taken from it, as the schema was an object); `typed`: an
 * integer, number or boolean enum asked for as a STRING enum, turned back into the value it names.
 */
type Fixup = { path: string[]; kind: 'json'; object: boolean } | { path: string[]; kind: 'typed'; values: unknown[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Formats Gemini takes, by type; any other is refused 400 ("format: only 'enum' and 'date-time' are supported for STRING type"). */
const FORMATS: Record<string, string[]> = { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] };

/** How deep `$ref`s are inlined along one path; a (recursive) ref deeper than that is asked for as a JSON string. */
const MAX_REF_DEPTH = 4;

interface SchemaContext {
  /** The schema `$ref`s point into (`#/$defs/…`, `#/definitions/…`, `#`). */
  root: unknown;
  refDepth: number;
  fixups: Fixup[];
}

/** The schema a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into the root) names; undefined when it names none. */
function resolveRef(ref: string, root: unknown): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(at) || !(key in at)) return undefined;
    at = at[key];
  }
  return at;
}

function withNote(description: unknown, note: string): string {
  return typeof description === 'string' && description ? `${description} (${note})` : note;
}

/** A value asked for as a JSON string: any JSON for an unresolved or too-deep `$ref`. */
function jsonString(out: Record<string, unknown>, path: string[], ctx: SchemaContext, object: boolean): Record<string, unknown> {
  ctx.fixups.push({ path, kind: 'json', object });
  return { ...out, type: 'string', description: withNote(out.description, object ? 'a JSON object written as a string' : 'a JSON value written as a string') };
}

/**
 * A JSON schema as Gemini's Schema: unknown keys dropped (`additionalProperties`, `$schema`,
 * `examples`, …), local `$ref`s inlined (to MAX_REF_DEPTH; deeper, a JSON string), `const` as a
 * one-value enum, `oneOf` as `anyOf`, `["x", "null"]` as a nullable x and `["x", "y"]` as an anyOf.
 * Gemini refuses an OBJECT without properties, an array whose `items` has no type, an enum that is
 * not strings or not on a STRING, and formats other than enum/date-time (STRING), int32/int64
 * (INTEGER), float/double (NUMBER): an object without properties becomes a STRING holding its JSON
 * (parsed back), untyped items strings, an integer/number/boolean enum a STRING enum of the values
 * written out (turned back into the values), another format a note in the description.
 */
function convertSchema(given: unknown, path: string[], ctx: SchemaContext): Record<string, unknown> {
  if (!isRecord(given)) return { type: 'string' };
  const schema = given;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, ctx.root);
    const { $ref: _ref, ...siblings } = schema;
    if (!isRecord(target) || ctx.refDepth >= MAX_REF_DEPTH) return jsonString(typeof siblings.description === 'string' ? { description: siblings.description } : {}, path, ctx, false);
    return convertSchema({ ...target, ...siblings }, path, { ...ctx, refDepth: ctx.refDepth + 1 });
  }
  const out: Record<string, unknown> = {};
  let type = schema.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    if (types.length < type.length) out.nullable = true;
    if (types.length > 1) {
      // Several types: one anyOf branch each; the description stays on the whole.
      const { type: _type, description, title, nullable: _nullable, ...rest } = schema;
      return {
        ...out,
        ...(typeof description === 'string' ? { description } : {}),
        ...(typeof title === 'string' ? { title } : {}),
        anyOf: types.map((t) => convertSchema({ ...rest, type: t }, path, ctx)),
      };
    }
    type = types[0];
  }
  if (schema.oneOf !== undefined && schema.anyOf === undefined) out.anyOf = schema.oneOf;
  for (const [k, v] of Object.entries(schema)) if (SCHEMA_KEYS.has(k) && k !== 'type' && k !== 'properties' && k !== 'items' && k !== 'anyOf' && k !== 'required' && k !== 'format' && k !== 'enum') out[k] = v;
  if (Array.isArray(out.anyOf ?? schema.anyOf)) {
    // The branches keep the path: an object without properties in one is parsed back where the model answers it.
    out.anyOf = ((out.anyOf ?? schema.anyOf) as unknown[]).map((s) => convertSchema(s, path, ctx));
    if (type === undefined) return out;
  }
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  if (type === undefined) type = isRecord(schema.properties) ? 'object' : schema.items !== undefined ? 'array' : values?.every((v) => typeof v === 'number') ? 'number' : 'string';
  const lower = String(type).toLowerCase();
  if (lower === 'object') {
    const props = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
    if (props.length === 0) return jsonString(out, path, ctx, true);
    out.type = 'object';
    out.properties = Object.fromEntries(props.map(([k, v]) => [k, convertSchema(v, [...path, k], ctx)]));
    if (Array.isArray(schema.required)) out.required = schema.required.filter((r) => typeof r === 'string' && props.some(([k]) => k === r));
    return out;
  }
  if (lower === 'array') {
    const items = schema.items;
    out.type = 'array';
    out.items = isRecord(items) && Object.keys(items).some((k) => SCHEMA_KEYS.has(k) || k === 'const' || k === 'oneOf' || k === '$ref') ? convertSchema(items, [...path, '*'], ctx) : { type: 'string' };
    return out;
  }
  out.type = lower;
  if (typeof schema.format === 'string') {
    if (FORMATS[lower]?.includes(schema.format)) out.format = schema.format;
    else out.description = withNote(out.description, `format: ${schema.format}`);
  }
  if (values) {
    const named = values.filter((v) => v !== null);
    if (named.length < values.length) out.nullable = true;
    if (named.length > 0) {
      if (lower !== 'string' || named.some((v) => typeof v !== 'string')) {
        // Gemini takes enums of strings on STRING only: the values are asked for written out, and given back typed.
        ctx.fixups.push({ path, kind: 'typed', values: named });
        out.type = 'string';
        delete out.format;
        delete out.minimum;
        delete out.maximum;
      }
      out.enum = named.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    }
  }
  return out;
}

/** A tool's parameters as Gemini's Schema; undefined for a tool without parameters (Gemini: leave it unset). */
export function geminiParameters(parameters: Record<string, unknown>): { schema?: Record<string, unknown>; fixups: Fixup[] } {
  if (!isRecord(parameters.properties) || Object.keys(parameters.properties).length === 0) return { fixups: [] };
  const ctx: SchemaContext = { root: parameters, refDepth: 0, fixups: [] };
  return { schema: convertSchema(parameters, [], ctx), fixups: ctx.fixups };
}

/**
 * A response schema as Gemini's Schema; undefined when the answer is an object without properties
 * (any JSON object: JSON mode without a schema). A nested one is asked for as a JSON string.
 */
function geminiResponseSchema(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const ctx: SchemaContext = { root: schema, refDepth: 0, fixups: [] };
  const converted = convertSchema(schema, [], ctx);
  return ctx.fixups.some((f) => f.kind === 'json' && f.path.length === 0) ? undefined : converted;
}

/** A value the model gave for a fixup, as the tool expects it (left as given when it is not one the fixup reads). */
function fixValue(value: unknown, fixup: Fixup): unknown {
  if (typeof value !== 'string') return value;
  if (fixup.kind === 'typed') {
    const match = fixup.values.find((v) => (typeof v === 'string' ? v : JSON.stringify(v)) === value);
    return match === undefined ? value : match;
  }
  try {
    const parsed = JSON.parse(value) as unknown;
    return !fixup.object || isRecord(parsed) ? parsed : value;
  } catch {
    return value;
  }
}

/** Gives back, in the model's arguments, the values the schema asked for in another form. */
function applyFixup(value: unknown, fixup: Fixup, at = 0): unknown {
  if (at === fixup.path.length) return fixValue(value, fixup);
  const head = fixup.path[at];
  if (head === '*') return Array.isArray(value) ? value.map((v) => applyFixup(v, fixup, at + 1)) : value;
  if (!isRecord(value) || head === undefined || !(head in value)) return value;
  return { ...value, [head]: applyFixup(value[head], fixup, at + 1) };
}

/** Shown when a request has neither messages nor a system prompt (the agent block's two prompt fields). */
export const GEMINI_EMPTY_REQUEST = 'The request to Gemini has no content: give a System Prompt (systemPrompt) or a User Prompt (userPrompt)';

/**
 * The generateContent body (§7): contents, generationConfig, systemInstruction, tools, toolConfig;
 * with `fixups`, per tool, the arguments its schema asked for in another form (JSON strings, typed enums).
 */
export async function geminiRequest(req: AdapterRequest, sink: StreamSink, reader: GeminiImageReader): Promise<{ body: Record<string, unknown>; fixups: Map<string, Fixup[]> }> {
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
  if (req.responseFormat) {
    // §8: Gemini ignores structured output when tools are present.
    if (tools.length > 0) sink.warn('Gemini does not support structured output together with tools; the response format is ignored');
    else {
      const responseSchema = geminiResponseSchema(req.responseFormat.schema);
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
          const { schema, fixups: found } = geminiParameters(t.parameters);
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
  return { body, fixups };
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
      let args: unknown = part.functionCall.args ?? {};
      for (const fixup of into.fixups.get(part.functionCall.name) ?? []) args = applyFixup(args, fixup);
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
 * retried (the same prompt is blocked again). One cut at the max tokens stays an answer, with a warning.
 */
function settle(into: Reading, sink: StreamSink): void {
  if (!into.sawCandidate) {
    if (into.blockReason) throw new ModelRequestError(`Gemini blocked the prompt (blockReason ${into.blockReason}): no answer was given`);
    throw new ModelProviderError('Gemini API check error: the answer has no candidates', 'google');
  }
  const reason = into.finishReason;
  if (reason && BLOCKED_FINISH.has(reason)) throw new ModelRequestError(`Gemini stopped the answer (finishReason ${reason}): its content was blocked`);
  if (reason === 'MALFORMED_FUNCTION_CALL') throw new ModelRequestError('Gemini stopped the answer (finishReason MALFORMED_FUNCTION_CALL): the model wrote a function call that could not be read');
  if (reason === 'OTHER' && !into.content && into.calls.length === 0) throw new ModelRequestError('Gemini stopped the answer (finishReason OTHER) without content');
  if (reason === 'MAX_TOKENS') sink.warn('Gemini stopped at the max tokens limit (finishReason MAX_TOKENS): the answer is cut short', { finishReason: reason });
}

/** Tokens of an answer: thinking tokens are billed as output, so they count as completion. */
function tokensOf(res: GeminiResponse | undefined): AdapterResult['tokens'] {
  const u = res?.usageMetadata;
  if (!u) return undefined;
  const prompt = u.promptTokenCount ?? 0;
  const completion = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
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
    const { body, fixups } = await geminiRequest(req, sink, imageReader(config, signal));
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
      settle(into, sink);
      const tokens = tokensOf(answer);
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
    settle(into, sink);
    const tokens = tokensOf(last);
    return { content: into.content, model: req.model, toolCalls: into.calls, ...(tokens ? { tokens } : {}) };
  },
};
