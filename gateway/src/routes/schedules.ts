import { Router, type Request, type Response } from 'express';
import { AppError, toAppError } from '@weft/platform';
import type { runnerSchedules } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Authenticator } from '../auth.js';
import type { AccessChecker } from '../access.js';
import { stringQuery } from './internalCall.js';
import { NOT_A_JSON_OBJECT } from '../validate.js';

/** The workflowId of a query or body; 'workflowId is required' when it is missing or not text. */
function workflowIdOf(from: unknown): string {
  if (Array.isArray(from)) throw new AppError('validation', NOT_A_JSON_OBJECT);
  const given = typeof from === 'object' && from !== null ? (from as { workflowId?: unknown }).workflowId : undefined;
  if (typeof given !== 'string' || given === '') throw new AppError('validation', 'workflowId is required');
  // Ids are UUIDs: a longer one is none of ours (and would go on as a Temporal schedule id).
  if (given.length > 200) throw new AppError('validation', 'workflowId must be at most 200 characters');
  return given;
}

/** A schedule as /api/schedules shows it. */
function scheduleView(s: runnerSchedules.ScheduleView) {
  return {
    id: s.id,
    workflowId: s.workflowId,
    blockId: s.blockId,
    cronExpression: s.cronExpression,
    timezone: s.timezone,
    nextRunAt: s.nextRunAt,
    lastRunAt: s.lastRunAt ?? null,
    status: s.status,
    scheduleType: s.scheduleType,
    deploymentVersion: s.deploymentVersion,
  };
}

/**
 * A workflow's schedules: the first one's fields at the top level under the workflow's id (what a
 * workflow with one schedule always answered), every one in `schedules`; `{schedules: []}` for a
 * workflow with none (a state, not a failure: the deploy dialog asks for every deployed workflow).
 */
function workflowSchedules(workflowId: string, out: runnerSchedules.ScheduleResponse) {
  if (!out.schedule) return { schedules: [] };
  return { ...scheduleView(out.schedule), id: workflowId, schedules: out.schedules.map(scheduleView) };
}

/**
 * A schedule id of the API: `<workflowId>:<blockId>` names one schedule, a workflow id all of its
 * schedules. An empty workflow or block id (`wf:`, `:b`) names neither: a validation error naming the
 * id (an empty block id would reach the runner as none and pause every schedule of the workflow).
 */
export function scheduleRef(id: string): { workflowId: string; blockId?: string } {
  const at = id.indexOf(':');
  const ref = at < 0 ? { workflowId: id } : { workflowId: id.slice(0, at), blockId: id.slice(at + 1) };
  if (ref.workflowId === '' || ref.blockId === '') throw new AppError('validation', `${JSON.stringify(id)} is not a schedule id: it is <workflowId> or <workflowId>:<blockId>`);
  return ref;
}

/**
 * Schedules of deployed workflows (one per schedule trigger: the starter in schedule mode, each
 * schedule block; `<workflowId>:<blockId>` is a schedule's id, the workflow's id all of its
 * schedules): GET /api/schedules?workflowId=, POST /api/schedules/{id}/pause and /resume, and the
 * schedule call of spec 000 §7 (POST /api/schedules, also at /api/schedules/schedule, with
 * workflowId and a state): the schedules are made to follow the workflow's active deployment, so for
 * a deleted (or undeployed) workflow they are cancelled. The deployment decides what is scheduled,
 * never the state sent.
 */
export function scheduleRoutes(clients: Clients, auth: Authenticator, access: AccessChecker): Router {
  const r = Router();

  r.get('/schedules', async (req, res) => {
    const actor = await requireActor(auth, req);
    const workflowId = workflowIdOf(stringQuery(req));
    await access.require(actor, workflowId, 'read');
    res.json(workflowSchedules(workflowId, await clients.schedules.getSchedule({ workflowId })));
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
    res.json({ success: true, cancelled: out.schedule === undefined, schedule: out.schedule ? scheduleView(out.schedule) : null, schedules: out.schedules.map(scheduleView) });
  };
  r.post('/schedules', cancel);
  r.post('/schedules/schedule', cancel);

  const pauseOrResume = (call: 'pauseSchedule' | 'resumeSchedule') => async (req: Request<{ id: string }>, res: Response) => {
    const actor = await requireActor(auth, req);
    const { workflowId, blockId } = scheduleRef(req.params.id);
    await access.require(actor, workflowId, 'write');
    const out = await clients.schedules[call](blockId === undefined ? { workflowId } : { workflowId, blockId });
    if (blockId === undefined) {
      // Nothing to pause or resume is a missing schedule, not an empty success.
      if (!out.schedule) throw new AppError('not_found', `Workflow ${workflowId} has no schedule`);
      res.json(workflowSchedules(workflowId, out));
      return;
    }
    if (!out.schedule) throw new AppError('not_found', `Schedule ${req.params.id} not found`);
    res.json(scheduleView(out.schedule));
  };
  r.post('/schedules/:id/pause', pauseOrResume('pauseSchedule'));
  r.post('/schedules/:id/resume', pauseOrResume('resumeSchedule'));

  return r;
}
