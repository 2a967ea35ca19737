import type { FakeServer } from '../server.js';
import { createServiceFake } from './kit.js';

/** ElevenLabs' answer to a missing or refused key (`xi-api-key`). */
export const ELEVENLABS_FIXTURES = {
  invalidKey: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } },
};

/** The fake's audio for one request: bytes that name what was asked, so a test can read them back. */
export function fakeSpeech(voiceId: string, modelId: string, text: string): string {
  return `FAKE-MP3 voice=${voiceId} model=${modelId} text=${text}`;
}

/**
 * A fake of ElevenLabs' text to speech (`POST /v1/text-to-speech/{voiceId}` with `xi-api-key`, body
 * `{text, model_id}`): answers audio/mpeg (see fakeSpeech); no key answers 401 as the service does.
 */
export function createFakeElevenLabs(): Promise<FakeServer> {
  return createServiceFake([
    [
      'POST',
      '/v1/text-to-speech/:voiceId',
      (req) => {
        if (!req.headers['xi-api-key']) return { status: 401, json: ELEVENLABS_FIXTURES.invalidKey };
        const body = (req.body ?? {}) as { text?: string; model_id?: string };
        const voiceId = decodeURIComponent(req.path.split('/').pop() ?? '');
        return { headers: { 'content-type': 'audio/mpeg' }, text: fakeSpeech(voiceId, body.model_id ?? '', body.text ?? '') };
      },
    ],
  ]);
}
