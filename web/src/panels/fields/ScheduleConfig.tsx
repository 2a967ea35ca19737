import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MIN_SCHEDULE_INTERVAL_SECONDS, type SubBlockConfig } from '@weft/catalog';
import { api } from '../../api';
import { schedulesKey } from '../../deploy/ScheduleState';
import { blockValues } from '../blockForm';
import { useFormEnv } from './FormContext';
import { fireTimesText, liveScheduleState, nextFireTimes, schedulePlan } from './schedule';

/**
 * The schedule's status: what its fields make as the server will create it (its cron expression or
 * interval, as GET /api/schedules shows it) and its next runs in its timezone, or the problem the
 * deploy would name (fields by frequency are the block's own). When the deployed workflow schedules
 * the block and its schedule is paused (Pause in the deploy dialog), it says Paused and lists no runs;
 * it reads the deploy dialog's query, so Pause / Resume there shows here at once.
 */
export function ScheduleConfigField({ label }: { field: SubBlockConfig; label: string }) {
  const env = useFormEnv();
  const block = env.state.blocks[env.blockId];
  const values = block ? blockValues(block) : {};
  const plan = schedulePlan(values);
  const schedule = 'schedule' in plan ? plan.schedule : null;
  // `{schedules: []}` for a workflow not deployed; a failure leaves the status as the fields make it.
  const deployed = useQuery({ queryKey: schedulesKey(env.workflowId), queryFn: () => api.schedules(env.workflowId), enabled: env.workflowId !== '', retry: false });
  const liveState = liveScheduleState(deployed.data, env.blockId);
  // One key for what the runs depend on: recomputed only when the schedule itself changes.
  const key = schedule ? JSON.stringify(schedule) : null;
  const [runs, setRuns] = useState<{ key: string; dates: string[]; error?: string } | null>(null);
  useEffect(() => {
    if (!schedule || !key) return;
    let live = true;
    nextFireTimes(schedule, new Date()).then(
      (dates) => live && setRuns({ key, dates: fireTimesText(dates, schedule) }),
      (e: unknown) => live && setRuns({ key, dates: [], error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  const paused = liveState === 'paused';
  return (
    <div className="field field-schedule" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <div className="schedule-card">
        {liveState && (
          <div className="schedule-live">
            <span className={`pill ${paused ? 'pill-warn' : 'pill-live'}`}>{paused ? 'Paused' : 'Active'}</span>{' '}
            <span className="muted">{paused ? 'No runs until resumed in the deploy dialog' : 'Deployed and running'}</span>
          </div>
        )}
        {schedule ? (
          <>
            <div>
              <code>{schedule.cronExpression}</code> <span className="muted">({schedule.timezone})</span>
            </div>
            {runs?.key === key && runs.error && <span className="field-error">Not a valid cron expression: {runs.error}</span>}
            {!paused && runs?.key === key && runs.dates.length > 0 && (
              <ol className="next-runs" aria-label="Next runs">
                {runs.dates.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ol>
            )}
          </>
        ) : (
          <span className="field-error">{'error' in plan ? plan.error : ''}</span>
        )}
        {values.scheduleType === 'minutes' && <span className="field-hint">Run Every takes minutes (15) or seconds with an s (10s), at least {MIN_SCHEDULE_INTERVAL_SECONDS} seconds.</span>}
      </div>
    </div>
  );
}
