import { AppError, type ServiceHandlers } from '@weft/platform';
import type { registryTriggers } from '@weft/contracts';
import { normalizeWebhookPath } from '@weft/catalog';
import type { Registry } from '../ports.js';
import { workflowOfDeploymentKey } from './apiKey.js';
import { activeDeployment, claimDelivery, deployedWorkflowIds, readDelivery, releaseDelivery, renewDelivery, resolveWebhook, takeOverDelivery } from './triggers.js';

function toWire(d: NonNullable<Awaited<ReturnType<typeof activeDeployment>>>): registryTriggers.DeployedWorkflow {
  return { workflowId: d.workflowId, workspaceId: d.workspaceId, ownerId: d.ownerId, actorId: d.actorId, deploymentVersion: d.deploymentVersion, stateJson: d.stateJson };
}

/** The registry's TriggerService: deployed workflows for webhooks (gateway) and schedules (runner). */
export function triggerHandlers(r: Registry): ServiceHandlers<typeof registryTriggers.TriggerServiceService> {
  return {
    async resolveWebhook(req) {
      const path = normalizeWebhookPath(req.path);
      if (path === '') throw new AppError('not_found', 'No webhook path given');
      return toWire(await resolveWebhook(r.db, path));
    },
    async getActiveDeployment(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      const deployment = await activeDeployment(r.db, req.workflowId);
      return deployment ? { deployment: toWire(deployment) } : {};
    },
    async claimWebhookDelivery(req) {
      return claimDelivery(r.db, req.workflowId, req.deliveryId, req.executionId);
    },
    async releaseWebhookDelivery(req) {
      return releaseDelivery(r.db, req.workflowId, req.deliveryId, req.executionId);
    },
    async renewWebhookDelivery(req) {
      return renewDelivery(r.db, req.workflowId, req.deliveryId, req.executionId);
    },
    async readWebhookDelivery(req) {
      return readDelivery(r.db, req.workflowId, req.deliveryId);
    },
    async takeOverWebhookDelivery(req) {
      return takeOverDelivery(r.db, req.workflowId, req.deliveryId, req.staleExecutionId, req.executionId);
    },
    async listDeployedWorkflows(req) {
      if (req.allWorkspaces) return { workflowIds: await deployedWorkflowIds(r.db) };
      if (!req.workspaceId) throw new AppError('validation', 'workspaceId is required');
      return { workflowIds: await deployedWorkflowIds(r.db, req.workspaceId) };
    },
    async deploymentKeyWorkflow(req) {
      return { workflowId: await workflowOfDeploymentKey(r.db, req.apiKey) };
    },
  };
}
