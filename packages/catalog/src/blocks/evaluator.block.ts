import type { BlockConfig } from '../types.js';
import { longInput } from './fields.js';
import { CHAT_TOOL_IDS, modelApiKeyField, modelField, selectChatTool } from './modelTool.js';

/** Evaluator: a model scores content against named metrics with ranges. */
export const evaluatorBlock: BlockConfig = {
  type: 'evaluator',
  name: 'Evaluator',
  description: 'Evaluate content',
  longDescription:
    "Assess content quality using customizable evaluation metrics and scoring criteria. Each metric has a name, a description and a score range; the chosen model's chat tool scores the content.",
  docsLink: 'https://docs.weft.dev/blocks/evaluator',
  category: 'tools',
  bgColor: '#4D5FFF',
  icon: 'ChartBarIcon',
  subBlocks: [
    { id: 'metrics', title: 'Evaluation Metrics', type: 'input-format', layout: 'full', columns: ['name', 'description', 'range.min', 'range.max'] },
    longInput('content', 'Content', 'Enter the content to evaluate'),
    modelField({ type: 'dropdown' }),
    modelApiKeyField(false),
    { id: 'systemPrompt', title: 'System Prompt', type: 'code', layout: 'full', hidden: true },
  ],
  tools: { access: CHAT_TOOL_IDS, config: { tool: selectChatTool } },
  inputs: {
    metrics: { type: 'json', required: true },
    content: { type: 'string', required: true },
    model: { type: 'string', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { content: 'string', model: 'string', tokens: 'any', cost: 'any' },
};
