import type { Kysely } from 'kysely';
import { AppError, type ServiceHandlers } from '@weft/platform';
import { registry } from '@weft/contracts';
import type { RegistryDB } from '../db.js';
import { createWorkflow, getWorkflow, listWorkflows, type WorkflowView } from '../workflows.js';
import { listWorkspaces } from '../workspaces.js';

function actorId(actor: registry.Actor | undefined): string {
  if (!actor?.userId) throw new AppError('unauthenticated', 'Unauthorized');
  return actor.userId;
}

function toWire(w: WorkflowView): registry.WorkflowEntry {
  return {
    id: w.id,
    workspaceId: w.workspaceId,
    folderId: w.folderId ?? undefined,
    name: w.name,
    description: w.description,
    color: w.color,
    marketplaceDataJson: w.marketplaceData ? JSON.stringify(w.marketplaceData) : '',
    isDeployed: w.isDeployed,
    deployedAt: w.deployedAt ?? undefined,
    apiKey: w.apiKey ?? undefined,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

/** The registry's gRPC surface: wire types in, domain calls, wire types out. */
export function registryHandlers(db: Kysely<RegistryDB>, instance: string, kick: () => void): ServiceHandlers<typeof registry.RegistryServiceService> {
  return {
    async listWorkspaces(req) {
      return { workspaces: await listWorkspaces(db, actorId(req.actor)) };
    },
    async createWorkflow(req) {
      const workflow = await createWorkflow(db, instance, {
        userId: actorId(req.actor),
        workspaceId: req.workspaceId,
        name: req.name,
        description: req.description,
        color: req.color,
        folderId: req.folderId,
      });
      kick();
      return { workflow: toWire(workflow) };
    },
    async getWorkflow(req) {
      const access = req.access === 'write' ? 'write' : req.access === 'admin' ? 'admin' : 'read';
      const { workflow, permission } = await getWorkflow(db, actorId(req.actor), req.workflowId, access);
      return { workflow: toWire(workflow), permission };
    },
    async listWorkflows(req) {
      return { workflows: (await listWorkflows(db, actorId(req.actor), req.workspaceId)).map(toWire) };
    },
  };
}
