import { text } from '../paramValues.js';
import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, when } from './fields.js';

const DALLE = when('model', 'dall-e-3');
const GPT_IMAGE = when('model', 'gpt-image-1');

/** Sends quality and style only for dall-e-3, background only for gpt-image-1. */
function imageParams(p: Record<string, unknown>): Record<string, unknown> {
  const model = text(p.model) || 'dall-e-3';
  const base = { model, prompt: p.prompt, size: text(p.size) || '1024x1024', n: 1, apiKey: p.apiKey };
  if (model === 'dall-e-3') return { ...base, quality: text(p.quality) || 'standard', style: text(p.style) || 'vivid' };
  return { ...base, ...(text(p.background) ? { background: text(p.background) } : {}) };
}

/** Image generator: creates images with DALL-E 3 or GPT Image. */
export const imageGeneratorBlock: BlockConfig = {
  type: 'image_generator',
  name: 'Image Generator',
  description: 'Generate images',
  longDescription:
    "Create high-quality images using OpenAI's image generation models. Configure the size, quality, style or background to fit the model.",
  docsLink: 'https://docs.weft.dev/tools/image_generator',
  category: 'tools',
  bgColor: '#4D5FFF',
  icon: 'ImageIcon',
  subBlocks: [
    dropdown('model', 'Model', [['dall-e-3', 'DALL-E 3'], ['gpt-image-1', 'GPT Image']]),
    longInput('prompt', 'Prompt', 'Describe the image you want to generate...'),
    dropdown('size', 'Size', ['1024x1024', '1024x1792', '1792x1024'], { layout: 'half', condition: DALLE }),
    dropdown('size', 'Size', ['auto', '1024x1024', '1536x1024', '1024x1536'], { layout: 'half', condition: GPT_IMAGE }),
    dropdown('quality', 'Quality', [['standard', 'Standard'], ['hd', 'HD']], { layout: 'half', condition: DALLE }),
    dropdown('style', 'Style', [['vivid', 'Vivid'], ['natural', 'Natural']], { layout: 'half', condition: DALLE }),
    dropdown('background', 'Background', [['auto', 'Auto'], ['transparent', 'Transparent'], ['opaque', 'Opaque']], { layout: 'half', condition: GPT_IMAGE }),
    secretField('apiKey', 'API Key', 'Enter your OpenAI API key', { connectionDroppable: false }),
  ],
  tools: { access: ['openai_image'], config: { tool: () => 'openai_image', params: imageParams } },
  inputs: {
    model: { type: 'string', required: true },
    prompt: { type: 'string', required: true },
    size: { type: 'string', required: false },
    quality: { type: 'string', required: false },
    style: { type: 'string', required: false },
    background: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string', image: 'string', metadata: 'json' },
};
