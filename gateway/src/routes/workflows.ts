import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import { commandsBody, createWorkflowBody, type registry } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import { fromJson, parseBody } from '../validate.js';
import type { AccessChecker } from '../access.js';
import { stringQuery } from './internalCall.js';
import { refuseDeploymentCommands, refuseRestoresVersion, withDeploymentFlags } from './deploymentFlags.js';

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must be a hex colour such as #3972F6');
const updateWorkflowBody = z.object({
  name: z.string().min(1, 'name must not be empty').max(200).optional(),
  description: z.string().max(2000).optional(),
  color: hexColor.optional(),
  folderId: z.string().min(1).max(200).nullable().optional(),
  marketplaceData: z.record(z.string(), z.unknown()).nullable().optional(),
});
const duplicateWorkflowBody = z.object({
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  color: hexColor.optional(),
  workspaceId: z.string().min(1).max(200).optional(),
  folderId: z.string().min(1).max(200).nullable().optional(),
});
const createMarketplace = z.object({ marketplaceData: z.record(z.string(), z.unknown()).nullable().optional() });

function entry(w: registry.WorkflowEntry) {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    color: w.color,
    workspaceId: w.workspaceId,
    folderId: w.folderId ?? null,
    marketplaceData: w.marketplaceDataJson ? fromJson(w.marketplaceDataJson) : null,
    isDeployed: w.isDeployed,
    deployedAt: w.deployedAt ?? null,
    apiKey: w.apiKey ?? null,
    needsRedeployment: w.needsRedeployment,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

/** The workflow routes: registry metadata joined with the editor's state (its deployment flags the registry's). */
export function workflowRoutes(clients: Clients, auth: Authenticator, access: AccessChecker): Router {
  const r = Router();

  r.get('/workflows', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workspaceId = stringQuery(req).workspaceId ?? '';
    if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
    const { workflows } = await clients.registry.listWorkflows({ actor, workspaceId });
    const { states } = await clients.editor.getStates({ workflowIds: workflows.map((w) => w.id) });
    res.json({
      data: workflows.map((w) => {
        const s = states[w.id];
        return { ...entry(w), state: s ? withDeploymentFlags(fromJson(s.stateJson), w) : null, version: s?.version ?? 0 };
      }),
    });
  });

  r.post('/workflows', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(createWorkflowBody, req.body);
    if (!body.workspaceId) throw new AppError('validation', 'No active workspace found');
    const marketplace = parseBody(createMarketplace, req.body).marketplaceData;
    const { workflow } = await clients.registry.createWorkflow({
      actor,
      workspaceId: body.workspaceId,
      name: body.name,
      description: body.description,
      color: body.color,
      folderId: body.folderId ?? undefined,
      marketplaceDataJson: marketplace ? JSON.stringify(marketplace) : undefined,
    });
    if (!workflow) throw new AppError('internal', 'The registry answered without a workflow');
    res.status(201).json({ id: workflow.id, name: workflow.name, description: workflow.description, color: workflow.color, folderId: workflow.folderId ?? null });
  });

  r.get('/workflows/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    const { workflow } = await clients.registry.getWorkflow({ actor, workflowId: req.params.id, access: 'read' });
    if (!workflow) throw new AppError('not_found', `Workflow ${req.params.id} not found`);
    // The editor catches a just-created workflow up from the registry itself: no wait for its event.
    const state = await clients.editor.getState({ workflowId: workflow.id, waitMs: 0 });
    res.json({ data: { ...entry(workflow), state: withDeploymentFlags(fromJson(state.stateJson), workflow), version: state.version } });
  });

  r.put('/workflows/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(updateWorkflowBody, req.body);
    const { workflow } = await clients.registry.updateWorkflow({
      actor,
      workflowId: req.params.id,
      name: body.name,
      description: body.description,
      color: body.color,
      folderId: body.folderId ?? undefined,
      clearFolder: body.folderId === null,
      marketplaceDataJson: body.marketplaceData === undefined ? undefined : body.marketplaceData === null ? '' : JSON.stringify(body.marketplaceData),
    });
    if (!workflow) throw new AppError('internal', 'The registry answered without a workflow');
    res.json({ workflow: { id: workflow.id, name: workflow.name, description: workflow.description, color: workflow.color, folderId: workflow.folderId ?? null, updatedAt: workflow.updatedAt } });
  });

  r.delete('/workflows/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    await clients.registry.deleteWorkflow({ actor, workflowId: req.params.id });
    // A deleted workflow's schedule stops before the answer (the deletion event repairs a failed call).
    await clients.schedules.syncSchedule({ workflowId: req.params.id }).catch(() => undefined);
    res.json({ success: true });
  });

  r.post('/workflows/:id/duplicate', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(duplicateWorkflowBody, req.body);
    const out = await clients.registry.duplicateWorkflow(
      { actor, workflowId: req.params.id, ...body, folderId: body.folderId ?? undefined },
      { deadlineMs: 20_000 },
    );
    if (!out.workflow) throw new AppError('internal', 'The registry answered without a workflow');
    res.status(201).json({ id: out.workflow.id, blocksCount: out.blocksCount, edgesCount: out.edgesCount, subflowsCount: out.subflowsCount });
  });

  r.post('/workflows/:id/commands', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(commandsBody, req.body);
    refuseDeploymentCommands(body.commands);
    refuseRestoresVersion(body.commands);
    await access.require(actor, req.params.id, 'write');
    const out = await clients.editor.executeCommandsCoalesced({
      workflowId: req.params.id,
      commandsJson: JSON.stringify(body.commands),
      expectedVersion: body.expectedVersion,
      commandId: body.commandId,
      actorId: actor.userId,
    });
    res.json({ version: out.version, events: fromJson(out.eventsJson) });
  });

  return r;
}
