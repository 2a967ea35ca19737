import { Router, type Request, type Response } from 'express';
import { AppError, toAppError } from '@weft/platform';
import type { runnerSchedules } from '@weft/contracts';
import type { Clients } from '../clients.js';
import { requireActor, type Actor, type Authenticator } from '../auth.js';
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

/** How many schedules a workspace page holds unless `limit` says, and the most it may say. */
export const WORKSPACE_SCHEDULES_LIMIT = 100;
export const WORKSPACE_SCHEDULES_MAX_LIMIT = 500;

/** A workspace page's `limit`: a whole number from 1 to the most, the default when not given. */
function limitOf(given: string | undefined): number {
  if (given === undefined) return WORKSPACE_SCHEDULES_LIMIT;
  const n = /^\d{1,4}$/.test(given) ? Number(given) : NaN;
  if (!(n >= 1 && n <= WORKSPACE_SCHEDULES_MAX_LIMIT)) throw new AppError('validation', `limit must be a whole number from 1 to ${WORKSPACE_SCHEDULES_MAX_LIMIT}`);
  return n;
}

/** The page cursor of the API: the runner's place in its list, base64url (opaque to callers). */
const cursorOf = (after: string) => Buffer.from(after, 'utf8').toString('base64url');
function afterOf(cursor: string | undefined): string {
  if (cursor === undefined) return '';
  if (cursor === '' || cursor.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new AppError('validation', 'cursor is not one this list gave (use nextCursor of the page before)');
  return Buffer.from(cursor, 'base64url').toString('utf8');
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
 * schedules): GET /api/schedules?workflowId= (a workflow's) or ?workspaceId= (a workspace's, paged), POST /api/schedules/{id}/pause and /resume, and the
 * schedule call of spec 000 §7 (POST /api/schedules, also at /api/schedules/schedule, with
 * workflowId and a state): the schedules are made to follow the workflow's active deployment, so for
 * a deleted (or undeployed) workflow they are cancelled. The deployment decides what is scheduled,
 * never the state sent.
 */
export function scheduleRoutes(clients: Clients, auth: Authenticator, access: AccessChecker): Router {
  const r = Router();

  r.get('/schedules', async (req, res) => {
    const actor = await requireActor(auth, req);
    const query = stringQuery(req);
    if (query.workspaceId !== undefined) {
      res.json(await workspaceSchedules(actor, query));
      return;
    }
    const workflowId = workflowIdOf(query);
    await access.require(actor, workflowId, 'read');
    res.json(workflowSchedules(workflowId, await clients.schedules.getSchedule({ workflowId })));
  });

  /**
   * Every schedule of the workspace's workflows, a page at a time (`limit`, `cursor`): the registry
   * lists the workflows the caller may read (refusing a workspace the caller is not a member of, as
   * GET /api/workflows does), the runner their schedules in one call.
   */
  async function workspaceSchedules(actor: Actor, query: Record<string, string>) {
    if (query.workflowId !== undefined) throw new AppError('validation', 'Give workflowId or workspaceId, not both');
    const workspaceId = query.workspaceId ?? '';
    if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
    if (workspaceId.length > 200) throw new AppError('validation', 'workspaceId must be at most 200 characters');
    const limit = limitOf(query.limit);
    const after = afterOf(query.cursor);
    const { workflows } = await clients.registry.listWorkflows({ actor, workspaceId });
    const out = await clients.schedules.listSchedules({ workflowIds: workflows.map((w) => w.id), limit, after });
    return { schedules: out.schedules.map(scheduleView), nextCursor: out.nextAfter !== undefined ? cursorOf(out.nextAfter) : null };
  }

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
