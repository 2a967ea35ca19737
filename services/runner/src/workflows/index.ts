/** Every Temporal workflow the runner's worker serves (the bundle's entry point). */
export { runWorkflow } from './runWorkflow.workflow.js';
export type { RunWorkflowArgs } from './runWorkflow.workflow.js';
export { modelToolLoop } from './models/index.js';
export type { ModelToolLoopArgs } from './models/index.js';
