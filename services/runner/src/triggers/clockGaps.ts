import type { CalendarSpec } from '@temporalio/client';

const MINUTE = 60_000;
const DAY = 86_400_000;
const MONTHS = ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER'] as const;

/** A spring-forward change of a timezone: the local times [startMinute, startMinute + lengthMinutes) of `date` do not exist. */
export interface ClockGap {
  /** The first instant (ms) on the new offset. */
  at: number;
  /** The local date of the gap. */
  date: { year: number; month: number; day: number; weekday: number };
  /** Local minute of the day the clocks jump from (120 for 02:00). */
  startMinute: number;
  lengthMinutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timezone` from UTC at `at` (ms, east positive), with one formatter per timezone. */
function offsetMs(timezone: string, at: number): number {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(timezone, format);
  }
  const parts = format.formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(at / 1000) * 1000;
}

/** Clock changes are months apart: a week's step finds each, then halving finds its minute. */
const STEP = 7 * DAY;

/** The spring-forward changes of `timezone` between `from` and `until` (ms), found week by week and then to the minute. */
export function clockGaps(timezone: string, from: number, until: number): ClockGap[] {
  const gaps: ClockGap[] = [];
  let prev = from;
  let prevOffset = offsetMs(timezone, prev);
  for (let t = from + STEP; t <= until + STEP; t += STEP) {
    const offset = offsetMs(timezone, t);
    if (offset > prevOffset) {
      // The change lies in (prev, t]: halve to the minute.
      let [lo, hi] = [prev, t];
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
        if (offsetMs(timezone, mid) > prevOffset) hi = mid;
        else lo = mid;
      }
      const local = new Date(hi + prevOffset);
      gaps.push({
        at: hi,
        date: { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), weekday: local.getUTCDay() },
        startMinute: local.getUTCHours() * 60 + local.getUTCMinutes(),
        lengthMinutes: Math.round((offset - prevOffset) / MINUTE),
      });
    }
    prev = t;
    prevOffset = offset;
  }
  return gaps.filter((g) => g.at >= from && g.at <= until);
}

const plain = (field: string | undefined, max: number): number | undefined => (field !== undefined && /^\d{1,2}$/.test(field) && Number(field) <= max ? Number(field) : undefined);

/** The calendars of the times of day `at` (local minutes) that `gaps` swallow on a day `day` accepts, at the time cron runs them. */
function shifted(gaps: ClockGap[], timezone: string, at: number, start: number, day: (g: ClockGap) => boolean): CalendarSpec[] {
  return gaps.flatMap((g) => {
    if (!day(g) || at < g.startMinute || at >= g.startMinute + g.lengthMinutes) return [];
    const instant = g.at + (at - g.startMinute) * MINUTE;
    if (instant <= start) return [];
    const fire = new Date(instant + offsetMs(timezone, instant));
    return [{ year: fire.getUTCFullYear(), month: MONTHS[fire.getUTCMonth()] ?? 'JANUARY', dayOfMonth: fire.getUTCDate(), hour: fire.getUTCHours(), minute: fire.getUTCMinutes(), second: 0 }];
  });
}

const yearsAfter = (now: Date, years: number) => now.getTime() + years * 365.25 * DAY;

/**
 * The runs a cron with one time of day (`<m> <h> <day of month|*> * <day of week|*>`: daily, weekly,
 * monthly, or a custom cron of that form) would lose to the spring clock change in `timezone` over the
 * `years` after `now`: Temporal fires no calendar time that does not exist, where cron runs it shifted
 * by the gap (02:30 on the change night in Paris runs at 03:30), as the form's next runs show. Each is
 * a calendar for that date at the shifted local time; a deploy or the runner's start writes them again.
 */
export function gapCalendars(cron: string, timezone: string, now: Date, years = 10): CalendarSpec[] {
  const [minuteField, hourField, domField, monthField, dowField, ...rest] = cron.trim().split(/\s+/);
  const minute = plain(minuteField, 59);
  const hour = plain(hourField, 23);
  const dom = domField === '*' ? undefined : plain(domField, 31);
  const dow = dowField === '*' ? undefined : plain(dowField, 7);
  if (rest.length > 0 || minute === undefined || hour === undefined || monthField !== '*') return [];
  if ((domField !== '*' && dom === undefined) || (dowField !== '*' && dow === undefined)) return [];
  const day = (g: ClockGap) => {
    const domMatch = dom === g.date.day;
    const dowMatch = dow !== undefined && dow % 7 === g.date.weekday;
    // Cron's day rule: with both day fields restricted, a day matching either.
    return dom === undefined && dow === undefined ? true : dom === undefined ? dowMatch : dow === undefined ? domMatch : domMatch || dowMatch;
  };
  return shifted(clockGaps(timezone, now.getTime(), yearsAfter(now, years)), timezone, hour * 60 + minute, now.getTime(), day);
}

/**
 * The same for the local times of a minutes schedule (every day): a time the clocks skip runs shifted
 * by the gap, as cron would run it; one that lands on another of its times fires once (Temporal fires
 * the union of its specs' times).
 */
export function gapCalendarsOfTimes(times: ReadonlyArray<{ hour: readonly number[]; minute: number }>, timezone: string, now: Date, years = 10): CalendarSpec[] {
  const gaps = clockGaps(timezone, now.getTime(), yearsAfter(now, years));
  if (gaps.length === 0) return [];
  return times.flatMap(({ hour, minute }) => hour.flatMap((h) => shifted(gaps, timezone, h * 60 + minute, now.getTime(), () => true)));
}
