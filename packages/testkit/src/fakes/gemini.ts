import { answerBase, createTurnQueue, modelFakeOf, streamPieces, usageOf, type FakeModelServer, type FakeModelTurn } from './modelScript.js';
import { createFakeServer, type FakeAnswer, type RecordedRequest } from './server.js';

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

function errorAnswer(status: number, message: string): FakeAnswer {
  return { status, json: { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } } };
}

/**
 * Keys of Gemini's Schema object; any other is refused as the real API does ("Unknown name … Cannot
 * find field."). Written apart from the adapter's list on purpose: the fake is Gemini's model, not the adapter's.
 */
const SCHEMA_KEYS = new Set(
  'type format title description nullable enum maxItems minItems properties required minProperties maxProperties minLength maxLength pattern example anyOf propertyOrdering default items minimum maximum'.split(' '),
);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Formats Gemini takes by type, and the 400 it answers for another. */
const FORMATS: Record<string, { allowed: string[]; refusal: string }> = {
  STRING: { allowed: ['enum', 'date-time'], refusal: "only 'enum' and 'date-time' are supported for STRING type" },
  INTEGER: { allowed: ['int32', 'int64'], refusal: "only 'int32' and 'int64' are supported for INTEGER type" },
  NUMBER: { allowed: ['float', 'double'], refusal: "only 'float' and 'double' are supported for NUMBER type" },
};

/**
 * What Gemini answers 400 for in a schema: unknown keys (`$ref`, `const`, …), an enum value that is
 * not a string or an enum on another type than STRING, a format the type does not take, an OBJECT
 * without properties, an array whose items have no type; in properties, items and anyOf branches.
 */
function schemaProblem(schema: unknown, at: string): string | undefined {
  if (!isRecord(schema)) return `* GenerateContentRequest.${at}: must be a Schema object`;
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_KEYS.has(key)) return `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`;
  }
  const type = typeof schema.type === 'string' ? schema.type.toUpperCase() : undefined;
  if (Array.isArray(schema.enum)) {
    const i = schema.enum.findIndex((v) => typeof v !== 'string');
    if (i >= 0) return `Invalid value at '${at}.enum[${i}]' (TYPE_STRING), ${JSON.stringify(schema.enum[i])}`;
    if (type !== 'STRING') return `* GenerateContentRequest.${at}.enum: only allowed for STRING type`;
  }
  if (schema.format !== undefined) {
    const formats = type === undefined ? undefined : FORMATS[type];
    if (!formats || !formats.allowed.includes(String(schema.format))) return `* GenerateContentRequest.${at}.format: ${formats?.refusal ?? `format is not supported for ${type ?? 'TYPE_UNSPECIFIED'} type`}`;
  }
  if (type === 'OBJECT' && (!isRecord(schema.properties) || Object.keys(schema.properties).length === 0)) {
    return `* GenerateContentRequest.${at}.properties: should be non-empty for OBJECT type`;
  }
  if (type === 'ARRAY') {
    if (!isRecord(schema.items) || (typeof schema.items.type !== 'string' && !Array.isArray(schema.items.anyOf))) return `* GenerateContentRequest.${at}.items: missing field.`;
    const inner = schemaProblem(schema.items, `${at}.items`);
    if (inner) return inner;
  }
  for (const [name, prop] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) {
    const inner = schemaProblem(prop, `${at}.properties[${name}]`);
    if (inner) return inner;
  }
  for (const [i, branch] of (Array.isArray(schema.anyOf) ? schema.anyOf : []).entries()) {
    const inner = schemaProblem(branch, `${at}.any_of[${i}]`);
    if (inner) return inner;
  }
  return undefined;
}

type Part = Record<string, unknown>;

/** The image types Gemini reads inline. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];
/** Gemini's request size limit. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

/** The contents and tools checks Gemini makes before answering; the 400 message it gives, or undefined. */
function requestProblem(body: Record<string, unknown>, thinkingSignatures: boolean, issued: Set<string>): string | undefined {
  const contents = Array.isArray(body.contents) ? (body.contents as Array<{ role?: string; parts?: Part[] }>) : [];
  if (contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, c] of contents.entries()) {
    const parts = c.parts ?? [];
    if (parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`;
    let firstCall = true;
    for (const [j, p] of parts.entries()) {
      if (p.text === '' || Object.keys(p).filter((k) => k !== 'thoughtSignature' && k !== 'thought').length === 0) {
        return `* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field`;
      }
      const inline = p.inlineData as { mimeType?: unknown; data?: unknown } | undefined;
      if (inline && (typeof inline.mimeType !== 'string' || typeof inline.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(inline.data))) {
        return `Invalid value at 'contents[${i}].parts[${j}].inline_data.data' (TYPE_BYTES), Base64 decoding failed`;
      }
      if (inline && !IMAGE_TYPES.includes(String(inline.mimeType))) return `Unsupported MIME type: ${String(inline.mimeType)}`;
      const call = p.functionCall as { name?: string } | undefined;
      if (call && c.role === 'model' && thinkingSignatures) {
        // Gemini 3: the first call of each model step goes back with the signature it came with.
        if (firstCall && typeof p.thoughtSignature !== 'string') {
          return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${call.name ?? ''}\` , position ${j + 1}.`;
        }
        if (typeof p.thoughtSignature === 'string' && !issued.has(p.thoughtSignature)) return 'Corrupted thought signature.';
        firstCall = false;
      }
    }
  }
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ functionDeclarations?: Array<{ parameters?: unknown }> }>) : [];
  for (const [i, t] of tools.entries()) {
    for (const [j, d] of (t.functionDeclarations ?? []).entries()) {
      if (d.parameters === undefined) continue;
      const problem = schemaProblem(d.parameters, `tools[${i}].function_declarations[${j}].parameters`);
      if (problem) return problem;
    }
  }
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  if (config.responseSchema !== undefined) return schemaProblem(config.responseSchema, 'generation_config.response_schema');
  return undefined;
}

/** Gemini 3 models sign their function calls (thought signatures) and refuse a follow-up without them. */
const signs = (model: string): boolean => /^gemini-3/.test(model);

function geminiAnswer(req: RecordedRequest, turn: FakeModelTurn, issued: Set<string>, n: number): FakeAnswer {
  if (turn.error) return { ...errorAnswer(turn.error.status, turn.error.message), ...answerBase(turn) };
  const model = decodeURIComponent(req.path.split('/').pop() ?? '').split(':')[0] ?? 'gemini';
  const usage = usageOf(turn);
  const usageMetadata = usage && {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.completion,
    ...(usage.thoughts ? { thoughtsTokenCount: usage.thoughts } : {}),
    totalTokenCount: usage.prompt + usage.completion + usage.thoughts,
    ...(usage.cached ? { cachedContentTokenCount: usage.cached } : {}),
  };
  // A cut call is left out: Gemini gives only whole calls.
  const cut = turn.cutToolCall === true && (turn.toolCalls ?? []).length > 0;
  const calls = (turn.toolCalls ?? []).slice(0, cut ? -1 : undefined).map((c, i) => {
    const signature = signs(model) && i === 0 ? `sig-${n}-${model}` : undefined;
    if (signature) issued.add(signature);
    return { functionCall: { name: c.name, args: c.arguments }, ...(signature ? { thoughtSignature: signature } : {}) };
  });
  if (turn.blockReason) return { json: { promptFeedback: { blockReason: turn.blockReason }, ...(usageMetadata ? { usageMetadata } : {}), modelVersion: model }, ...answerBase(turn) };
  const finishReason = turn.finishReason ?? (cut ? 'MAX_TOKENS' : 'STOP');
  const response = (parts: unknown[], last: boolean) => ({
    // A cut answer with nothing left has a content of only its role.
    candidates: [{ content: { role: 'model', ...(cut && parts.length === 0 ? {} : { parts }) }, index: 0, ...(last ? { finishReason } : {}) }],
    ...(last && usageMetadata ? { usageMetadata } : {}),
    modelVersion: model,
  });
  if (!req.path.endsWith(':streamGenerateContent')) {
    const parts = [...(turn.content ? [{ text: turn.content }] : []), ...calls];
    return { json: response(parts, true), ...answerBase(turn) };
  }
  const pieces = streamPieces(turn.content ?? '');
  const events: unknown[] = pieces.map((text, i) => response([{ text }], i === pieces.length - 1 && calls.length === 0));
  if (calls.length > 0 || pieces.length === 0) events.push(response(calls, true));
  return { sse: events, ...answerBase(turn) };
}

/**
 * A fake of Gemini's `models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (key in the
 * query string). It refuses, with Gemini's 400 texts, what the real API refuses: empty contents or
 * parts, an empty text, bad inline data or an image type it does not read, a request over 20 MB, schema keys outside Gemini's subset, enums that are not
 * strings on a STRING, formats the type does not take, an OBJECT without properties, array items
 * without a type, and (gemini-3 models) a function call sent back without the
 * thought signature it was given.
 */
export async function createGeminiFake(): Promise<FakeModelServer> {
  const server = await createFakeServer();
  const turns = createTurnQueue();
  const issued = new Set<string>();
  let served = 0;
  const handle = (req: RecordedRequest): FakeAnswer => {
    if (!/:(stream)?[gG]enerateContent$/.test(req.path)) return errorAnswer(404, `unknown method ${req.path}`);
    if (!req.query.key) return errorAnswer(403, "Method doesn't allow unregistered callers. Please use API Key.");
    const model = decodeURIComponent(req.path.split('/').pop() ?? '').split(':')[0] ?? '';
    if (req.bytes.length > MAX_REQUEST_BYTES) return errorAnswer(400, `Request payload size exceeds the limit: ${MAX_REQUEST_BYTES} bytes.`);
    const problem = requestProblem(isRecord(req.body) ? req.body : {}, signs(model), issued);
    if (problem) return errorAnswer(400, problem);
    return geminiAnswer(req, turns.next(req), issued, ++served);
  };
  server.on('POST', '/v1beta/models/:method', handle);
  return modelFakeOf(server, turns, () => server.received('POST', '/v1beta/models/:method'));
}
