/** The cron expression a schedule's fields stand for (frequencies of spec 000 §9), or why there is none. */
export function scheduleCron(values: Record<string, unknown>): { cron: string } | { error: string } {
  const text = (id: string, fallback = '') => {
    const v = values[id];
    return v === null || v === undefined || v === '' ? fallback : String(v);
  };
  const time = (id: string) => {
    const m = /^(\d{1,2}):(\d{2})$/.exec(text(id, '09:00'));
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return null;
    return { h: Number(m[1]), m: Number(m[2]) };
  };
  switch (text('scheduleType', 'daily')) {
    case 'minutes': {
      const n = Number(text('minutesInterval', '15'));
      if (!Number.isInteger(n) || n < 1 || n > 59) return { error: 'Run every 1 to 59 minutes' };
      return { cron: `*/${n} * * * *` };
    }
    case 'hourly': {
      const m = Number(text('hourlyMinute', '0'));
      if (!Number.isInteger(m) || m < 0 || m > 59) return { error: 'Minute of the hour is 0 to 59' };
      return { cron: `${m} * * * *` };
    }
    case 'daily': {
      const t = time('dailyTime');
      return t ? { cron: `${t.m} ${t.h} * * *` } : { error: 'Time of day is HH:MM' };
    }
    case 'weekly': {
      const t = time('weeklyDayTime');
      return t ? { cron: `${t.m} ${t.h} * * ${text('weeklyDay', 'MON')}` } : { error: 'Time of day is HH:MM' };
    }
    case 'monthly': {
      const t = time('monthlyTime');
      const d = Number(text('monthlyDay', '1'));
      if (!Number.isInteger(d) || d < 1 || d > 31) return { error: 'Day of the month is 1 to 31' };
      return t ? { cron: `${t.m} ${t.h} ${d} * *` } : { error: 'Time of day is HH:MM' };
    }
    case 'custom': {
      const cron = text('cronExpression');
      return cron ? { cron } : { error: 'Enter a cron expression' };
    }
    default:
      return { error: 'Choose a frequency' };
  }
}

/** The next `count` times a cron expression fires in `timezone`, as the user reads them (cron-parser loads on demand). */
export async function nextRunTimes(cron: string, timezone: string, count = 3): Promise<string[]> {
  const { CronExpressionParser } = await import('cron-parser');
  const it = CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date() });
  return Array.from({ length: count }, () => it.next().toDate().toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' }));
}
