/** gRPC contracts generated from proto/ (see `npm run proto`), re-exported under one name per service. */
export * as health from './gen/grpc/health/v1/health.js';
export * as registry from './gen/weft/registry/v1/registry.js';
export * as editor from './gen/weft/editor/v1/editor.js';
export * as runner from './gen/weft/runner/v1/runner.js';
export * as integrations from './gen/weft/integrations/v1/integrations.js';
export * as copilot from './gen/weft/copilot/v1/copilot.js';
export * as registryTriggers from './gen/weft/registry/v1/triggers.js';
export * as runnerSchedules from './gen/weft/runner/v1/schedules.js';
export type {
  CallContext,
  ExecuteFunctionInput,
  ExecuteFunctionOutput,
  ExecuteToolInput,
  FunctionActivityOutput,
  FunctionDebug,
  IntegrationActivities,
  RunStreamChunk,
  StoreLargeOutput,
  StoredValueRef,
  Timing,
  ToolFailureDetails,
  ToolResult,
} from './activities.js';
export { integrationsTaskQueue, runChunksSubject, runnerTaskQueue } from './activities.js';
export type {
  CallModelInput,
  CallModelOutput,
  CreateEmbeddingsInput,
  CreateEmbeddingsOutput,
  GenerateImageInput,
  GenerateImageOutput,
  ModelActivities,
  ModelContentPart,
  ModelCost,
  ModelErrorDetails,
  ModelCancelledDetails,
  ModelMessage,
  ModelProviderId,
  ModelResponseFormat,
  ModelStreamTarget,
  ModelTokens,
  ModelToolCall,
  ModelToolChoice,
  ModelToolDefinition,
  ToolCallState,
} from './modelActivities.js';
export { MODEL_KEY_NAMES, MODEL_KEY_VARIABLES } from './modelActivities.js';
export { copilotTaskQueue, copilotTurnSubject } from './copilot.js';
export type { CopilotStreamEvent, CopilotTurnEvent, CopilotTurnOutcome } from './copilot.js';
export { createWorkflowBody, commandsBody, executeBody, describeIssues, INVALID_API_KEY } from './api.js';
