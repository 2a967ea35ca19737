import { describe, expect, it } from 'vitest';
import { cronExpressions, temporalSpec } from './schedules.js';

describe('a custom cron on Temporal', () => {
  it("keeps a cron with at most one restricted day field as it is (Temporal's matching is cron's there)", () => {
    for (const cron of ['*/20 9-10 * * MON-FRI', '0 9 1,15 * *', '30 17 * 1-6 3,7', '0 0 */2 * 1', '0 0 1 * */2', '5 4 * * *']) expect(cronExpressions(cron)).toEqual([cron]);
  });

  it('splits one restricting both the day of month and the day of week into one cron per day field: cron runs on a day matching either', () => {
    expect(cronExpressions('0 9 1,15 * FRI')).toEqual(['0 9 1,15 * *', '0 9 * * FRI']);
    expect(cronExpressions(' 30 4 1-7 6 0 ')).toEqual(['30 4 1-7 6 *', '30 4 * 6 0']);
    expect(temporalSpec({ scheduleType: 'custom', cronExpression: '0 9 13 * 5', timezone: 'Europe/Paris' })).toEqual({ cronExpressions: ['0 9 13 * *', '0 9 * * 5'], timezone: 'Europe/Paris' });
  });
});
