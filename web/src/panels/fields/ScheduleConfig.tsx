import { useEffect, useState } from 'react';
import type { SubBlockConfig } from '@weft/catalog';
import { blockValues } from '../blockForm';
import { useFormEnv } from './FormContext';
import { nextRunTimes, scheduleCron } from './schedule';

/** The schedule's status: its cron expression and its next runs in its timezone (fields by frequency are the block's own). */
export function ScheduleConfigField({ label }: { field: SubBlockConfig; label: string }) {
  const env = useFormEnv();
  const block = env.state.blocks[env.blockId];
  const values = block ? blockValues(block) : {};
  const timezone = typeof values.timezone === 'string' && values.timezone ? values.timezone : 'UTC';
  const result = scheduleCron(values);
  const cron = 'cron' in result ? result.cron : null;
  const [runs, setRuns] = useState<{ cron: string; dates: string[]; error?: string } | null>(null);
  useEffect(() => {
    if (!cron) return;
    let live = true;
    nextRunTimes(cron, timezone).then(
      (dates) => live && setRuns({ cron, dates }),
      (e: unknown) => live && setRuns({ cron, dates: [], error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [cron, timezone]);
  return (
    <div className="field field-schedule" role="group" aria-label={label}>
      <span className="field-label">{label}</span>
      <div className="schedule-card">
        {cron ? (
          <>
            <div>
              <code>{cron}</code> <span className="muted">({timezone})</span>
            </div>
            {runs?.cron === cron && runs.error && <span className="field-error">Not a valid cron expression: {runs.error}</span>}
            {runs?.cron === cron && runs.dates.length > 0 && (
              <ol className="next-runs" aria-label="Next runs">
                {runs.dates.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ol>
            )}
          </>
        ) : (
          <span className="field-error">{'error' in result ? result.error : ''}</span>
        )}
      </div>
    </div>
  );
}
