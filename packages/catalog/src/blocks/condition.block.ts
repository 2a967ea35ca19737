import type { BlockConfig } from '../types.js';

/** Condition: branches on if / else-if / else expressions. */
export const conditionBlock: BlockConfig = {
  type: 'condition',
  name: 'Condition',
  description: 'Add a condition',
  longDescription:
    'Add a condition to the workflow to branch the execution path based on a boolean expression. The first condition that holds picks the path.',
  docsLink: 'https://docs.weft.dev/blocks/condition',
  category: 'blocks',
  bgColor: '#FF752F',
  icon: 'ConditionalIcon',
  subBlocks: [{ id: 'conditions', type: 'condition-input', layout: 'full' }],
  tools: { access: [] },
  inputs: {},
  outputs: { content: 'string', conditionResult: 'boolean', selectedPath: 'json', selectedConditionId: 'string' },
};
