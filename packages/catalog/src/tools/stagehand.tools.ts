import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Stagehand browser tools, run by internal routes. */
export const stagehandTools: ToolConfig[] = [
  defineTool({
    id: 'stagehand_extract',
    name: 'Stagehand Extract',
    description: 'Extract structured data from a webpage using Stagehand',
    params: {
      instruction: need('string', 'llm', 'Instructions for extraction'),
      schema: need('json', 'user', 'JSON schema defining the structure of the data to extract'),
      apiKey: need('string', 'user', 'OpenAI API key for extraction (required by Stagehand)'),
      url: need('string', 'llm', 'URL to navigate to'),
    },
    request: { method: 'POST', url: '/api/tools/stagehand/extract' },
  }),
  defineTool({
    id: 'stagehand_agent',
    name: 'Stagehand Agent',
    description: 'Run an autonomous web agent that completes tasks and extracts structured data; the start URL gets https:// when it has no scheme',
    params: {
      task: need('string', 'llm', 'The task to complete (variables referenced as %key%)'),
      startUrl: need('string', 'user', 'URL of the webpage to start the agent on'),
      outputSchema: may('json', 'user', 'Optional JSON schema for the output data'),
      variables: may('json', 'user', 'Optional variables substituted into the task'),
      apiKey: need('string', 'user', 'Anthropic API key for agent execution'),
    },
    request: { method: 'POST', url: '/api/tools/stagehand/agent' },
  }),
];
