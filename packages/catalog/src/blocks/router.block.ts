import type { BlockConfig } from '../types.js';
import { CHAT_TOOL_IDS, modelApiKeyField, modelField, selectChatTool, temperatureField } from './modelTool.js';

/** Router: a model picks which connected block runs next. */
export const routerBlock: BlockConfig = {
  type: 'router',
  name: 'Router',
  description: 'Route workflow',
  longDescription:
    'Intelligently direct workflow execution to different paths based on input analysis. A model reads the prompt and the connected blocks and selects the most appropriate one.',
  docsLink: 'https://docs.weft.dev/blocks/router',
  category: 'blocks',
  bgColor: '#28C43F',
  icon: 'ConnectIcon',
  subBlocks: [
    { id: 'systemPrompt', title: 'System Prompt', type: 'long-input', layout: 'full', placeholder: 'Enter routing instructions...', hidden: true },
    { id: 'userPrompt', title: 'User Prompt', type: 'long-input', layout: 'full', placeholder: 'Route to the correct block based on the input...' },
    modelField(),
    temperatureField(0.1),
    modelApiKeyField(),
  ],
  tools: { access: CHAT_TOOL_IDS, config: { tool: selectChatTool } },
  inputs: {
    userPrompt: { type: 'string', required: true },
    model: { type: 'string', required: true },
    temperature: { type: 'number', required: false },
    apiKey: { type: 'string', required: false },
  },
  outputs: { content: 'string', model: 'string', tokens: 'any', cost: 'any', selectedPath: 'json' },
};
