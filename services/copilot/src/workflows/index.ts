/** The copilot's Temporal workflows (the worker's bundle entry). */
export { copilotTurn, COPILOT_MAX_ITERATIONS } from './copilotTurn.workflow.js';
