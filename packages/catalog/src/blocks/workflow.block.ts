import type { BlockConfig } from '../types.js';
import { shortInput } from './fields.js';

/** How the workflow picker names a workflow: its name, or 'Workflow' plus the first 8 characters of the id. */
export function workflowOptionLabel(workflow: { id: string; name?: string | null }): string {
  const name = workflow.name?.trim();
  return name ? name : `Workflow ${workflow.id.slice(0, 8)}`;
}

/** The picker's choices: the current workflow left out, sorted by label. */
export function workflowOptions(
  workflows: ReadonlyArray<{ id: string; name?: string | null }>,
  currentWorkflowId: string | undefined,
): Array<{ id: string; label: string }> {
  return workflows
    .filter((w) => w.id !== currentWorkflowId)
    .map((w) => ({ id: w.id, label: workflowOptionLabel(w) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Workflow: runs another workflow as a step; the input is `start.input` in the child. */
export const workflowBlock: BlockConfig = {
  type: 'workflow',
  name: 'Workflow',
  description: 'Execute another workflow',
  longDescription:
    'Run another workflow as a block. The optional input variable is available in the child workflow as start.input, and the child result comes back as this block output.',
  docsLink: 'https://docs.weft.dev/blocks/workflow',
  category: 'blocks',
  bgColor: '#705335',
  icon: 'WorkflowIcon',
  subBlocks: [
    { id: 'workflowId', title: 'Select Workflow', type: 'workflow-selector', layout: 'full', placeholder: 'Select a workflow' },
    shortInput('input', 'Input Variable (Optional)', 'Select a variable to pass to the child workflow'),
  ],
  tools: { access: ['workflow_executor'] },
  inputs: { workflowId: { type: 'string', required: true }, input: { type: 'any', required: false } },
  outputs: { success: 'boolean', childWorkflowName: 'string', result: 'json', error: 'string' },
};
