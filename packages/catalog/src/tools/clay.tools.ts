import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** Clay table webhook: POST {data}. */
export const clayTools: ToolConfig[] = [
  defineTool({
    id: 'clay_populate',
    name: 'Clay Populate',
    description: 'Populate Clay with data from a JSON file. Enables direct communication and notifications with timestamp tracking and channel confirmation.',
    params: {
      webhookURL: need('string', 'user', 'The webhook URL to populate'),
      data: need('json', 'llm', 'The data to populate'),
      authToken: need('string', 'user', 'Auth token for Clay webhook authentication'),
    },
    request: { method: 'POST', url: '{webhookURL}', headers: { Authorization: 'Bearer {authToken}', 'Content-Type': 'application/json' } },
  }),
];
