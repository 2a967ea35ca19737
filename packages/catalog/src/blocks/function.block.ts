import type { BlockConfig } from '../types.js';

/** Function: runs user JavaScript in a sandbox. */
export const functionBlock: BlockConfig = {
  type: 'function',
  name: 'Function',
  description: 'Run custom logic',
  longDescription:
    'Execute custom JavaScript code within your workflow to transform data or implement complex logic. Code runs in a sandbox with a 10 second default timeout.',
  docsLink: 'https://docs.weft.dev/blocks/function',
  category: 'blocks',
  bgColor: '#FF402F',
  icon: 'CodeIcon',
  subBlocks: [{ id: 'code', type: 'code', layout: 'full', placeholder: 'return input;' }],
  tools: { access: ['function_execute'] },
  inputs: { code: { type: 'string', required: false }, timeout: { type: 'number', required: false } },
  outputs: { result: 'any', stdout: 'string' },
};
