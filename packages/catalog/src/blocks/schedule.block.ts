import type { BlockConfig } from '../types.js';
import { scheduleSubBlocks } from './schedule.fields.js';

/** Schedule trigger: runs the workflow at a frequency or on a cron expression. */
export const scheduleBlock: BlockConfig = {
  type: 'schedule',
  name: 'Schedule',
  description: 'Trigger workflow execution on a schedule',
  longDescription:
    'Configure automated workflow execution with flexible timing: every few minutes, hourly, daily, weekly, monthly or on a custom cron expression, in a chosen timezone.',
  docsLink: 'https://docs.weft.dev/triggers/schedule',
  category: 'triggers',
  bgColor: '#7B68EE',
  icon: 'ScheduleIcon',
  subBlocks: [
    { id: 'scheduleConfig', title: 'Schedule Status', type: 'schedule-config', layout: 'full' },
    ...scheduleSubBlocks(),
  ],
  tools: { access: [] },
  inputs: {},
  outputs: {},
};
