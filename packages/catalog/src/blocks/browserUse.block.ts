import type { BlockConfig } from '../types.js';
import { dropdown, longInput, secretField } from './fields.js';

/** Browser automation: an agent carries out a task in a cloud browser. */
export const browserUseBlock: BlockConfig = {
  type: 'browser_use',
  name: 'Browser Use',
  description: 'Run browser automation tasks',
  longDescription:
    'Execute browser automation tasks with BrowserUse to navigate the web, scrape data and perform actions as a real user would. Tasks are polled every 5 seconds for up to 180 seconds.',
  docsLink: 'https://docs.weft.dev/tools/browser_use',
  category: 'tools',
  bgColor: '#E0E0E0',
  icon: 'BrowserUseIcon',
  subBlocks: [
    longInput('task', 'Task', 'Describe what the browser agent should do...'),
    { id: 'variables', title: 'Variables (Secrets)', type: 'table', layout: 'full', columns: ['Key', 'Value'] },
    dropdown('model', 'Model', [['gpt-4o', 'gpt-4o'], ['gemini-2.0-flash', 'gemini-2.0-flash'], ['claude-3-7-sonnet-20250219', 'claude-3.7-sonnet']], { layout: 'half' }),
    { id: 'save_browser_data', title: 'Save Browser Data', type: 'switch', layout: 'half', defaultValue: false },
    secretField('apiKey', 'API Key', 'Enter your BrowserUse API key'),
  ],
  tools: { access: ['browser_use_run_task'] },
  inputs: {
    task: { type: 'string', required: true },
    variables: { type: 'json', required: false },
    model: { type: 'string', required: false },
    save_browser_data: { type: 'boolean', required: false },
    apiKey: { type: 'string', required: true },
  },
  outputs: { id: 'string', success: 'boolean', output: 'any', steps: 'json' },
};
