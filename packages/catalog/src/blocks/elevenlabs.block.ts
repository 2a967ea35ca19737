import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, shortInput } from './fields.js';

/** ElevenLabs models; the spec names five but not which, these are ElevenLabs' public TTS models. */
export const ELEVENLABS_MODELS = [
  'eleven_monolingual_v1', 'eleven_multilingual_v2', 'eleven_turbo_v2', 'eleven_turbo_v2_5', 'eleven_flash_v2_5',
] as const;

/** ElevenLabs: text to speech. */
export const elevenlabsBlock: BlockConfig = {
  type: 'elevenlabs',
  name: 'ElevenLabs',
  description: 'Convert TTS using ElevenLabs',
  longDescription: 'Generate realistic speech from text using ElevenLabs voices. Returns a link to the audio.',
  docsLink: 'https://docs.weft.dev/tools/elevenlabs',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'ElevenLabsIcon',
  subBlocks: [
    longInput('text', 'Text', 'Enter the text to convert to speech'),
    shortInput('voiceId', 'Voice ID', 'Enter the voice ID'),
    dropdown('modelId', 'Model ID', ELEVENLABS_MODELS, { layout: 'half' }),
    secretField('apiKey', 'API Key', 'Enter your ElevenLabs API key'),
  ],
  tools: { access: ['elevenlabs_tts'] },
  inputs: {
    text: { type: 'string', required: true },
    voiceId: { type: 'string', required: true },
    modelId: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { audioUrl: 'string' },
};
