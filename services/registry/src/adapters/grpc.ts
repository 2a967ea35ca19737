import type { ServiceHandlers } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { Registry } from '../ports.js';
import { createWorkspace, deleteWorkspace, ensureInitialWorkspace, listWorkspaces, renameWorkspace } from '../workspaces/workspaces.js';
import { getPermissions, removeMember, setMember } from '../workspaces/members.js';
import { checkWorkflows, createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, updateWorkflow } from '../entries/workflows.js';
import { duplicateWorkflow } from '../entries/duplicate.js';
import { createFolder, deleteFolder, listFolders, updateFolder } from '../folders/folders.js';
import {
  activateDeploymentVersion,
  deploy,
  getDeployedState,
  getDeployment,
  listDeploymentVersions,
  revertToDeployed,
  setWebhookActive,
  undeploy,
} from '../deployments/deployments.js';
import { getEnvironment, setEnvironment } from '../environment/environment.js';
import { resolveDeploymentKey } from '../deployments/apiKey.js';
import { deleteCustomTool, listCustomTools, upsertCustomTools } from '../customTools/customTools.js';
import { completeOAuth, deleteCredential, getAccessToken, listCredentials, startOAuth } from '../oauth/credentials.js';
import { accessOf, actorId, folderToWire, jsonObject, statusToWire, workflowToWire } from './wire.js';

function parseTools(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The registry's gRPC surface: wire types in, domain calls, wire types out. */
export function registryHandlers(r: Registry): ServiceHandlers<typeof registry.RegistryServiceService> {
  return {
    async listWorkspaces(req) {
      return listWorkspaces(r.db, actorId(req.actor));
    },
    async createWorkspace(req) {
      return { workspace: await createWorkspace(r, actorId(req.actor), req.name) };
    },
    async ensureInitialWorkspace(req) {
      const workspace = await ensureInitialWorkspace(r, actorId(req.actor), req.name);
      return { workspace: workspace ?? undefined, created: workspace !== null };
    },
    async updateWorkspace(req) {
      return { workspace: await renameWorkspace(r, actorId(req.actor), req.workspaceId, req.name) };
    },
    async deleteWorkspace(req) {
      await deleteWorkspace(r, actorId(req.actor), req.workspaceId);
      return {};
    },
    async getPermissions(req) {
      return getPermissions(r, actorId(req.actor), req.workspaceId);
    },
    async setMember(req) {
      return { member: await setMember(r, actorId(req.actor), req.workspaceId, req.userId, req.permission, { mustExist: req.mustExist, mustBeNew: req.mustBeNew }) };
    },
    async removeMember(req) {
      await removeMember(r, actorId(req.actor), req.workspaceId, req.userId);
      return {};
    },

    async createWorkflow(req) {
      const workflow = await createWorkflow(r, actorId(req.actor), req.workspaceId, {
        name: req.name,
        description: req.description,
        color: req.color,
        folderId: req.folderId,
        marketplaceData: jsonObject('marketplaceData', req.marketplaceDataJson),
      });
      return { workflow: workflowToWire(workflow) };
    },
    async getWorkflow(req) {
      const { workflow, permission } = await getWorkflow(r, actorId(req.actor), req.workflowId, accessOf(req.access));
      return { workflow: workflowToWire(workflow), permission };
    },
    async listWorkflows(req) {
      return { workflows: (await listWorkflows(r, actorId(req.actor), req.workspaceId)).map(workflowToWire) };
    },
    async updateWorkflow(req) {
      const workflow = await updateWorkflow(r, actorId(req.actor), req.workflowId, {
        name: req.name,
        description: req.description,
        color: req.color,
        folderId: req.clearFolder ? null : req.folderId,
        marketplaceData: jsonObject('marketplaceData', req.marketplaceDataJson),
      });
      return { workflow: workflowToWire(workflow) };
    },
    async deleteWorkflow(req) {
      await deleteWorkflow(r, actorId(req.actor), req.workflowId);
      return {};
    },
    async checkWorkflows(req) {
      return checkWorkflows(r.db, req.workflowIds);
    },
    async duplicateWorkflow(req) {
      const res = await duplicateWorkflow(r, actorId(req.actor), req.workflowId, {
        name: req.name,
        description: req.description,
        color: req.color,
        workspaceId: req.workspaceId,
        folderId: req.folderId,
      });
      return { ...res, workflow: workflowToWire(res.workflow) };
    },

    async listFolders(req) {
      return { folders: (await listFolders(r.db, actorId(req.actor), req.workspaceId)).map(folderToWire) };
    },
    async createFolder(req) {
      return { folder: folderToWire(await createFolder(r, actorId(req.actor), req.workspaceId, { name: req.name, parentId: req.parentId, color: req.color })) };
    },
    async updateFolder(req) {
      const folder = await updateFolder(r, actorId(req.actor), req.folderId, {
        name: req.name,
        parentId: req.clearParent ? null : req.parentId,
        color: req.color,
        isExpanded: req.isExpanded,
      });
      return { folder: folderToWire(folder) };
    },
    async deleteFolder(req) {
      await deleteFolder(r, actorId(req.actor), req.folderId);
      return {};
    },

    async deploy(req) {
      return statusToWire(await deploy(r, actorId(req.actor), req.workflowId, req.deployedAt));
    },
    async getDeployment(req) {
      return statusToWire(await getDeployment(r, actorId(req.actor), req.workflowId));
    },
    async undeploy(req) {
      return statusToWire(await undeploy(r, actorId(req.actor), req.workflowId));
    },
    async revertToDeployed(req) {
      return revertToDeployed(r, actorId(req.actor), req.workflowId);
    },
    async listDeploymentVersions(req) {
      return { versions: await listDeploymentVersions(r, actorId(req.actor), req.workflowId) };
    },
    async activateDeploymentVersion(req) {
      return statusToWire(await activateDeploymentVersion(r, actorId(req.actor), req.workflowId, req.version));
    },
    async setWebhookActive(req) {
      return statusToWire(await setWebhookActive(r, actorId(req.actor), req.workflowId, req.hasActiveWebhook));
    },
    async resolveDeploymentKey(req) {
      const grant = await resolveDeploymentKey(r.db, req.workflowId, req.apiKey);
      return { stateJson: JSON.stringify(grant.state), version: grant.version, workspaceId: grant.workspaceId, deployedBy: grant.deployedBy, actorId: grant.actorId, deployedAtMs: grant.deployedAt.getTime() };
    },
    async getDeployedState(req) {
      const found = await getDeployedState(r.db, req.workflowId, req.version);
      return { stateJson: JSON.stringify(found.state), deployedAtMs: found.deployedAt.getTime(), version: found.version };
    },

    async getEnvironment(req) {
      return { variables: await getEnvironment(r, actorId(req.actor)) };
    },
    async setEnvironment(req) {
      return { variables: await setEnvironment(r, actorId(req.actor), req.variables) };
    },

    async listCustomTools(req) {
      return { toolsJson: JSON.stringify(await listCustomTools(r, actorId(req.actor), req.workflowId)) };
    },
    async upsertCustomTools(req) {
      return { toolsJson: JSON.stringify(await upsertCustomTools(r, actorId(req.actor), parseTools(req.toolsJson))) };
    },
    async deleteCustomTool(req) {
      await deleteCustomTool(r, actorId(req.actor), req.toolId);
      return {};
    },

    async startOAuth(req) {
      return { authorizeUrl: await startOAuth(r, actorId(req.actor), req.providerId, req.redirectUri) };
    },
    async completeOAuth(req) {
      const c = await completeOAuth(r, actorId(req.actor), req.state, req.code, req.redirectUri);
      return { credential: { ...c, expiresAt: c.expiresAt ?? undefined } };
    },
    async listOAuthCredentials(req) {
      return { credentials: (await listCredentials(r, actorId(req.actor))).map((c) => ({ ...c, expiresAt: c.expiresAt ?? undefined })) };
    },
    async getOAuthToken(req) {
      return { accessToken: await getAccessToken(r, actorId(req.actor), req.credentialId) };
    },
    async deleteOAuthCredential(req) {
      await deleteCredential(r, actorId(req.actor), req.credentialId);
      return {};
    },
  };
}
