import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Browser task polling: every 5 seconds, give up after 180 seconds. */
export const BROWSER_TASK_POLLING = { intervalMs: 5_000, timeoutMs: 180_000 } as const;

/** BrowserUse cloud task. */
export const browserUseTools: ToolConfig[] = [
  defineTool({
    id: 'browser_use_run_task',
    name: 'Browser Use',
    description: 'Runs a browser automation task using BrowserUse',
    params: {
      task: need('string', 'llm', 'What should the browser agent do'),
      variables: may('json', 'user', 'Optional variables to use as secrets (format: {key: value})'),
      save_browser_data: may('boolean', 'user', 'Whether to save browser data', false),
      model: may('string', 'user', 'LLM model to use', 'gpt-4o'),
      apiKey: need('string', 'user', 'API key for BrowserUse API'),
    },
    request: { method: 'POST', url: 'https://api.browser-use.com/api/v1/run-task', headers: { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' } },
  }),
];
