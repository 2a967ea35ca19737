import { describe, expect, it } from 'vitest';
import { toTriggerSchedule } from '@weft/catalog';
import type { LiveSchedule, WorkflowSummary } from '../api';
import { frequencyText, scheduleRows, schedulesByWorkflow } from './schedules';

/** The cron the runner keeps for a schedule block's fields, as `toTriggerSchedule` makes it. */
function cronOf(fields: Record<string, unknown>): string {
  const made = toTriggerSchedule(fields, new Date('2026-01-15T12:00:00Z'));
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  return made.schedule.cronExpression;
}

describe('frequencyText', () => {
  it('says each frequency the schedule form offers in words, read from the cron the runner keeps', () => {
    expect(frequencyText(cronOf({ scheduleType: 'minutes', minutesInterval: '10s' }))).toBe('Every 10 seconds');
    expect(frequencyText(cronOf({ scheduleType: 'minutes', minutesInterval: '15' }))).toBe('Every 15 minutes');
    expect(frequencyText(cronOf({ scheduleType: 'minutes', minutesInterval: '1' }))).toBe('Every minute');
    expect(frequencyText(cronOf({ scheduleType: 'hourly', hourlyMinute: '5' }))).toBe('Hourly at :05');
    expect(frequencyText(cronOf({ scheduleType: 'daily', dailyTime: '09:30' }))).toBe('Daily at 09:30');
    expect(frequencyText(cronOf({ scheduleType: 'weekly', weeklyDay: 'FRI', weeklyDayTime: '17:00' }))).toBe('Weekly on Friday at 17:00');
    expect(frequencyText(cronOf({ scheduleType: 'monthly', monthlyDay: '1', monthlyTime: '08:00' }))).toBe('Monthly on day 1 at 08:00');
    expect(frequencyText('@every 7200s')).toBe('Every 2 hours');
  });

  it('calls any other cron custom', () => {
    expect(frequencyText(cronOf({ scheduleType: 'custom', cronExpression: '0 9 1,15 * FRI' }))).toBe('Custom');
    expect(frequencyText('0 9 * 1 *')).toBe('Custom');
    expect(frequencyText('*/5 9-17 * * 1-5')).toBe('Custom');
    expect(frequencyText('nonsense')).toBe('Custom');
  });
});

describe('scheduleRows', () => {
  const workflow = (id: string, name: string, blocks: Record<string, string>): WorkflowSummary => ({
    id,
    name,
    description: '',
    color: '#000',
    folderId: null,
    isDeployed: true,
    state: { blocks: Object.fromEntries(Object.entries(blocks).map(([blockId, blockName]) => [blockId, { id: blockId, name: blockName }])) } as unknown as WorkflowSummary['state'],
  });
  const live = (blockId: string, fields: Partial<LiveSchedule> = {}, workflowId = 'wf'): LiveSchedule => ({
    id: `${workflowId}:${blockId}`,
    workflowId,
    blockId,
    cronExpression: '0 9 * * *',
    timezone: 'Europe/Paris',
    nextRunAt: ['2026-01-16T08:00:00.000Z', '2026-01-17T08:00:00.000Z'],
    lastRunAt: null,
    status: 'active',
    ...fields,
  });

  it("lists every schedule of the workspace by workflow, in the workflows' order, with its block's name, frequency and next run", () => {
    const rows = scheduleRows(
      [workflow('a', 'Reports', { start: 'Start', sched: 'Nightly' }), workflow('b', 'Digest', { s: 'Start' }), workflow('c', 'Loading', {})],
      // The workspace's one list (GET /api/schedules?workspaceId=), in the runner's order; a workflow not listed (yet) is left out.
      schedulesByWorkflow([
        live('gone', {}, 'b'),
        live('start', {}, 'a'),
        live('x', {}, 'unlisted'),
        live('sched', { cronExpression: '@every 10s', status: 'paused', nextRunAt: [], lastRunAt: '2026-01-15T10:00:00.000Z' }, 'a'),
      ]),
    );
    expect(rows.map((r) => [r.workflowName, r.blockName, r.inDraft, r.frequency, r.status, r.nextRun?.toISOString() ?? null, r.lastRun?.toISOString() ?? null, r.subMinute])).toEqual([
      ['Reports', 'Start', true, 'Daily at 09:00', 'active', '2026-01-16T08:00:00.000Z', null, false],
      ['Reports', 'Nightly', true, 'Every 10 seconds', 'paused', null, '2026-01-15T10:00:00.000Z', true],
      // The deployed version schedules a block the draft no longer has: named by its id.
      ['Digest', 'gone', false, 'Daily at 09:00', 'active', '2026-01-16T08:00:00.000Z', null, false],
    ]);
  });

  it('has no next run for a paused schedule even when one is listed, and none for an unreadable time', () => {
    const [paused, garbled] = scheduleRows([workflow('a', 'A', {})], schedulesByWorkflow([live('x', { status: 'paused' }, 'a'), live('y', { nextRunAt: ['not a time'] }, 'a')]));
    expect(paused?.nextRun).toBeNull();
    expect(garbled?.nextRun).toBeNull();
  });
});
