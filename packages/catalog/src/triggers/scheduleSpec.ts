import { SCHEDULE_TYPES, WEEKDAYS } from '../blocks/schedule.fields.js';
import { text } from '../paramValues.js';

/** The schedule fields of a starter or schedule block (spec 000 §3 Starter block sub-fields). */
export interface ScheduleFields {
  scheduleType?: unknown;
  minutesInterval?: unknown;
  minutesStartingAt?: unknown;
  hourlyMinute?: unknown;
  dailyTime?: unknown;
  weeklyDay?: unknown;
  weeklyDayTime?: unknown;
  monthlyDay?: unknown;
  monthlyTime?: unknown;
  cronExpression?: unknown;
  timezone?: unknown;
}

export type ScheduleType = (typeof SCHEDULE_TYPES)[number][0];

/**
 * A schedule as the runner creates it on Temporal: a 5-field cron expression in `timezone`; for the
 * minutes frequency either the local times of day it fires at (`localTimes`, an interval of whole
 * minutes that divides a day but not an hour) or an interval of whole seconds with a phase
 * `offsetSeconds` (epoch based).
 */
export interface TriggerSchedule {
  scheduleType: ScheduleType;
  /** Cron shown by /api/schedules; for an interval it is `@every <n>s` (or a cron when it is one). */
  cronExpression: string;
  timezone: string;
  interval?: { everySeconds: number; offsetSeconds: number };
  /**
   * The wall-clock times in `timezone` a minutes schedule fires at every day, grouped by minute of
   * the hour (Temporal calendar specs): the starting time and every interval after it, the same local
   * times on each day, whatever the clocks do.
   */
  localTimes?: Array<{ hour: number[]; minute: number }>;
}

/** One field that keeps a schedule from being made. */
export interface ScheduleProblem {
  field: keyof ScheduleFields;
  message: string;
}

/** Shortest interval a schedule may have (Sim's cron ticks once a minute; we go down to this). */
export const MIN_SCHEDULE_INTERVAL_SECONDS = 10;

const DAY_NUMBER: Record<string, number> = { SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6 };

/** "HH:MM" (24 hours) → minutes of the day, or undefined. */
function parseTime(value: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : undefined;
}

/** An interval in seconds from "15" (minutes), "0.5" (minutes) or "10s" / "90s" (seconds). */
function parseInterval(value: string): number | undefined {
  const seconds = /^(\d+)\s*s$/i.exec(value);
  if (seconds) return Number(seconds[1]);
  if (!/^\d+(\.\d+)?$/.test(value)) return undefined;
  return Math.round(Number(value) * 60);
}

const CRON_FIELDS: Array<{ name: string; min: number; max: number; names?: string[] }> = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

function cronValue(part: string, field: (typeof CRON_FIELDS)[number]): boolean {
  const upper = part.toUpperCase();
  if (field.names?.includes(upper)) return true;
  if (!/^\d+$/.test(part)) return false;
  const n = Number(part);
  return n >= field.min && n <= field.max;
}

function cronPart(part: string, field: (typeof CRON_FIELDS)[number]): boolean {
  const [range, step, ...rest] = part.split('/');
  if (rest.length > 0 || range === undefined) return false;
  if (step !== undefined && !(/^\d+$/.test(step) && Number(step) > 0)) return false;
  if (range === '*') return true;
  const bounds = range.split('-');
  if (bounds.length > 2) return false;
  return bounds.every((b) => cronValue(b, field));
}

/** Why a 5-field cron expression is not one, or undefined when it is. */
export function cronExpressionError(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return `Cron expression must have 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  for (const [i, value] of fields.entries()) {
    const field = CRON_FIELDS[i];
    if (field && !value.split(',').every((p) => cronPart(p, field))) return `Cron expression has an invalid ${field.name} field: ${value}`;
  }
  return undefined;
}

/** Offset of `timezone` from UTC in seconds at `at` (positive east of Greenwich). */
export function timezoneOffsetSeconds(timezone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 1000);
}

function validTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The local times of day "every N minutes starting at HH:MM" promises, when they are the same every
 * day: N whole minutes dividing a day (45, 90, 40…) but not an hour. An interval with a fixed phase
 * would keep firing every N minutes of absolute time, so after a daylight-saving change its local
 * times would shift by an hour modulo N (09:00 becoming 08:15 for 45 minutes); calendar times in the
 * timezone stay put (on the night the clocks change, the gap between two fires is an hour shorter or
 * longer, as a daily schedule's is). An interval that divides an hour is phase-safe as it is (the
 * clocks move by a whole hour); one that divides no day has no fixed local times to keep. Undefined
 * for both: they stay intervals. No starting time starts the day at local midnight.
 */
function localTimesOfDay(seconds: number, start: { hour: number; minute: number } | undefined): TriggerSchedule['localTimes'] {
  const DAY = 86_400;
  if (seconds % 60 !== 0 || DAY % seconds !== 0 || 3600 % seconds === 0) return undefined;
  const hoursByMinute = new Map<number, number[]>();
  const first = (start ? start.hour * 3600 + start.minute * 60 : 0) % seconds;
  for (let t = first; t < DAY; t += seconds) {
    const minute = Math.floor((t % 3600) / 60);
    hoursByMinute.set(minute, [...(hoursByMinute.get(minute) ?? []), Math.floor(t / 3600)]);
  }
  return [...hoursByMinute].sort(([a], [b]) => a - b).map(([minute, hour]) => ({ hour, minute }));
}

/**
 * Converts a block's schedule fields into the schedule the runner creates (pure; `now` fixes the
 * timezone offset a minutes schedule's starting time is aligned with). Blank frequency is daily,
 * blank weekday MON, blank timezone UTC, blank hourly minute 0; the rest must be filled.
 */
export function toTriggerSchedule(fields: ScheduleFields, now: Date): { ok: true; schedule: TriggerSchedule } | { ok: false; problems: ScheduleProblem[] } {
  const problems: ScheduleProblem[] = [];
  const typeText = text(fields.scheduleType) || 'daily';
  const type = SCHEDULE_TYPES.find(([id]) => id === typeText)?.[0];
  const timezone = text(fields.timezone) || 'UTC';
  if (!validTimezone(timezone)) problems.push({ field: 'timezone', message: `Unknown timezone: ${timezone}` });
  if (!type) {
    problems.push({ field: 'scheduleType', message: `Unknown schedule frequency: ${typeText}` });
    return { ok: false, problems };
  }
  const time = (field: 'dailyTime' | 'weeklyDayTime' | 'monthlyTime' | 'minutesStartingAt', required: boolean) => {
    const given = text(fields[field]);
    if (given === '') {
      if (required) problems.push({ field, message: 'Time of Day is required' });
      return undefined;
    }
    const parsed = parseTime(given);
    if (!parsed) problems.push({ field, message: `Time must be HH:MM (24 hours), got "${given}"` });
    return parsed;
  };
  let schedule: TriggerSchedule | undefined;
  switch (type) {
    case 'minutes': {
      const given = text(fields.minutesInterval);
      const seconds = parseInterval(given);
      const start = time('minutesStartingAt', false);
      if (given === '') problems.push({ field: 'minutesInterval', message: 'Run Every (minutes) is required' });
      else if (seconds === undefined) problems.push({ field: 'minutesInterval', message: `Run Every (minutes) must be a number of minutes or seconds like "10s", got "${given}"` });
      else if (seconds < MIN_SCHEDULE_INTERVAL_SECONDS) problems.push({ field: 'minutesInterval', message: `Run Every (minutes) must be at least ${MIN_SCHEDULE_INTERVAL_SECONDS} seconds` });
      if (seconds === undefined || seconds < MIN_SCHEDULE_INTERVAL_SECONDS) break;
      const wallClock = localTimesOfDay(seconds, start);
      if (wallClock) {
        schedule = { scheduleType: type, cronExpression: `@every ${seconds}s`, timezone, localTimes: wallClock };
        break;
      }
      const startUtc = start ? start.hour * 3600 + start.minute * 60 - (validTimezone(timezone) ? timezoneOffsetSeconds(timezone, now) : 0) : 0;
      const offsetSeconds = ((startUtc % seconds) + seconds) % seconds;
      const wholeMinutes = seconds % 60 === 0 && 3600 % seconds === 0;
      const cronExpression = wholeMinutes ? `${start ? start.minute % (seconds / 60) : 0}/${seconds / 60} * * * *` : `@every ${seconds}s`;
      schedule = { scheduleType: type, cronExpression, timezone, interval: { everySeconds: seconds, offsetSeconds } };
      break;
    }
    case 'hourly': {
      const given = text(fields.hourlyMinute) || '0';
      const minute = /^\d{1,2}$/.test(given) ? Number(given) : NaN;
      if (!(minute >= 0 && minute <= 59)) problems.push({ field: 'hourlyMinute', message: `Minute of the Hour must be 0 to 59, got "${given}"` });
      else schedule = { scheduleType: type, cronExpression: `${minute} * * * *`, timezone };
      break;
    }
    case 'daily': {
      const at = time('dailyTime', true);
      if (at) schedule = { scheduleType: type, cronExpression: `${at.minute} ${at.hour} * * *`, timezone };
      break;
    }
    case 'weekly': {
      const day = text(fields.weeklyDay).toUpperCase() || 'MON';
      const at = time('weeklyDayTime', true);
      if (!WEEKDAYS.some(([id]) => id === day)) problems.push({ field: 'weeklyDay', message: `Day of Week must be MON to SUN, got "${day}"` });
      else if (at) schedule = { scheduleType: type, cronExpression: `${at.minute} ${at.hour} * * ${DAY_NUMBER[day] ?? 1}`, timezone };
      break;
    }
    case 'monthly': {
      const given = text(fields.monthlyDay);
      const day = /^\d{1,2}$/.test(given) ? Number(given) : NaN;
      const at = time('monthlyTime', true);
      if (given === '') problems.push({ field: 'monthlyDay', message: 'Day of Month is required' });
      else if (!(day >= 1 && day <= 31)) problems.push({ field: 'monthlyDay', message: `Day of Month must be 1 to 31, got "${given}"` });
      else if (at) schedule = { scheduleType: type, cronExpression: `${at.minute} ${at.hour} ${day} * *`, timezone };
      break;
    }
    case 'custom': {
      const expression = text(fields.cronExpression).replace(/\s+/g, ' ');
      const error = expression === '' ? 'Cron Expression is required' : cronExpressionError(expression);
      if (error) problems.push({ field: 'cronExpression', message: error });
      else schedule = { scheduleType: type, cronExpression: expression, timezone };
      break;
    }
    default: {
      const unreachable: never = type;
      throw new Error(`Unknown schedule type ${String(unreachable)}`);
    }
  }
  if (problems.length > 0 || !schedule) return { ok: false, problems };
  return { ok: true, schedule };
}
