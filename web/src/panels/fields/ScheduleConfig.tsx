import { useEffect, useState } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { blockValues } from '../blockForm';
import { useFormEnv } from './FormContext';
import { fireTimeText, nextFireTimes, schedulePlan } from './schedule';

/**
 * The schedule's status: what its fields make as the server will create it (its cron expression or
 * interval, as GET /api/schedules shows it) and its next runs in its timezone, or the problem the
 * deploy would name (fields by frequency are the block's own).
 */
export function ScheduleConfigField({ label }: { field: SubBlockConfig; label: string }) {
  const env = useFormEnv();
  const block = env.state.blocks[env.blockId];
  const values = block ? blockValues(block) : {};
  const plan = schedulePlan(values);
  const schedule = 'schedule' in plan ? plan.schedule : null;
  // One key for what the runs depend on: recomputed only when the schedule itself changes.
  const key = schedule ? JSON.stringify(schedule) : null;
  const [runs, setRuns] = useState<{ key: string; dates: string[]; error?: string } | null>(null);
  useEffect(() => {
    if (!schedule || !key) return;
    let live = true;
    nextFireTimes(schedule, new Date()).then(
      (dates) => live && setRuns({ key, dates: dates.map((d) => fireTimeText(d, schedule.timezone)) }),
      (e: unknown) => live && setRuns({ key, dates: [], error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return (
    <div className="field field-schedule" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <div className="schedule-card">
        {schedule ? (
          <>
            <div>
              <code>{schedule.cronExpression}</code> <span className="muted">({schedule.timezone})</span>
            </div>
            {runs?.key === key && runs.error && <span className="field-error">Not a valid cron expression: {runs.error}</span>}
            {runs?.key === key && runs.dates.length > 0 && (
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
      </div>
    </div>
  );
}
