import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import { parseBody } from '../validate.js';

const deployBody = z.object({ deployedAt: z.iso.datetime({ offset: true, message: 'deployedAt must be an ISO date' }).optional() });
const webhookBody = z.object({ hasActiveWebhook: z.boolean('hasActiveWebhook must be true or false') });
/** Freezing the state and asking the editor can take longer than a metadata call. */
const EDITOR_ROUND_TRIP_MS = 20_000;

function status(out: registry.DeploymentStatusResponse) {
  const s = out.status;
  if (!s) throw new AppError('internal', 'The registry answered without a deployment status');
  return { isDeployed: s.isDeployed, deployedAt: s.deployedAt ?? null, apiKey: s.apiKey ?? null, needsRedeployment: s.needsRedeployment, hasActiveWebhook: s.hasActiveWebhook };
}

/**
 * Brings the workflow's Temporal schedule in step with the deployment just changed, before the
 * answer, so `GET /api/schedules` right after a deploy shows it. When the runner cannot be reached
 * the deployment still stands: the runner's consumer of deployment events syncs it later.
 */
async function syncSchedule(clients: Clients, workflowId: string): Promise<void> {
  await clients.schedules.syncSchedule({ workflowId }).catch(() => undefined);
}

/** Deploy, undeploy, deployment status and versions, revert to deployed. */
export function deploymentRoutes(clients: Clients, auth: Authenticator): Router {
  const r = Router();

  r.post('/workflows/:id/deploy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(deployBody, req.body);
    const s = status(await clients.registry.deploy({ actor, workflowId: req.params.id, deployedAt: body.deployedAt }, { deadlineMs: EDITOR_ROUND_TRIP_MS }));
    await syncSchedule(clients, req.params.id);
    res.json({ apiKey: s.apiKey, isDeployed: s.isDeployed, deployedAt: s.deployedAt });
  });

  r.get('/workflows/:id/deploy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const s = status(await clients.registry.getDeployment({ actor, workflowId: req.params.id }));
    res.json({ isDeployed: s.isDeployed, deployedAt: s.deployedAt, apiKey: s.apiKey, needsRedeployment: s.needsRedeployment, hasActiveWebhook: s.hasActiveWebhook });
  });

  r.delete('/workflows/:id/deploy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const s = status(await clients.registry.undeploy({ actor, workflowId: req.params.id }));
    await syncSchedule(clients, req.params.id);
    res.json(s);
  });

  r.patch('/workflows/:id/deploy', async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(webhookBody, req.body);
    res.json(status(await clients.registry.setWebhookActive({ actor, workflowId: req.params.id, hasActiveWebhook: body.hasActiveWebhook })));
  });

  r.post('/workflows/:id/revert-to-deployed', async (req, res) => {
    const actor = await requireActor(auth, req);
    const out = await clients.registry.revertToDeployed({ actor, workflowId: req.params.id }, { deadlineMs: EDITOR_ROUND_TRIP_MS });
    res.json({ success: true, version: out.version });
  });

  r.get('/workflows/:id/deployments', async (req, res) => {
    const actor = await requireActor(auth, req);
    const out = await clients.registry.listDeploymentVersions({ actor, workflowId: req.params.id });
    res.json({ data: out.versions });
  });

  r.post('/workflows/:id/deployments/:version/activate', async (req, res) => {
    const actor = await requireActor(auth, req);
    const version = Number(req.params.version);
    if (!Number.isInteger(version) || version < 1) throw new AppError('validation', 'version must be a positive whole number');
    const s = status(await clients.registry.activateDeploymentVersion({ actor, workflowId: req.params.id, version }, { deadlineMs: EDITOR_ROUND_TRIP_MS }));
    await syncSchedule(clients, req.params.id);
    res.json(s);
  });

  return r;
}
