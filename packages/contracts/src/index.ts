/** gRPC contracts generated from proto/ (see `npm run proto`), re-exported under one name per service. */
export * as health from './gen/grpc/health/v1/health.js';
export * as registry from './gen/weft/registry/v1/registry.js';
export * as editor from './gen/weft/editor/v1/editor.js';
export * as runner from './gen/weft/runner/v1/runner.js';
export * as integrations from './gen/weft/integrations/v1/integrations.js';
export * as copilot from './gen/weft/copilot/v1/copilot.js';
export type { ExecuteFunctionInput, ExecuteFunctionOutput, IntegrationActivities, Timing } from './activities.js';
export { integrationsTaskQueue, runnerTaskQueue } from './activities.js';
export { createWorkflowBody, commandsBody, executeBody, describeIssues } from './api.js';
