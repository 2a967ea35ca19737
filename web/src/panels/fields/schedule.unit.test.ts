import { describe, expect, it } from 'vitest';
import type { LiveSchedule } from '../../api';
import { fireTimesText, liveScheduleState, nextFireTimes, schedulePlan } from './schedule';

const NOW = new Date('2026-03-27T12:00:00Z');
const plan = (values: Record<string, unknown>) => {
  const made = schedulePlan(values, NOW);
  if (!('schedule' in made)) throw new Error(made.error);
  return made.schedule;
};
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('schedule fields, as the server will create the schedule', () => {
  it('show the cron expression GET /api/schedules shows', () => {
    expect(plan({ dailyTime: '09:00' }).cronExpression).toBe('0 9 * * *');
    expect(plan({ scheduleType: 'minutes', minutesInterval: '10' }).cronExpression).toBe('0/10 * * * *');
    expect(plan({ scheduleType: 'hourly', hourlyMinute: 30 }).cronExpression).toBe('30 * * * *');
    expect(plan({ scheduleType: 'weekly', weeklyDay: 'FRI', weeklyDayTime: '17:45' }).cronExpression).toBe('45 17 * * 5');
    expect(plan({ scheduleType: 'monthly', monthlyDay: '15', monthlyTime: '08:05' }).cronExpression).toBe('5 8 15 * *');
    expect(plan({ scheduleType: 'custom', cronExpression: '0 0 * * 0' }).cronExpression).toBe('0 0 * * 0');
  });

  it('say what the deploy would refuse, naming the field', () => {
    expect(schedulePlan({ scheduleType: 'minutes', minutesInterval: '5s' }, NOW)).toEqual({ error: 'Run Every (minutes) must be at least 10 seconds' });
    expect(schedulePlan({ scheduleType: 'daily', dailyTime: '25:00' }, NOW)).toEqual({ error: 'Time must be HH:MM (24 hours), got "25:00"' });
    expect(schedulePlan({ scheduleType: 'custom' }, NOW)).toEqual({ error: 'Cron Expression is required' });
    // A new schedule block has no time yet: the deploy would refuse it, so the status says so.
    expect(schedulePlan({}, NOW)).toEqual({ error: 'Time of Day is required' });
  });

  it('list the next fires as Temporal runs them: intervals from the epoch, local times, crons in the timezone', async () => {
    // Every 10 seconds: the next three 10-second marks.
    expect(iso(await nextFireTimes(plan({ scheduleType: 'minutes', minutesInterval: '10s' }), NOW))).toEqual(['2026-03-27T12:00:10.000Z', '2026-03-27T12:00:20.000Z', '2026-03-27T12:00:30.000Z']);
    // Every 90 minutes from 08:00 in Paris: the same local times before and after the clock change of 29 March.
    const paris = plan({ scheduleType: 'minutes', minutesInterval: '90', minutesStartingAt: '08:00', timezone: 'Europe/Paris' });
    const localAt = async (from: string) =>
      (await nextFireTimes(paris, new Date(from), 4)).map((d) => d.toLocaleTimeString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }));
    expect(await localAt('2026-03-20T21:00:00Z')).toEqual(['23:00', '00:30', '02:00', '03:30']);
    expect(await localAt('2026-04-02T20:00:00Z')).toEqual(['23:00', '00:30', '02:00', '03:30']);
    // Daily at 09:00 in New York.
    expect(iso(await nextFireTimes(plan({ dailyTime: '09:00', timezone: 'America/New_York' }), NOW, 2))).toEqual(['2026-03-27T13:00:00.000Z', '2026-03-28T13:00:00.000Z']);
  });

  it('read the next runs of a sub-minute schedule with their seconds, each different; whole minutes without', async () => {
    const tenSeconds = plan({ scheduleType: 'minutes', minutesInterval: '10s' });
    const texts = fireTimesText(await nextFireTimes(tenSeconds, NOW), tenSeconds);
    // Three different texts ending in their seconds (the QA pass read "4:00 AM" three times).
    expect(new Set(texts).size).toBe(3);
    expect(texts.map((t) => /\b12:00:(\d\d)\b/.exec(t)?.[1])).toEqual(['10', '20', '30']);
    // A minute's interval falling on :00 is read without seconds, as a daily one is.
    const five = plan({ scheduleType: 'minutes', minutesInterval: '5' });
    for (const t of fireTimesText(await nextFireTimes(five, NOW), five)) expect(t).not.toMatch(/\d:\d\d:\d\d/);
    const daily = plan({ dailyTime: '09:00' });
    expect(fireTimesText([new Date('2026-03-28T09:00:00Z')], daily)[0]).not.toMatch(/\d:\d\d:\d\d/);
    // Every 90 seconds: some runs fall at :30, so all show their seconds.
    const ninety = plan({ scheduleType: 'minutes', minutesInterval: '90s' });
    expect(fireTimesText(await nextFireTimes(ninety, NOW), ninety).every((t) => /\d:\d\d:\d\d/.test(t))).toBe(true);
  });

  it("take the block's paused or active state from the deployed schedules (GET /api/schedules)", () => {
    const live = (blockId: string, status: LiveSchedule['status']): LiveSchedule => ({ id: `wf:${blockId}`, workflowId: 'wf', blockId, cronExpression: '@every 10s', timezone: 'UTC', nextRunAt: [], lastRunAt: null, status });
    const deployed = [live('sched1', 'paused'), live('sched2', 'active')];
    expect(liveScheduleState(deployed, 'sched1')).toBe('paused');
    expect(liveScheduleState(deployed, 'sched2')).toBe('active');
    // Not scheduled by the deployment (a draft's new block), nothing deployed, or not known yet: no state.
    expect(liveScheduleState(deployed, 'sched3')).toBeUndefined();
    expect(liveScheduleState([], 'sched1')).toBeUndefined();
    expect(liveScheduleState(undefined, 'sched1')).toBeUndefined();
  });
});
