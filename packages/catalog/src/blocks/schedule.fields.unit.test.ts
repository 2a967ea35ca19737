import { describe, expect, it } from 'vitest';
import { MIN_SCHEDULE_INTERVAL_SECONDS, toTriggerSchedule } from '../triggers/scheduleSpec.js';
import { scheduleSubBlocks } from './schedule.fields.js';

describe('schedule fields', () => {
  it('say Run Every takes seconds too ("10s", the minimum the deploy check holds), which it does', () => {
    const every = scheduleSubBlocks().find((f) => f.id === 'minutesInterval');
    expect(every?.title).toBe('Run Every (minutes)');
    expect(every?.placeholder).toMatch(/\b10s\b/);
    expect(every?.description).toContain(`at least ${MIN_SCHEDULE_INTERVAL_SECONDS} seconds`);
    // What the placeholder shows is taken as it says.
    const made = toTriggerSchedule({ scheduleType: 'minutes', minutesInterval: '10s' }, new Date('2026-03-27T12:00:00Z'));
    expect(made.ok && made.schedule.interval?.everySeconds).toBe(10);
  });
});
