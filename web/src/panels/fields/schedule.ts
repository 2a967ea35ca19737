import { toTriggerSchedule, type TriggerSchedule } from '@weft/catalog';
import type { LiveSchedule } from '../../api';

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

/** A fire time as the user reads it, in the schedule's timezone; with its seconds when asked (a sub-minute schedule). */
export function fireTimeText(at: Date, timezone: string, seconds = false): string {
  return at.toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short' });
}

/**
 * A list of fire times as the user reads them: with seconds when the schedule runs more often than
 * once a minute or any time falls off a whole minute — "4:00 AM" three times told nothing for a
 * 10-second schedule.
 */
export function fireTimesText(times: readonly Date[], schedule: Pick<TriggerSchedule, 'timezone' | 'interval'>): string[] {
  const seconds = (schedule.interval !== undefined && schedule.interval.everySeconds < 60) || times.some((t) => t.getTime() % 60_000 !== 0);
  return times.map((t) => fireTimeText(t, schedule.timezone, seconds));
}

/**
 * Whether the deployed workflow schedules this block, and whether that schedule is paused (Pause in
 * the deploy dialog), from `GET /api/schedules`; undefined while unknown or when the deployment does
 * not schedule it.
 */
export function liveScheduleState(live: readonly LiveSchedule[] | undefined, blockId: string): LiveSchedule['status'] | undefined {
  return live?.find((s) => s.blockId === blockId)?.status;
}
