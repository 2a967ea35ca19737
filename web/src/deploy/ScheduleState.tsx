import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, type LiveSchedule } from '../api';
import { fireTimeText } from '../panels/fields/schedule';
import { useToast } from '../ui/toast';

/** The query key of the deployed workflow's schedules, as the runner keeps them. */
export const schedulesKey = (workflowId: string) => ['schedules', workflowId] as const;
/** The query key of the workspace's schedules (the schedules page's, `GET /api/schedules?workspaceId=`). */
export const workspaceSchedulesKey = (workspaceId: string) => ['workspaceSchedules', workspaceId] as const;

/**
 * Whether a deployed schedule trigger is running or paused, when it last ran, and a Pause / Resume
 * button (`POST /api/schedules/<workflowId>:<blockId>/pause|resume`). A trigger of the draft that the
 * deployment does not schedule (not deployed with it yet) says so.
 */
export function ScheduleState({ workflowId, blockId, live }: { workflowId: string; blockId: string; live: LiveSchedule | undefined }) {
  const toggle = useSchedulePause(workflowId, blockId);
  if (!live) return <p className="muted">Not scheduled by the deployed version: deploy the draft to schedule it.</p>;
  const paused = live.status === 'paused';
  // A sub-minute schedule (`@every 10s`) tells its runs apart by their seconds.
  const subMinute = Number(/^@every (\d+)s$/.exec(live.cronExpression)?.[1] ?? 60) < 60;
  const last = live.lastRunAt ? `last run ${fireTimeText(new Date(live.lastRunAt), live.timezone, subMinute)}` : 'not run yet';
  return (
    <div className="schedule-state" role="group" aria-label="Schedule state">
      <span className={`pill ${paused ? 'pill-warn' : 'pill-live'}`}>{paused ? 'Paused' : 'Active'}</span>
      <span className="muted">{paused ? 'Takes no action until resumed' : last}</span>
      <button type="button" className="btn btn-sm" disabled={toggle.isPending} onClick={() => toggle.mutate(!paused)}>
        {paused ? 'Resume' : 'Pause'}
      </button>
    </div>
  );
}

/**
 * Pauses (`mutate(true)`) or resumes one schedule of a deployed workflow, the workflow's schedules
 * query and the workspace's (the schedules page's) updated at once and read again, a toast either way;
 * the deploy dialog's and the schedules page's.
 */
export function useSchedulePause(workflowId: string, blockId: string) {
  const toast = useToast();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (paused: boolean) => api.setSchedulePaused(workflowId, blockId, paused),
    onSuccess: (updated) => {
      queries.setQueryData<LiveSchedule[]>(schedulesKey(workflowId), (all) => all?.map((s) => (s.blockId === updated.blockId ? { ...s, ...updated } : s)));
      queries.setQueriesData<LiveSchedule[]>({ queryKey: ['workspaceSchedules'] }, (all) => all?.map((s) => (s.workflowId === workflowId && s.blockId === updated.blockId ? { ...s, ...updated } : s)));
      // The schedule block's status reads the same query: refetched, it shows Paused / its next runs at once.
      void queries.invalidateQueries({ queryKey: schedulesKey(workflowId) });
      void queries.invalidateQueries({ queryKey: ['workspaceSchedules'] });
      toast.success(updated.status === 'paused' ? 'Schedule paused' : 'Schedule resumed');
    },
    onError: (error: Error) => toast.error(`Could not change the schedule: ${error instanceof ApiError ? error.message : String(error)}`),
  });
}
