import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** ElevenLabs text to speech through the internal TTS proxy. */
export const elevenlabsTools: ToolConfig[] = [
  defineTool({
    id: 'elevenlabs_tts',
    name: 'ElevenLabs TTS',
    description: 'Convert text to speech using ElevenLabs voices',
    params: {
      text: need('string', 'llm', 'The text to convert to speech'),
      voiceId: need('string', 'user', 'The ID of the voice to use'),
      modelId: may('string', 'user', 'The ID of the model to use', 'eleven_monolingual_v1'),
      apiKey: need('string', 'user', 'Your ElevenLabs API key'),
    },
    request: { method: 'POST', url: '/api/proxy/tts' },
  }),
];
