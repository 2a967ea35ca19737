import { proxyActivities } from '@temporalio/workflow';
import type { IntegrationActivities, ModelActivities } from '@weft/contracts';
import type { BlockRunContext, RunnableBlock } from '../types.js';

/** Start-to-close of one model call (a long streamed answer included). */
export const MODEL_CALL_TIMEOUT = '5 minutes';
/** Silence after which a model call counts as lost with its worker. */
export const MODEL_HEARTBEAT_TIMEOUT = '30 seconds';
/**
 * Silence after which a function or tool call counts as lost with its worker: the integrations
 * worker heartbeats every 500 ms while one runs and forwards one beat a second (its answer carries
 * a cancellation).
 */
export const INTEGRATION_HEARTBEAT_TIMEOUT = '15 seconds';
/** Start-to-close of one tool call (long-polling tools run up to 300 s). */
export const TOOL_CALL_TIMEOUT = '10 minutes';

/** Where and how the model layer's activities run. */
export interface ActivityPlace {
  integrationsTaskQueue: string;
  /** Tries for transient failures (network, 429, 5xx); user errors and 4xx are never retried. */
  maxAttempts: number;
}

/** Model activities on the integrations queue, retried by Temporal (a finished call is never repeated). */
export function modelActivities(place: ActivityPlace): ModelActivities {
  return proxyActivities<ModelActivities>({
    taskQueue: place.integrationsTaskQueue,
    startToCloseTimeout: MODEL_CALL_TIMEOUT,
    // The model activities heartbeat every 5 s: a call on a lost worker is tried again after 30 s, not 5 minutes.
    heartbeatTimeout: MODEL_HEARTBEAT_TIMEOUT,
    retry: { maximumAttempts: Math.max(1, place.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 },
  });
}

/** The tool runtime's executeTool, for the agent's tool calls. */
export function toolActivities(place: ActivityPlace): Pick<IntegrationActivities, 'executeTool'> {
  return proxyActivities<IntegrationActivities>({
    taskQueue: place.integrationsTaskQueue,
    startToCloseTimeout: TOOL_CALL_TIMEOUT,
    heartbeatTimeout: INTEGRATION_HEARTBEAT_TIMEOUT,
    retry: { maximumAttempts: Math.max(1, place.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 },
  });
}

/** Who a model call of `block` acts for, as the model layer logs and bills it. */
export function callContext(block: RunnableBlock, ctx: BlockRunContext) {
  return { workspaceId: ctx.workspaceId, workflowId: ctx.workflowId, executionId: ctx.executionId, blockId: block.id, requestId: ctx.requestId };
}
