import { Router, type Request, type Response } from 'express';
import { AppError, toAppError } from '@weft/platform';
import type { runnerSchedules } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import type { AccessChecker } from '../access.js';

/** The workflowId of a query or body; 'workflowId is required' when it is missing or not text. */
function workflowIdOf(from: unknown): string {
  const given = typeof from === 'object' && from !== null ? (from as { workflowId?: unknown }).workflowId : undefined;
  if (typeof given !== 'string' || given === '') throw new AppError('validation', 'workflowId is required');
  return given;
}

/** A schedule as /api/schedules shows it. */
function scheduleView(s: runnerSchedules.ScheduleView) {
  return {
    id: s.id,
    workflowId: s.workflowId,
    cronExpression: s.cronExpression,
    timezone: s.timezone,
    nextRunAt: s.nextRunAt,
    lastRunAt: s.lastRunAt ?? null,
    status: s.status,
    scheduleType: s.scheduleType,
    deploymentVersion: s.deploymentVersion,
  };
}

function found(workflowId: string, out: runnerSchedules.ScheduleResponse) {
  if (!out.schedule) throw new AppError('not_found', `Workflow ${workflowId} has no schedule`);
  return scheduleView(out.schedule);
}

/**
 * Schedules of deployed workflows (one per workflow; its id is the workflow's): GET
 * /api/schedules?workflowId=, POST /api/schedules/{id}/pause and /resume, and the schedule call of
 * spec 000 §7 (POST /api/schedules, also at /api/schedules/schedule, with workflowId and a state):
 * the schedule is made to follow the workflow's active deployment, so for a deleted (or undeployed)
 * workflow it is cancelled. The deployment decides what is scheduled, never the state sent.
 */
export function scheduleRoutes(clients: Clients, auth: Authenticator, access: AccessChecker): Router {
  const r = Router();

  r.get('/schedules', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workflowId = workflowIdOf(req.query);
    await access.require(actor, workflowId, 'read');
    res.json(found(workflowId, await clients.schedules.getSchedule({ workflowId })));
  });

  const cancel = async (req: Request, res: Response) => {
    const actor = await requireActor(auth, req);
    const workflowId = workflowIdOf(req.body);
    try {
      await access.require(actor, workflowId, 'write');
    } catch (err) {
      // A deleted workflow has no one with access left; syncing only removes what no deployment keeps.
      if (toAppError(err).code !== 'not_found') throw err;
    }
    const out = await clients.schedules.syncSchedule({ workflowId });
    res.json({ success: true, cancelled: out.schedule === undefined, schedule: out.schedule ? scheduleView(out.schedule) : null });
  };
  r.post('/schedules', cancel);
  r.post('/schedules/schedule', cancel);

  r.post('/schedules/:id/pause', async (req, res) => {
    const actor = await requireActor(auth, req);
    await access.require(actor, req.params.id, 'write');
    res.json(found(req.params.id, await clients.schedules.pauseSchedule({ workflowId: req.params.id })));
  });

  r.post('/schedules/:id/resume', async (req, res) => {
    const actor = await requireActor(auth, req);
    await access.require(actor, req.params.id, 'write');
    res.json(found(req.params.id, await clients.schedules.resumeSchedule({ workflowId: req.params.id })));
  });

  return r;
}
