import type { BlockConfig } from '../types.js';

/** Thinking: lets a model write down a thought; hidden from the toolbar. */
export const thinkingBlock: BlockConfig = {
  type: 'thinking',
  name: 'Thinking',
  description: 'Forces model to outline its thought process.',
  longDescription:
    'Adds a step where the model explicitly outlines its thought process before proceeding. This can improve reasoning quality by encouraging step-by-step analysis.',
  docsLink: 'https://docs.weft.dev/tools/thinking',
  category: 'tools',
  bgColor: '#181C1E',
  icon: 'BrainIcon',
  hideFromToolbar: true,
  subBlocks: [
    { id: 'thought', title: 'Thought Process / Instruction', type: 'long-input', layout: 'full', placeholder: 'Describe the step-by-step thinking process here...', hidden: true },
  ],
  tools: { access: ['thinking_tool'] },
  inputs: { thought: { type: 'string', required: true } },
  outputs: { acknowledgedThought: 'string' },
};
