import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Image counts per request: default 1, at most 10. */
export const IMAGE_COUNT = { default: 1, min: 1, max: 10 } as const;

/** Image sizes each model accepts. */
export const IMAGE_SIZES = {
  'dall-e-3': ['1024x1024', '1024x1792', '1792x1024'],
  'gpt-image-1': ['auto', '1024x1024', '1536x1024', '1024x1536'],
} as const;

/** OpenAI image generation. */
export const imageTools: ToolConfig[] = [
  defineTool({
    id: 'openai_image',
    name: 'Image Generator',
    description: "Generate images using OpenAI's image models",
    params: {
      model: need('string', 'user', 'The model to use (dall-e-3 or gpt-image-1)'),
      prompt: need('string', 'llm', 'A text description of the desired image'),
      size: may('string', 'user', 'The size of the generated image', '1024x1024'),
      quality: may('string', 'user', 'Image quality, standard or hd (dall-e-3 only)'),
      style: may('string', 'user', 'Image style, vivid or natural (dall-e-3 only)'),
      background: may('string', 'user', 'Background, auto, transparent or opaque (gpt-image-1 only)'),
      n: may('number', 'user', 'Number of images to generate (1-10; dall-e-3 makes only 1)', IMAGE_COUNT.default),
      apiKey: need('string', 'user', 'Your OpenAI API key'),
    },
    request: { method: 'POST', url: 'https://api.openai.com/v1/images/generations', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
