import { ToolError } from '../tools/serviceTool.js';
import { guardedFetch, NetworkError, OutboundRefusedError, RequestTimeoutError, ResponseTooLargeError } from '../net/guardedFetch.js';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { BaseUrls } from '../tools/runtime/baseUrls.js';
import { isHttpUrl, json, objectBody, str, type Route } from './router.js';

/** Default ElevenLabs model (spec 001 §7). */
export const TTS_DEFAULT_MODEL = 'eleven_monolingual_v1';
const MB = 1024 * 1024;
const IMAGE_MAX_BYTES = 20 * MB;
/** Largest audio read from the speech service. */
const AUDIO_MAX_BYTES = 25 * MB;

/** A failed fetch as the route's error; `tooLarge` answers a body over the route's limit. */
function outboundError(err: unknown, tooLarge: ToolError): never {
  if (err instanceof OutboundRefusedError) throw new ToolError(err.message, 400);
  if (err instanceof ResponseTooLargeError) throw tooLarge;
  if (err instanceof RequestTimeoutError || err instanceof NetworkError) throw new ToolError(err.message, 502);
  throw err;
}

/** `GET /api/proxy/image?url=` (images fetched through the outbound guard) and `POST /api/proxy/tts` (ElevenLabs, answered as a data link). */
export function proxyRoutes(policy: AddressPolicy, baseUrls: BaseUrls): Route[] {
  return [
    {
      method: 'GET',
      path: '/proxy/image',
      async handle(req) {
        const url = req.query.url ?? '';
        if (!isHttpUrl(url)) throw new ToolError('url must be an http(s) URL', 400);
        const res = await guardedFetch(url, { timeoutMs: 30_000, maxBodyBytes: IMAGE_MAX_BYTES, signal: req.signal }, policy).catch((err: unknown) =>
          outboundError(err, new ToolError(`Image exceeds the maximum size of ${IMAGE_MAX_BYTES / MB} MB`, 413)),
        );
        if (!res.ok) throw new ToolError(`Failed to fetch image: ${res.status} ${res.statusText}`, 502);
        const type = res.headers.get('content-type') ?? 'application/octet-stream';
        if (!type.startsWith('image/')) throw new ToolError(`Not an image: ${type}`, 415);
        return { status: 200, body: null, bytes: new Uint8Array(await res.arrayBuffer()), contentType: type };
      },
    },
    {
      method: 'POST',
      path: '/proxy/tts',
      async handle(req) {
        const b = objectBody(req.body);
        const apiKey = str(b, 'apiKey');
        const text = str(b, 'text');
        const voiceId = str(b, 'voiceId');
        if (!apiKey) throw new ToolError('apiKey is required', 400);
        if (!text) throw new ToolError('text is required', 400);
        if (!voiceId) throw new ToolError('voiceId is required', 400);
        const base = baseUrls.get('elevenlabs') ?? 'https://api.elevenlabs.io';
        const res = await guardedFetch(`${base}/v1/text-to-speech/${encodeURIComponent(voiceId)}`, {
          method: 'POST',
          headers: { 'xi-api-key': apiKey, 'Content-Type': 'application/json', Accept: 'audio/mpeg' },
          body: JSON.stringify({ text, model_id: str(b, 'modelId') || TTS_DEFAULT_MODEL }),
          timeoutMs: 60_000,
          maxBodyBytes: AUDIO_MAX_BYTES,
          signal: req.signal,
        }, policy).catch((err: unknown) => outboundError(err, new ToolError(`Failed to generate speech: the audio is larger than ${AUDIO_MAX_BYTES / MB} MB`, 502)));
        if (!res.ok) {
          const detail = (await res.text()).slice(0, 200);
          throw new ToolError(`Failed to generate speech: ${res.status} ${res.statusText}${detail ? ` - ${detail}` : ''}`, 502);
        }
        const audio = Buffer.from(await res.arrayBuffer());
        const audioUrl = `data:${res.headers.get('content-type') ?? 'audio/mpeg'};base64,${audio.toString('base64')}`;
        return json({ success: true, output: { audioUrl }, audioUrl });
      },
    },
  ];
}
