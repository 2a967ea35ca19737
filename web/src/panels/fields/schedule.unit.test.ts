import { describe, expect, it } from 'vitest';
import { scheduleCron } from './schedule';

describe('schedule fields', () => {
  it('become a cron expression by frequency', () => {
    expect(scheduleCron({})).toEqual({ cron: '0 9 * * *' });
    expect(scheduleCron({ scheduleType: 'minutes', minutesInterval: '10' })).toEqual({ cron: '*/10 * * * *' });
    expect(scheduleCron({ scheduleType: 'hourly', hourlyMinute: 30 })).toEqual({ cron: '30 * * * *' });
    expect(scheduleCron({ scheduleType: 'weekly', weeklyDay: 'FRI', weeklyDayTime: '17:45' })).toEqual({ cron: '45 17 * * FRI' });
    expect(scheduleCron({ scheduleType: 'monthly', monthlyDay: '15', monthlyTime: '08:05' })).toEqual({ cron: '5 8 15 * *' });
    expect(scheduleCron({ scheduleType: 'custom', cronExpression: '0 0 * * 0' })).toEqual({ cron: '0 0 * * 0' });
  });
  it('say what is wrong', () => {
    expect(scheduleCron({ scheduleType: 'minutes', minutesInterval: '0' })).toEqual({ error: 'Run every 1 to 59 minutes' });
    expect(scheduleCron({ scheduleType: 'daily', dailyTime: '25:00' })).toEqual({ error: 'Time of day is HH:MM' });
    expect(scheduleCron({ scheduleType: 'custom' })).toEqual({ error: 'Enter a cron expression' });
  });
});
