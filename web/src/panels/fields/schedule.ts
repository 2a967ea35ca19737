import { toTriggerSchedule, type TriggerSchedule } from '@weft/catalog';

/**
 * What a schedule's fields make, exactly as the server will create it on deploy (the catalogue's
 * `toTriggerSchedule`: minutes intervals of any length or seconds, the starting time, local times that
 * keep across clock changes), or the first problem the deploy check would name.
 */
export function schedulePlan(values: Record<string, unknown>, now = new Date()): { schedule: TriggerSchedule } | { error: string } {
  const made = toTriggerSchedule(values, now);
  return made.ok ? { schedule: made.schedule } : { error: made.problems[0]?.message ?? 'Choose a frequency' };
}

/** The 5-field cron expressions a schedule fires by (none for a fixed interval). */
function cronsOf(schedule: TriggerSchedule): string[] {
  if (schedule.interval) return [];
  if (schedule.localTimes) return schedule.localTimes.map((g) => `${g.minute} ${g.hour.join(',')} * * *`);
  return [schedule.cronExpression];
}

/** The next `count` times a schedule fires after `now`, as Temporal runs it (cron-parser loads on demand). */
export async function nextFireTimes(schedule: TriggerSchedule, now: Date, count = 3): Promise<Date[]> {
  if (schedule.interval) {
    // Temporal's interval: every `everySeconds` from the epoch, shifted by `offsetSeconds`.
    const { everySeconds, offsetSeconds } = schedule.interval;
    const first = Math.floor((now.getTime() / 1000 - offsetSeconds) / everySeconds) + 1;
    return Array.from({ length: count }, (_, i) => new Date(((first + i) * everySeconds + offsetSeconds) * 1000));
  }
  const { CronExpressionParser } = await import('cron-parser');
  const times = cronsOf(schedule).flatMap((cron) => {
    const it = CronExpressionParser.parse(cron, { tz: schedule.timezone, currentDate: now });
    return Array.from({ length: count }, () => it.next().toDate());
  });
  return times.sort((a, b) => a.getTime() - b.getTime()).slice(0, count);
}

/** A fire time as the user reads it, in the schedule's timezone. */
export function fireTimeText(at: Date, timezone: string): string {
  return at.toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' });
}
