import { describe, expect, it } from 'vitest';
import { clockGaps, gapCalendars, gapCalendarsOfTimes } from './clockGaps.js';
import { temporalSpec } from './schedules.js';

const jan2026 = new Date('2026-01-01T00:00:00Z');

describe('spring clock changes', () => {
  it('finds each change to the minute: where the local clock jumps and by how much', () => {
    const [paris] = clockGaps('Europe/Paris', jan2026.getTime(), Date.parse('2026-12-31T00:00:00Z'));
    expect(paris).toEqual({ at: Date.parse('2026-03-29T01:00:00Z'), date: { year: 2026, month: 3, day: 29, weekday: 0 }, startMinute: 120, lengthMinutes: 60 });
    expect(clockGaps('America/New_York', jan2026.getTime(), Date.parse('2026-12-31T00:00:00Z')).map((g) => [g.date.month, g.date.day, g.startMinute])).toEqual([[3, 8, 120]]);
    // Lord Howe Island moves its clocks by half an hour, in October.
    expect(clockGaps('Australia/Lord_Howe', jan2026.getTime(), Date.parse('2026-12-31T00:00:00Z')).map((g) => [g.date.month, g.date.day, g.startMinute, g.lengthMinutes])).toEqual([[10, 4, 120, 30]]);
    expect(clockGaps('UTC', jan2026.getTime(), Date.parse('2036-01-01T00:00:00Z'))).toEqual([]);
  });

  it('a time of day in the gap gets that night a calendar at the time cron runs it (shifted by the gap), for daily, weekly, monthly and custom crons', () => {
    const daily = gapCalendars('30 2 * * *', 'Europe/Paris', jan2026, 2);
    expect(daily).toEqual([
      { year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 30, second: 0 },
      { year: 2027, month: 'MARCH', dayOfMonth: 28, hour: 3, minute: 30, second: 0 },
    ]);
    // The change nights are Sundays in Europe: a weekly Sunday schedule has them, a Monday one not.
    expect(gapCalendars('30 2 * * 0', 'Europe/Paris', jan2026, 2)).toEqual(daily);
    expect(gapCalendars('30 2 * * 1', 'Europe/Paris', jan2026, 2)).toEqual([]);
    // Monthly on the 29th: 29 March 2026 only.
    expect(gapCalendars('30 2 29 * *', 'Europe/Paris', jan2026, 2)).toEqual([daily[0]]);
    // The first minute of the gap and the last; outside it, nothing.
    expect(gapCalendars('0 2 * * *', 'Europe/Paris', jan2026, 1)).toEqual([{ year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 0, second: 0 }]);
    expect(gapCalendars('59 2 * * *', 'Europe/Paris', jan2026, 1)).toEqual([{ year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 59, second: 0 }]);
    for (const cron of ['0 3 * * *', '59 1 * * *', '*/5 2 * * *', '30 2 * 3 *', '30 2-3 * * *']) expect(gapCalendars(cron, 'Europe/Paris', jan2026, 1)).toEqual([]);
    expect(gapCalendars('15 2 * * *', 'Australia/Lord_Howe', jan2026, 1)).toEqual([{ year: 2026, month: 'OCTOBER', dayOfMonth: 4, hour: 2, minute: 45, second: 0 }]);
    expect(gapCalendars('30 2 * * *', 'America/New_York', jan2026, 1)).toEqual([{ year: 2026, month: 'MARCH', dayOfMonth: 8, hour: 3, minute: 30, second: 0 }]);
    // A change already past is not written again: a year from just after it, only the next one.
    expect(gapCalendars('30 2 * * *', 'Europe/Paris', new Date('2026-03-29T02:00:00Z'), 1)).toEqual([daily[1]]);
  });

  it("a minutes schedule's local times in the gap run shifted by it: every 40 minutes from midnight in Paris gets 03:00 and 03:40 on the change night", () => {
    const times = [{ hour: [0, 2, 4], minute: 0 }, { hour: [0, 2, 4], minute: 40 }, { hour: [1, 3], minute: 20 }];
    expect(gapCalendarsOfTimes(times, 'Europe/Paris', jan2026, 1)).toEqual([
      { year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 0, second: 0 },
      { year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 40, second: 0 },
    ]);
    expect(gapCalendarsOfTimes(times, 'UTC', jan2026, 1)).toEqual([]);
  });

  it("a schedule's Temporal spec carries them beside its cron", () => {
    expect(temporalSpec({ scheduleType: 'daily', cronExpression: '30 2 * * *', timezone: 'Europe/Paris' }, jan2026)).toMatchObject({
      cronExpressions: ['30 2 * * *'],
      timezone: 'Europe/Paris',
      calendars: expect.arrayContaining([{ year: 2026, month: 'MARCH', dayOfMonth: 29, hour: 3, minute: 30, second: 0 }]) as unknown,
    });
    expect(temporalSpec({ scheduleType: 'daily', cronExpression: '30 9 * * *', timezone: 'Europe/Paris' }, jan2026)).toEqual({ cronExpressions: ['30 9 * * *'], timezone: 'Europe/Paris' });
  });
});
