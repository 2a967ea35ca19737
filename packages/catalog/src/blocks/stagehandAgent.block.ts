import type { BlockConfig } from '../types.js';
import { longInput, secretField, shortInput } from './fields.js';

/** Stagehand agent: a browser agent that carries out a task on the web. */
export const stagehandAgentBlock: BlockConfig = {
  type: 'stagehand_agent',
  name: 'Stagehand Agent',
  description: 'Autonomous web browsing agent',
  longDescription:
    'Use Stagehand to create an autonomous web browsing agent that navigates sites, fills forms and extracts data. Reference variables in the task as %key%.',
  docsLink: 'https://docs.weft.dev/tools/stagehand_agent',
  category: 'tools',
  bgColor: '#FFC83C',
  icon: 'StagehandIcon',
  subBlocks: [
    shortInput('startUrl', 'Starting URL', 'Enter the starting URL for the agent'),
    longInput('task', 'Task', 'Enter the task or goal for the browser agent (use %key% to reference variables)'),
    { id: 'variables', title: 'Variables', type: 'table', layout: 'full', columns: ['Key', 'Value'] },
    secretField('apiKey', 'Anthropic API Key', 'Enter your Anthropic API key'),
    { id: 'outputSchema', title: 'Output Schema', type: 'code', layout: 'full', placeholder: 'Enter JSON Schema...' },
  ],
  tools: { access: ['stagehand_agent'] },
  inputs: {
    startUrl: { type: 'string', required: true },
    task: { type: 'string', required: true },
    variables: { type: 'json', required: false },
    apiKey: { type: 'string', required: true },
    outputSchema: { type: 'json', required: false },
  },
  outputs: { agentResult: 'json', structuredOutput: 'any' },
};
