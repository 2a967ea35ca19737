import { AppError, type ServiceClient, type ServiceHandlers } from '@weft/platform';
import type { registryTriggers, runnerSchedules } from '@weft/contracts';
import type { RunnableState } from '../workflows/types.js';
import type { ActiveDeployment, ScheduleManager, ScheduleView } from './schedules.js';

function answer(views: ScheduleView[]): runnerSchedules.ScheduleResponse {
  const [first] = views;
  return { ...(first ? { schedule: first } : {}), schedules: views };
}

function required(workflowId: string): string {
  if (!workflowId) throw new AppError('validation', 'workflowId is required');
  return workflowId;
}

/** The runner's ScheduleService: a ref with a block id names one schedule, without one all of the workflow's. */
export function scheduleHandlers(schedules: ScheduleManager): ServiceHandlers<typeof runnerSchedules.ScheduleServiceService> {
  const block = (req: runnerSchedules.ScheduleRef) => req.blockId || undefined;
  return {
    async syncSchedule(req) {
      return answer(await schedules.sync(required(req.workflowId)));
    },
    async getSchedule(req) {
      return answer(await schedules.get(required(req.workflowId), block(req)));
    },
    async listSchedules(req) {
      if (req.workflowIds.some((id) => !id)) throw new AppError('validation', 'workflowIds must not hold an empty id');
      const { schedules: views, next } = await schedules.list(req.workflowIds, req.limit || 100, req.after);
      return { schedules: views, ...(next !== undefined ? { nextAfter: next } : {}) };
    },
    async pauseSchedule(req) {
      return answer(await schedules.pause(required(req.workflowId), block(req)));
    },
    async resumeSchedule(req) {
      return answer(await schedules.resume(required(req.workflowId), block(req)));
    },
  };
}

/** The registry's answer about a workflow's active deployment, with its state parsed for a run. */
export function registryDeployments(client: ServiceClient<typeof registryTriggers.TriggerServiceService>) {
  return async (workflowId: string): Promise<ActiveDeployment | undefined> => {
    const { deployment } = await client.getActiveDeployment({ workflowId });
    if (!deployment) return undefined;
    // The registry froze this state from the editor's; here, at the edge, its JSON becomes the run's shape.
    const state = JSON.parse(deployment.stateJson) as RunnableState;
    return { workflowId: deployment.workflowId, workspaceId: deployment.workspaceId, actorId: deployment.actorId || deployment.ownerId, deploymentVersion: deployment.deploymentVersion, state };
  };
}
