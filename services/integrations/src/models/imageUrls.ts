import { ModelRequestError } from './errors.js';

/** The schemes an image is sent to a model by: fetched from http(s), or carried in a data: URL. */
const IMAGE_URL_SCHEMES = ['http:', 'https:', 'data:'];

/** A data URL (RFC 2397): `data:[<type>][;<param>]*[;base64],<payload>`. */
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

/** The field image URLs come from (the vision block's and the vision tool's Image URL), named in their errors. */
export const IMAGE_URL_FIELD = 'Image URL (imageUrl)';

/** An image URL shortened for a message (a data URL can be megabytes). */
export function shownImageUrl(url: string): string {
  return url.length > 80 ? `${url.slice(0, 77)}...` : url;
}

/**
 * Why an image URL cannot be sent to a model, or undefined: it must be an http(s) URL or a data: URL
 * (`also` names what else the caller takes, as Gemini its file URIs). Checked before any request, so a
 * typo is the user's to fix at once rather than the provider's 400 or a failed fetch tried again.
 */
export function imageUrlProblem(url: string, also: string[] = []): string | undefined {
  const kinds = ['an http(s) URL', 'a data: URL', ...also];
  const give = `give ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1) ?? ''}`;
  if (!URL.canParse(url)) return `it is not a valid URL (${give})`;
  const scheme = new URL(url).protocol;
  if (!IMAGE_URL_SCHEMES.includes(scheme)) return `its scheme ${scheme} is not one an image is read from (${give})`;
  // Without its comma a data: URL carries nothing; sent on, a provider would try to fetch it.
  if (scheme === 'data:' && !DATA_URL.test(url)) return 'it is not a valid data: URL (write data:<type>;base64,<data>)';
  return undefined;
}

/** The user's error for an image URL with a problem, naming the field it came from, or undefined. */
export function invalidImageUrlMessage(url: string, also: string[] = []): string | undefined {
  const problem = imageUrlProblem(url, also);
  return problem ? `Invalid ${IMAGE_URL_FIELD} ${shownImageUrl(url)}: ${problem}` : undefined;
}

/**
 * The check every provider adapter makes where an image enters its request: an image URL that is not
 * an http(s) or data: URL fails before anything is sent, not retried (ModelRequestError).
 */
export function checkImageUrl(url: string, also: string[] = []): string {
  const message = invalidImageUrlMessage(url, also);
  if (message) throw new ModelRequestError(message);
  return url;
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

/**
 * A data URL's declared type (lower case, `text/plain` when it names none) and bytes, or undefined for
 * another URL; throws an Error saying why for a payload that is not bytes.
 */
export function decodeDataUrl(url: string): { declared: string; bytes: Buffer } | undefined {
  const data = DATA_URL.exec(url);
  if (!data) return undefined;
  const declared = (data[1] || 'text/plain').toLowerCase();
  const payload = data[3] ?? '';
  const base64 = (data[2] ?? '').split(';').includes('base64');
  return { declared, bytes: base64 ? Buffer.from(payload, 'base64') : percentDecoded(payload) };
}

/** The image type the bytes begin with (magic numbers: PNG, JPEG, WEBP, GIF, HEIC/HEIF), or undefined. */
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
