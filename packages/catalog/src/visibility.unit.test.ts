import { describe, expect, it } from 'vitest';
import { getBlock } from './blocks/registry.js';
import type { BlockConfig } from './types.js';
import { visibleSubBlocks } from './visibility.js';

function block(type: string): BlockConfig {
  const b = getBlock(type);
  if (!b) throw new Error(type);
  return b;
}

const ids = (type: string, values: Record<string, unknown>, mode: 'basic' | 'advanced' = 'basic') =>
  visibleSubBlocks(block(type), values, mode).map((s) => s.id);

describe('visibleSubBlocks', () => {
  it('shows fields whose condition value matches, using defaults for unset fields', () => {
    expect(ids('slack', {})).toEqual(['operation', 'authMethod', 'credential', 'channel', 'text']);
    expect(ids('slack', { operation: 'read', authMethod: 'bot_token' })).toEqual(['operation', 'authMethod', 'botToken', 'channel', 'limit', 'oldest']);
  });

  it('swaps selectors for manual ids in advanced mode', () => {
    expect(ids('slack', { operation: 'send' }, 'advanced')).toContain('manualChannel');
    expect(ids('slack', { operation: 'send' }, 'advanced')).not.toContain('channel');
  });

  it("shows the agent's Azure endpoint and API version for Azure models only, a deployment typed as azure/<name> included", () => {
    const azure = ['azureEndpoint', 'azureApiVersion'];
    expect(ids('agent', {})).not.toEqual(expect.arrayContaining(['azureEndpoint']));
    expect(ids('agent', { model: 'claude-sonnet-4-0' })).not.toContain('azureEndpoint');
    expect(ids('agent', { model: 'azure/gpt-4o' })).toEqual(expect.arrayContaining(azure));
    expect(ids('agent', { model: 'Azure/my-deployment' })).toEqual(expect.arrayContaining(azure));
    expect(ids('agent', { model: 'my-azure/x' })).not.toContain('azureApiVersion');
  });

  it('matches any of a list of values', () => {
    expect(ids('supabase', { operation: 'update' })).toEqual(expect.arrayContaining(['data', 'filter']));
    expect(ids('supabase', { operation: 'update' })).not.toContain('orderBy');
  });

  it('applies `and` conditions: time shows only for posts sorted by top', () => {
    expect(ids('reddit', { operation: 'get_posts', sort: 'top' })).toContain('time');
    expect(ids('reddit', { operation: 'get_posts', sort: 'new' })).not.toContain('time');
    expect(ids('reddit', { operation: 'get_comments', sort: 'top' })).not.toContain('time');
  });

  it('applies `not` conditions', () => {
    const b: BlockConfig = {
      ...block('function'),
      subBlocks: [
        { id: 'mode', type: 'dropdown', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], defaultValue: 'a' },
        { id: 'extra', type: 'short-input', condition: { field: 'mode', value: 'a', not: true } },
      ],
    };
    expect(visibleSubBlocks(b, {}, 'basic').map((s) => s.id)).toEqual(['mode']);
    expect(visibleSubBlocks(b, { mode: 'b' }, 'basic').map((s) => s.id)).toEqual(['mode', 'extra']);
  });

  it('shows the image size options of the chosen model only', () => {
    const sizes = (model: string) => visibleSubBlocks(block('image_generator'), { model }, 'basic').filter((s) => s.id === 'size');
    expect(sizes('dall-e-3')).toHaveLength(1);
    expect(sizes('dall-e-3')[0]?.options?.map((o) => o.id)).toContain('1792x1024');
    expect(sizes('gpt-image-1')[0]?.options?.map((o) => o.id)).toContain('auto');
  });

  it('never shows hidden fields', () => {
    expect(ids('thinking', {})).toEqual([]);
    expect(ids('translate', {})).not.toContain('systemPrompt');
  });

  it('starter: schedule fields only in schedule mode, for the chosen frequency', () => {
    expect(ids('starter', {})).toEqual(['startWorkflow']);
    expect(ids('starter', { startWorkflow: 'schedule' })).toEqual(['startWorkflow', 'scheduleType', 'dailyTime', 'timezone', 'scheduleConfig']);
    expect(ids('starter', { startWorkflow: 'schedule', scheduleType: 'weekly' })).toEqual(['startWorkflow', 'scheduleType', 'weeklyDay', 'weeklyDayTime', 'timezone', 'scheduleConfig']);
    expect(ids('starter', { startWorkflow: 'webhook' })).toEqual(['startWorkflow', 'webhookPath', 'webhookSecret', 'webhookResponseMode']);
  });
});
