import { outboundPolicy, type ModelConfig } from '../config.js';
import { checkImageUrl, decodeDataUrl, shownImageUrl, sniffImageType } from '../imageUrls.js';
import { ModelProviderError, ModelRequestError } from '../errors.js';
import { guardedFetch, OutboundRefusedError, RequestCancelledError, ResponseTooLargeError } from '../../net/guardedFetch.js';

/** An image as Gemini reads it: base64 inline, or a file of Gemini's Files API by its URI. */
export type GeminiImagePart = { inlineData: { mimeType: string; data: string } } | { fileData: { mimeType?: string; fileUri: string } };

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

function imageError(url: string, reason: string): ModelRequestError {
  return new ModelRequestError(`Could not send image ${shownImageUrl(url)} to Gemini: ${reason}`);
}

/** A failure that may pass (5xx, 429, 408, a timeout, the network): retried as a provider error without its own status. */
function imageRetryable(url: string, reason: string, status?: number): ModelProviderError {
  return new ModelProviderError(`Could not send image ${shownImageUrl(url)} to Gemini: ${reason}`, 'google', status);
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

/** Node's TypeError for a URL it cannot parse (a redirect's Location, once the image's own URL parsed). */
const invalidUrl = (err: unknown): boolean => err instanceof TypeError && 'code' in err && err.code === 'ERR_INVALID_URL';

/**
 * An image content part as Gemini reads it: inlineData (base64) or fileData. An invalid URL (or a
 * redirect to one), a refused address, a 4xx answer, something not an image or of a type Gemini does not read, and a too-large image fail
 * as the user's to fix (ModelRequestError); a 5xx, 429 or 408 answer, a timeout or a network failure
 * as a retryable ModelProviderError; a cancelled activity's RequestCancelledError goes through as it is.
 */
export async function geminiImagePart(url: string, reader: GeminiImageReader): Promise<GeminiImagePart> {
  let data: ReturnType<typeof decodeDataUrl>;
  try {
    data = decodeDataUrl(url);
  } catch (err) {
    throw imageError(url, err instanceof Error ? err.message : String(err));
  }
  if (data) {
    const { declared, bytes } = data;
    if (bytes.length > GEMINI_INLINE_IMAGE_MAX_BYTES) throw imageError(url, `larger than ${GEMINI_INLINE_IMAGE_MAX_BYTES} bytes`);
    const sniffed = sniffImageType(bytes);
    if (!sniffed && !declared.startsWith('image/')) throw imageError(url, `a data URL of ${declared}, not an image`);
    return { inlineData: { mimeType: imageType(url, declared, bytes), data: bytes.toString('base64') } };
  }
  if (url.startsWith(reader.filesPrefix)) return { fileData: { fileUri: url } };
  // Not an http(s) URL at all (no scheme, a typo): the user's to fix, not a failure that may pass.
  checkImageUrl(url, ['a Gemini file URI']);
  let res: Response;
  try {
    res = await reader.fetch(url);
  } catch (err) {
    if (err instanceof RequestCancelledError) throw err;
    if (err instanceof OutboundRefusedError) throw imageError(url, err.message);
    if (err instanceof ResponseTooLargeError) throw imageError(url, `larger than ${GEMINI_INLINE_IMAGE_MAX_BYTES} bytes`);
    if (invalidUrl(err)) throw imageError(url, 'it redirects to an address that is not a valid URL');
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
export function imageReader(config: ModelConfig, signal: AbortSignal | undefined): GeminiImageReader {
  return {
    filesPrefix: `${config.baseUrls.google}/files/`,
    fetch: (url) => guardedFetch(url, { maxBodyBytes: GEMINI_INLINE_IMAGE_MAX_BYTES, timeoutMs: IMAGE_FETCH_TIMEOUT_MS, signal }, outboundPolicy(config)),
  };
}
