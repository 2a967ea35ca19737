import { describe, expect, it } from 'vitest';
import { cronExpressionError, timezoneOffsetSeconds, toTriggerSchedule } from './scheduleSpec.js';

const now = new Date('2026-01-15T12:00:00Z');

function ok(fields: Parameters<typeof toTriggerSchedule>[0]) {
  const res = toTriggerSchedule(fields, now);
  if (!res.ok) throw new Error(JSON.stringify(res.problems));
  return res.schedule;
}

function problems(fields: Parameters<typeof toTriggerSchedule>[0]) {
  const res = toTriggerSchedule(fields, now);
  if (res.ok) throw new Error('expected problems');
  return res.problems;
}

describe('toTriggerSchedule', () => {
  it('defaults to daily in UTC and needs the time of day', () => {
    expect(problems({})).toEqual([{ field: 'dailyTime', message: 'Time of Day is required' }]);
    expect(ok({ dailyTime: '09:30' })).toEqual({ scheduleType: 'daily', cronExpression: '30 9 * * *', timezone: 'UTC' });
  });

  it('hourly at a minute, 0 when blank', () => {
    expect(ok({ scheduleType: 'hourly', hourlyMinute: '15' }).cronExpression).toBe('15 * * * *');
    expect(ok({ scheduleType: 'hourly' }).cronExpression).toBe('0 * * * *');
    expect(problems({ scheduleType: 'hourly', hourlyMinute: '60' })[0]?.field).toBe('hourlyMinute');
  });

  it('weekly on a day (MON by default) and monthly on a day', () => {
    expect(ok({ scheduleType: 'weekly', weeklyDayTime: '08:05' }).cronExpression).toBe('5 8 * * 1');
    expect(ok({ scheduleType: 'weekly', weeklyDay: 'SUN', weeklyDayTime: '23:59', timezone: 'Asia/Tokyo' })).toEqual({ scheduleType: 'weekly', cronExpression: '59 23 * * 0', timezone: 'Asia/Tokyo' });
    expect(ok({ scheduleType: 'monthly', monthlyDay: '31', monthlyTime: '00:00' }).cronExpression).toBe('0 0 31 * *');
    expect(problems({ scheduleType: 'monthly', monthlyDay: '32', monthlyTime: '00:00' })[0]?.field).toBe('monthlyDay');
    expect(problems({ scheduleType: 'weekly', weeklyDay: 'XYZ', weeklyDayTime: '10:00' })[0]?.field).toBe('weeklyDay');
  });

  it('every N minutes is an interval aligned to the starting time in the timezone', () => {
    expect(ok({ scheduleType: 'minutes', minutesInterval: '15' })).toEqual({ scheduleType: 'minutes', cronExpression: '0/15 * * * *', timezone: 'UTC', interval: { everySeconds: 900, offsetSeconds: 0 } });
    const s = ok({ scheduleType: 'minutes', minutesInterval: '15', minutesStartingAt: '09:05' });
    expect(s.interval).toEqual({ everySeconds: 900, offsetSeconds: 300 });
    expect(s.cronExpression).toBe('5/15 * * * *');
    // 40 minutes does not divide an hour: the interval is shown as @every, offset from 09:00 New York (UTC-5 in January).
    const ny = ok({ scheduleType: 'minutes', minutesInterval: '40', minutesStartingAt: '09:00', timezone: 'America/New_York' });
    expect(ny.cronExpression).toBe('@every 2400s');
    expect(ny.interval).toEqual({ everySeconds: 2400, offsetSeconds: (14 * 3600) % 2400 });
  });

  it('intervals go down to 10 seconds, given as "10s" or a fraction of a minute', () => {
    expect(ok({ scheduleType: 'minutes', minutesInterval: '10s' }).interval).toEqual({ everySeconds: 10, offsetSeconds: 0 });
    expect(ok({ scheduleType: 'minutes', minutesInterval: '0.5' }).interval?.everySeconds).toBe(30);
    expect(problems({ scheduleType: 'minutes', minutesInterval: '5s' })).toEqual([{ field: 'minutesInterval', message: 'Run Every (minutes) must be at least 10 seconds' }]);
    expect(problems({ scheduleType: 'minutes' })[0]?.message).toBe('Run Every (minutes) is required');
    expect(problems({ scheduleType: 'minutes', minutesInterval: 'often' })[0]?.field).toBe('minutesInterval');
  });

  it('custom cron is checked field by field', () => {
    expect(ok({ scheduleType: 'custom', cronExpression: ' */5  9-17 * * MON-FRI ' }).cronExpression).toBe('*/5 9-17 * * MON-FRI');
    expect(problems({ scheduleType: 'custom', cronExpression: '' })[0]?.message).toBe('Cron Expression is required');
    expect(problems({ scheduleType: 'custom', cronExpression: '61 * * * *' })[0]?.message).toBe('Cron expression has an invalid minute field: 61');
    expect(cronExpressionError('* * *')).toMatch(/5 fields/);
    expect(cronExpressionError('0 0 1,15 JAN,JUL *')).toBeUndefined();
  });

  it('refuses an unknown timezone and a bad time', () => {
    const p = problems({ dailyTime: '25:00', timezone: 'Mars/Olympus' });
    expect(p.map((x) => x.field).sort()).toEqual(['dailyTime', 'timezone']);
  });
});

describe('timezoneOffsetSeconds', () => {
  it('follows daylight saving time', () => {
    expect(timezoneOffsetSeconds('UTC', now)).toBe(0);
    expect(timezoneOffsetSeconds('America/New_York', now)).toBe(-5 * 3600);
    expect(timezoneOffsetSeconds('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe(-4 * 3600);
    expect(timezoneOffsetSeconds('Asia/Tokyo', now)).toBe(9 * 3600);
  });
});
