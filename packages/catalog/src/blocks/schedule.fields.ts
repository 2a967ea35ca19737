import type { SubBlockCondition, SubBlockConfig } from '../types.js';
import { dropdown, options } from './fields.js';

/** Schedule frequencies; daily is the default (§2). */
export const SCHEDULE_TYPES = [
  ['minutes', 'Every X Minutes'],
  ['hourly', 'Hourly'],
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['monthly', 'Monthly'],
  ['custom', 'Custom Cron'],
] as const;

/** Weekdays MON to SUN. */
export const WEEKDAYS = [
  ['MON', 'Monday'], ['TUE', 'Tuesday'], ['WED', 'Wednesday'], ['THU', 'Thursday'],
  ['FRI', 'Friday'], ['SAT', 'Saturday'], ['SUN', 'Sunday'],
] as const;

/** The ten timezones of the schedule form, UTC first and default. */
export const TIMEZONES = [
  ['UTC', 'UTC'],
  ['America/New_York', 'US Eastern (UTC-4)'],
  ['America/Chicago', 'US Central (UTC-5)'],
  ['America/Denver', 'US Mountain (UTC-6)'],
  ['America/Los_Angeles', 'US Pacific (UTC-7)'],
  ['Europe/London', 'London (UTC+1)'],
  ['Europe/Paris', 'Paris (UTC+2)'],
  ['Asia/Singapore', 'Singapore (UTC+8)'],
  ['Asia/Tokyo', 'Tokyo (UTC+9)'],
  ['Australia/Sydney', 'Sydney (UTC+10)'],
] as const;

function both(base: SubBlockCondition | undefined, field: string, value: string): SubBlockCondition {
  return base ? { field: base.field, value: base.value, and: { field, value } } : { field, value };
}

/** The schedule fields shared by the starter and schedule blocks, shown when `base` holds. */
export function scheduleSubBlocks(base?: SubBlockCondition): SubBlockConfig[] {
  const on = (type: string): SubBlockCondition => both(base, 'scheduleType', type);
  const half = { type: 'short-input' as const, layout: 'half' as const };
  const typeField = dropdown('scheduleType', 'Frequency', SCHEDULE_TYPES, { defaultValue: 'daily' });
  if (base) typeField.condition = base;
  return [
    typeField,
    { id: 'minutesInterval', title: 'Run Every (minutes)', ...half, placeholder: '15, or 10s for seconds', description: 'Minutes (15), or seconds with an s (10s): at least 10 seconds', condition: on('minutes') },
    { id: 'minutesStartingAt', title: 'Starting At', ...half, placeholder: '09:00', condition: on('minutes') },
    { id: 'hourlyMinute', title: 'Minute of the Hour', ...half, placeholder: '0', condition: on('hourly') },
    { id: 'dailyTime', title: 'Time of Day', ...half, placeholder: '09:00', condition: on('daily') },
    { id: 'weeklyDay', title: 'Day of Week', type: 'dropdown', layout: 'half', options: options(...WEEKDAYS), defaultValue: 'MON', condition: on('weekly') },
    { id: 'weeklyDayTime', title: 'Time of Day', ...half, placeholder: '09:00', condition: on('weekly') },
    { id: 'monthlyDay', title: 'Day of Month', ...half, placeholder: '1', condition: on('monthly') },
    { id: 'monthlyTime', title: 'Time of Day', ...half, placeholder: '09:00', condition: on('monthly') },
    { id: 'cronExpression', title: 'Cron Expression', type: 'short-input', layout: 'full', placeholder: '0 0 * * *', condition: on('custom') },
    dropdown('timezone', 'Timezone', TIMEZONES, { defaultValue: 'UTC', layout: 'half', ...(base ? { condition: base } : {}) }),
  ];
}
