import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** Runs a child workflow through the internal executor route. */
export const workflowTools: ToolConfig[] = [
  defineTool({
    id: 'workflow_executor',
    name: 'Workflow Executor',
    description: 'Execute another workflow as a sub-workflow, passing the input as start.input',
    params: {
      workflowId: need('string', 'user', 'The ID of the workflow to execute'),
      inputMapping: may('object', 'llm', 'Input given to the child workflow as start.input'),
    },
    request: { method: 'POST', url: '/api/tools/workflow-executor' },
  }),
];
