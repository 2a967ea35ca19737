import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField, shortInput } from './fields.js';

/** Vision: a model describes or answers questions about an image. */
export const visionBlock: BlockConfig = {
  type: 'vision',
  name: 'Vision',
  description: 'Analyze images with vision models',
  longDescription: 'Process visual content with customizable prompts to extract insights and information from images.',
  docsLink: 'https://docs.weft.dev/tools/vision',
  category: 'tools',
  bgColor: '#4D5FFF',
  icon: 'EyeIcon',
  subBlocks: [
    shortInput('imageUrl', 'Image URL', 'Enter publicly accessible image URL'),
    dropdown('model', 'Vision Model', ['gpt-4o', 'claude-3-opus', 'claude-3-sonnet'], { layout: 'half' }),
    longInput('prompt', 'Prompt', 'Enter prompt for image analysis'),
    secretField('apiKey', 'API Key', 'Enter your API key'),
  ],
  tools: { access: ['vision_tool'] },
  inputs: {
    apiKey: { type: 'string', required: true },
    imageUrl: { type: 'string', required: true },
    model: { type: 'string', required: false },
    prompt: { type: 'string', required: false },
  },
  outputs: { content: 'string', model: 'any', tokens: 'any' },
};
