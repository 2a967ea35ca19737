/** The gRPC health service name a Temporal frontend answers for. */
export const TEMPORAL_HEALTH_SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';
