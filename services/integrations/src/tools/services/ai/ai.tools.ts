import { randomUUID } from 'node:crypto';
import {
  AI_CHAT_MAX_TOKENS_FALLBACK,
  EMBEDDING_DEFAULTS,
  IMAGE_COUNT,
  IMAGE_SIZES,
  MISTRAL_OCR_MODEL,
  VISION_MAX_TOKENS,
  clamp,
  parsePages,
  text,
  toInt,
  uploadedFiles,
  validateMistralTool,
  visionModelId,
} from '@weft/catalog';
import { cutShortWarning, emptyCutError, ModelRequestError } from '../../../models/errors.js';
import { invalidImageUrlMessage } from '../../../models/imageUrls.js';
import { anthropicImage } from '../../../models/providers/anthropic.provider.js';
import { isReasoningModel } from '../../../models/providers/openaiCompatible.js';
import { TransientToolError } from '../../runtime/errors.js';
import { ToolError, type ServiceTool, type ToolIO } from '../../serviceTool.js';
import { apiMessage, bearer, call, list, obj, serviceTool, str, type ApiResponse, type CallSpec, type Obj } from '../http.js';

/** A number parameter, or `fallback` when missing or not numeric. */
function num(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(text(value));
  return Number.isFinite(n) ? n : fallback;
}

/** System prompt (when given) and the user's content as chat messages. */
function chatMessages(p: Obj): Obj[] {
  const system = text(p.systemPrompt);
  return [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: String(p.content ?? '') }];
}

/** Token usage of an OpenAI-style answer. */
function usage(data: Obj) {
  const u = obj(data.usage);
  return { prompt_tokens: u.prompt_tokens ?? 0, completion_tokens: u.completion_tokens ?? 0, total_tokens: u.total_tokens ?? 0 };
}

/**
 * An answer the provider stopped at the max tokens limit (`stop` says how, undefined when it did not), as
 * the model blocks take it: nothing written fails, text stays with the warning the blocks give.
 */
function cutOff(stop: string | undefined, content: string): { warning?: string } {
  if (!stop) return {};
  if (!content) throw new ToolError(emptyCutError(stop).message);
  return { warning: cutShortWarning(stop) };
}

/** Provider ids older workflows stored that are not the router's names. */
const HF_PROVIDER_ALIASES: Record<string, string> = { fireworks: 'fireworks-ai', fal: 'fal-ai' };

/**
 * The model as Hugging Face's OpenAI-compatible router takes it: `<model>:<provider>` (provider
 * default novita, §2); a model that already names its provider (`…:together`) is sent as typed.
 */
export function hfRouterModel(model: string, provider: string): string {
  if (/:[A-Za-z0-9][A-Za-z0-9._-]*$/.test(model)) return model;
  const name = provider || 'novita';
  return `${model}:${HF_PROVIDER_ALIASES[name] ?? name}`;
}

const chatTools: ServiceTool[] = [
  serviceTool('perplexity_chat', async (p, io) => {
    const maxTokens = toInt(p.max_tokens, AI_CHAT_MAX_TOKENS_FALLBACK);
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('perplexity')}/chat/completions`,
      headers: bearer(p.apiKey),
      json: { model: text(p.model), messages: chatMessages(p), max_tokens: maxTokens, temperature: clamp(num(p.temperature, 0.7), 0, 1) },
    });
    if (!res.ok) throw new ToolError(`Perplexity API error: ${apiMessage(res)}`, res.status);
    const data = obj(res.data);
    return { content: str(obj(obj(list(data.choices)[0]).message).content) ?? '', model: data.model ?? text(p.model), usage: usage(data) };
  }),
  serviceTool('huggingface_chat', async (p, io) => {
    const body: Obj = { model: hfRouterModel(text(p.model), text(p.provider)), messages: chatMessages(p), stream: false, temperature: clamp(num(p.temperature, 0.7), 0, 2) };
    const maxTokens = toInt(p.maxTokens, Number.NaN);
    if (Number.isFinite(maxTokens)) body.max_tokens = maxTokens;
    const res = await call(io, { method: 'POST', url: `${io.baseUrl('huggingface')}/v1/chat/completions`, headers: bearer(p.apiKey), json: body });
    if (!res.ok) throw new ToolError(`Hugging Face chat completion failed: ${apiMessage(res)}`, res.status);
    const data = obj(res.data);
    const choice = obj(list(data.choices)[0]);
    const content = obj(choice.message).content;
    if (typeof content !== 'string') throw new ToolError('Invalid response format from Hugging Face API');
    // Cut off at Max Tokens: as the Hugging Face block.
    const cut = cutOff(choice.finish_reason === 'length' ? 'huggingface finish_reason length' : undefined, content);
    return { content, model: data.model ?? text(p.model), usage: usage(data), ...cut };
  }),
];

const DEFAULT_VISION_PROMPT = 'Please analyze this image and describe what you see in detail.';

const openaiTools: ServiceTool[] = [
  serviceTool('openai_embeddings', async (p, io) => {
    const model = text(p.model) || EMBEDDING_DEFAULTS.model;
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('openai')}/embeddings`,
      headers: bearer(p.apiKey),
      json: { input: p.input, model, encoding_format: text(p.encodingFormat) || EMBEDDING_DEFAULTS.encodingFormat },
    });
    if (!res.ok) throw new ToolError(`OpenAI API error: ${apiMessage(res)}`, res.status);
    const data = obj(res.data);
    return { embeddings: list(data.data).map((d) => obj(d).embedding), model: data.model ?? model, usage: { prompt_tokens: obj(data.usage).prompt_tokens ?? 0, total_tokens: obj(data.usage).total_tokens ?? 0 } };
  }),
  serviceTool('openai_image', async (p, io) => {
    const model = text(p.model);
    const n = clamp(toInt(p.n, IMAGE_COUNT.default), IMAGE_COUNT.min, IMAGE_COUNT.max);
    // §5's n 1-10 is the block's range; OpenAI's dall-e-3 makes one image per request and refuses n > 1.
    if (model === 'dall-e-3' && n > 1) throw new ToolError(`Number of images (n) must be 1 for dall-e-3, got ${text(p.n)}`);
    const body: Obj = { model, prompt: String(p.prompt ?? ''), n };
    const size = text(p.size) || '1024x1024';
    const sizes: readonly string[] | undefined = (IMAGE_SIZES as Record<string, readonly string[]>)[model];
    if (sizes && !sizes.includes(size)) throw new ToolError(`Invalid size ${size} for ${model}. Allowed sizes: ${sizes.join(', ')}`);
    body.size = size;
    if (model === 'dall-e-3') {
      if (text(p.quality)) body.quality = text(p.quality);
      if (text(p.style)) body.style = text(p.style);
    }
    if (model === 'gpt-image-1' && text(p.background)) body.background = text(p.background);
    const res = await call(io, { method: 'POST', url: `${io.baseUrl('openai')}/images/generations`, headers: bearer(p.apiKey), json: body, timeoutMs: 120_000 });
    if (!res.ok) throw new ToolError(`OpenAI API error: ${apiMessage(res)}`, res.status);
    const images = list(obj(res.data).data).map((d) => {
      const img = obj(d);
      return str(img.url) ?? (typeof img.b64_json === 'string' ? `data:image/png;base64,${img.b64_json}` : '');
    });
    return { content: images[0] ?? '', images, metadata: { model, revisedPrompt: obj(list(obj(res.data).data)[0]).revised_prompt } };
  }),
  serviceTool('vision_tool', async (p, io) => {
    // As the vision block: §2's Claude choices sent as current Anthropic ids, a reasoning model's limit as max_completion_tokens.
    const model = visionModelId(text(p.model) || 'gpt-4o');
    const prompt = text(p.prompt) || DEFAULT_VISION_PROMPT;
    const imageUrl = text(p.imageUrl);
    // Checked as every model adapter checks its images, before any request: a typo is the user's to fix, not the provider's 400.
    const invalid = invalidImageUrlMessage(imageUrl);
    if (invalid) throw new ToolError(invalid);
    if (model.startsWith('claude')) {
      let image: ReturnType<typeof anthropicImage>;
      try {
        // As the Anthropic adapter sends it: a data: URL as a base64 source (Anthropic's url source is http(s) only).
        image = anthropicImage(imageUrl);
      } catch (err) {
        if (err instanceof ModelRequestError) throw new ToolError(err.message);
        throw err;
      }
      const res = await call(io, {
        method: 'POST',
        url: `${io.baseUrl('anthropic')}/messages`,
        headers: { 'x-api-key': text(p.apiKey), 'anthropic-version': '2023-06-01' },
        json: {
          model,
          max_tokens: VISION_MAX_TOKENS,
          messages: [{ role: 'user', content: [image, { type: 'text', text: prompt }] }],
        },
      });
      if (!res.ok) throw new ToolError(`Anthropic API error: ${apiMessage(res)}`, res.status);
      const data = obj(res.data);
      const u = obj(data.usage);
      const input = Number(u.input_tokens ?? 0);
      const output = Number(u.output_tokens ?? 0);
      const content = list(data.content).map((b) => (obj(b).type === 'text' ? String(obj(b).text ?? '') : '')).join('');
      // Cut off at the 1000 tokens: as the vision block.
      const cut = cutOff(data.stop_reason === 'max_tokens' ? 'Anthropic stop_reason max_tokens' : undefined, content);
      return { content, model: data.model ?? model, tokens: { prompt: input, completion: output, total: input + output }, ...cut };
    }
    const res = await call(io, {
      method: 'POST',
      url: `${io.baseUrl('openai')}/chat/completions`,
      headers: bearer(p.apiKey),
      json: {
        model,
        ...(isReasoningModel(model) ? { max_completion_tokens: VISION_MAX_TOKENS } : { max_tokens: VISION_MAX_TOKENS }),
        messages: [{ role: 'user', content: [{ type: 'text', text: prompt }, { type: 'image_url', image_url: { url: imageUrl } }] }],
      },
    });
    if (!res.ok) throw new ToolError(`OpenAI API error: ${apiMessage(res)}`, res.status);
    const data = obj(res.data);
    const u = usage(data);
    const choice = obj(list(data.choices)[0]);
    const content = str(obj(choice.message).content) ?? '';
    const cut = cutOff(choice.finish_reason === 'length' ? 'openai finish_reason length' : undefined, content);
    return { content, model: data.model ?? model, tokens: { prompt: u.prompt_tokens, completion: u.completion_tokens, total: u.total_tokens }, ...cut };
  }),
];

/** The §8 status table of Mistral OCR (each message prefixed 'Mistral OCR Error:'). */
const OCR_STATUS: Record<number, string> = {
  400: 'Invalid request - please check the document URL and parameters',
  401: 'Invalid API key - please check your Mistral API key',
  403: 'Access forbidden - your API key does not have access to the OCR service',
  404: 'PDF not found - the document URL could not be reached',
  413: 'PDF too large - the document exceeds the size limit',
  415: 'Unsupported format - the document is not a supported PDF',
  429: 'Rate limit exceeded - please try again later',
  500: 'Service temporarily unavailable - please try again later',
  502: 'Service temporarily unavailable - please try again later',
  503: 'Service temporarily unavailable - please try again later',
  504: 'Service temporarily unavailable - please try again later',
};

/** The 429 and 5xx statuses of the table: answered with their message, not retried. */
const OCR_ANSWERED = Object.keys(OCR_STATUS).map(Number).filter((s) => s === 429 || s >= 500);

const ocrError = (message: string, status?: number) => new ToolError(`Mistral OCR Error: ${message}`, status);

/** §8's other OCR failures (each prefixed 'Mistral OCR Error:'); the spec names them without their words, these are ours. */
export const OCR_FAILURES = {
  timeout: 'Request timed out - the OCR service did not answer in time, please try again',
  connection: 'Connection failed - could not reach the OCR service, please check your network and try again',
  corrupted: 'Corrupted PDF - the document could not be read, please check the file and try again',
  passwordProtected: 'Password-protected PDF - the document is encrypted, please remove the password and try again',
} as const;

/** The largest PDF Mistral parses (§9: 50 MB for PDF parsing). */
const OCR_MAX_BYTES = 50 * 1024 * 1024;

/**
 * The OCR request. A timeout or a connection that failed stays a transient failure (the run's block
 * tries again, as for any tool), with §8's message so the last try's error names it.
 */
async function ocrCall(io: ToolIO, spec: CallSpec): Promise<ApiResponse> {
  try {
    return await call(io, spec);
  } catch (err) {
    if (!(err instanceof TransientToolError) || err.status !== undefined) throw err;
    const what = err.message.startsWith('Request timeout after') ? OCR_FAILURES.timeout : OCR_FAILURES.connection;
    throw new TransientToolError(`Mistral OCR Error: ${what}`);
  }
}

/** A refused document's own reason, when Mistral's message says it is encrypted or unreadable. */
function documentFailure(res: ApiResponse): string | undefined {
  const message = apiMessage(res, '');
  if (/password|encrypted/i.test(message)) return OCR_FAILURES.passwordProtected;
  if (/corrupt|damaged|malformed|invalid pdf|could not (?:be )?(?:read|parsed?|opened)/i.test(message)) return OCR_FAILURES.corrupted;
  return undefined;
}

/**
 * The document to read: the URL, else the uploaded PDF (`fileUpload`, whose base64 data link Mistral
 * takes as the document URL; at most 50 MB).
 */
function ocrDocument(p: Obj): { url: string; upload?: { name: string } } {
  const [upload] = uploadedFiles(p.fileUpload);
  if (!upload || text(p.filePath) !== '') return { url: text(p.filePath) };
  const comma = upload.url.indexOf(',');
  if (upload.url.startsWith('data:') && Math.floor(((upload.url.length - comma - 1) * 3) / 4) > OCR_MAX_BYTES) throw ocrError(OCR_STATUS[413] ?? '', 413);
  return { url: upload.url, upload: { name: upload.name } };
}

/** A positive integer parameter, or undefined (ignored) otherwise (§5). */
function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : Number(text(value));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Page numbers from an array or a comma list (§5). */
function pageList(value: unknown): number[] {
  const parsed = parsePages(Array.isArray(value) ? value.map(String).join(',') : value);
  if (!parsed.ok) throw ocrError(parsed.error);
  return parsed.pages;
}

/** Markdown reduced to plain text: images, links, emphasis and heading marks dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/(\*\*|__|\*|_|`)/g, '')
    .trim();
}

const ocrTools: ServiceTool[] = [
  serviceTool('mistral_parser', async (p, io) => {
    const doc = ocrDocument(p);
    const invalid = validateMistralTool({ ...p, filePath: doc.url });
    if (invalid) throw ocrError(invalid);
    const fileUrl = doc.url;
    const resultType = text(p.resultType) || 'markdown';
    const body: Obj = {
      model: MISTRAL_OCR_MODEL,
      document: { type: 'document_url', document_url: fileUrl },
      include_image_base64: p.includeImageBase64 === true || p.includeImageBase64 === 'true',
    };
    const pages = pageList(p.pages);
    if (pages.length > 0) body.pages = pages;
    const imageLimit = positiveInt(p.imageLimit);
    if (imageLimit !== undefined) body.image_limit = imageLimit;
    const imageMinSize = positiveInt(p.imageMinSize);
    if (imageMinSize !== undefined) body.image_min_size = imageMinSize;
    const res = await ocrCall(io, { method: 'POST', url: `${io.baseUrl('mistral')}/ocr`, headers: bearer(p.apiKey), json: body, timeoutMs: 120_000, answerStatuses: OCR_ANSWERED });
    if (!res.ok) throw ocrError(documentFailure(res) ?? OCR_STATUS[res.status] ?? apiMessage(res), res.status);
    if (!res.json || res.data === undefined) throw ocrError('Failed to parse the OCR response');
    const data = obj(res.data);
    const ocrPages = list(data.pages).map(obj);
    const markdown = ocrPages.map((pg) => String(pg.markdown ?? '')).join('\n\n');
    const content =
      resultType === 'json' ? JSON.stringify(ocrPages.map((pg) => ({ index: pg.index, markdown: pg.markdown ?? '' }))) : resultType === 'text' ? plainText(markdown) : markdown;
    const u = obj(data.usage_info);
    const fileName = doc.upload ? doc.upload.name : (!fileUrl.startsWith('data:') && decodeURIComponent(new URL(fileUrl).pathname.split('/').pop() ?? '')) || 'document.pdf';
    return {
      content,
      metadata: {
        jobId: randomUUID(),
        fileType: 'pdf',
        fileName,
        // §3 shows source 'url' only: an upload is sent as a (data) link too; its link is no source URL to show.
        source: 'url',
        ...(doc.upload || fileUrl.startsWith('data:') ? {} : { sourceUrl: fileUrl }),
        pageCount: ocrPages.length,
        usageInfo: { pagesProcessed: u.pages_processed ?? ocrPages.length, docSizeBytes: u.doc_size_bytes ?? null },
        model: data.model ?? MISTRAL_OCR_MODEL,
        resultType,
        processedAt: new Date().toISOString(),
      },
    };
  }),
];

/** Model-backed tools: Perplexity and Hugging Face chat, OpenAI embeddings, images and vision (OpenAI or Anthropic), Mistral OCR. */
export const aiTools: ServiceTool[] = [...chatTools, ...openaiTools, ...ocrTools];
