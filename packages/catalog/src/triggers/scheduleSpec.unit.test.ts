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
    // 7 minutes divides neither an hour nor a day: an interval shown as @every, offset from 09:00 New York (UTC-5 in January).
    const ny = ok({ scheduleType: 'minutes', minutesInterval: '7', minutesStartingAt: '09:00', timezone: 'America/New_York' });
    expect(ny.cronExpression).toBe('@every 420s');
    expect(ny.interval).toEqual({ everySeconds: 420, offsetSeconds: (14 * 3600) % 420 });
  });

  it('every N minutes dividing a day but not an hour fires at the same local times every day, across daylight-saving changes', () => {
    // 45 minutes from 09:00 in Paris: 09:00, 09:45, 10:30, 11:15, 12:00… and, the series wrapping
    // around the day, 00:00, 00:45… — four minutes of the hour, each on every third hour.
    const paris = ok({ scheduleType: 'minutes', minutesInterval: '45', minutesStartingAt: '09:00', timezone: 'Europe/Paris' });
    expect(paris).toEqual({
      scheduleType: 'minutes',
      cronExpression: '@every 2700s',
      timezone: 'Europe/Paris',
      localTimes: [
        { minute: 0, hour: [0, 3, 6, 9, 12, 15, 18, 21] },
        { minute: 15, hour: [2, 5, 8, 11, 14, 17, 20, 23] },
        { minute: 30, hour: [1, 4, 7, 10, 13, 16, 19, 22] },
        { minute: 45, hour: [0, 3, 6, 9, 12, 15, 18, 21] },
      ],
    });
    // Deployed in summer or in winter, the same local times: nothing depends on that day's offset.
    expect(toTriggerSchedule({ scheduleType: 'minutes', minutesInterval: '45', minutesStartingAt: '09:00', timezone: 'Europe/Paris' }, new Date('2026-07-01T12:00:00Z'))).toEqual({ ok: true, schedule: paris });
    // 90 minutes from 08:30 New York: 08:30, 10:00, 11:30… every day.
    const ny = ok({ scheduleType: 'minutes', minutesInterval: '90', minutesStartingAt: '08:30', timezone: 'America/New_York' });
    const times = (ny.localTimes ?? []).flatMap(({ hour, minute }) => hour.map((h) => `${String(h).padStart(2, '0')}:${String(minute).padStart(2, '0')}`)).sort();
    expect(times).toHaveLength(16);
    expect(times.slice(0, 8)).toEqual(['01:00', '02:30', '04:00', '05:30', '07:00', '08:30', '10:00', '11:30']);
    // No starting time: from local midnight.
    expect(ok({ scheduleType: 'minutes', minutesInterval: '40', timezone: 'Asia/Tokyo' }).localTimes?.[0]).toEqual({ minute: 0, hour: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22] });
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
