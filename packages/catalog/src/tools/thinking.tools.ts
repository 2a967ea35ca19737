import type { ToolConfig } from '../types.js';
import { defineTool, need } from './define.js';

/** Acknowledges a model's thought; runs internally. */
export const thinkingTools: ToolConfig[] = [
  defineTool({
    id: 'thinking_tool',
    name: 'Thinking Tool',
    description: 'Processes a provided thought or instruction, making it available for subsequent steps',
    params: { thought: need('string', 'llm', 'The thought process or instruction provided by the user in the Thinking Step block') },
    request: { method: 'POST', url: '/api/tools/thinking' },
  }),
];
