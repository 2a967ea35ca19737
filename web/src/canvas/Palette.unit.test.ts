import { describe, expect, it } from 'vitest';
import type { BlockDefinition } from '../api';
import { paletteItems, searchItems } from './Palette';

const def = (type: string, name: string, category: 'blocks' | 'tools' | 'triggers', extra: Partial<BlockDefinition> = {}) =>
  ({ type, name, description: `${name} block`, category, bgColor: '#123456', icon: 'AgentIcon', subBlocks: [], tools: { access: [] }, ...extra }) as unknown as BlockDefinition;

describe('the block palette', () => {
  const items = paletteItems([
    def('starter', 'Start', 'blocks'),
    def('agent', 'Agent', 'blocks'),
    def('thinking', 'Thinking', 'tools', { hideFromToolbar: true }),
    def('airtable', 'Airtable', 'tools'),
    def('webhook', 'Webhook', 'triggers'),
  ]);

  it('offers the containers and the catalogue, without the starter and the blocks the catalogue hides', () => {
    expect(items.map((i) => [i.type, i.category])).toEqual([
      ['loop', 'blocks'],
      ['parallel', 'blocks'],
      ['agent', 'blocks'],
      ['airtable', 'tools'],
      ['webhook', 'triggers'],
    ]);
    expect(items.find((i) => i.type === 'agent')).toMatchObject({ color: '#123456', icon: 'AgentIcon' });
  });

  it('searches by name, type and description, ignoring case and spaces around', () => {
    expect(searchItems(items, '  AIR ').map((i) => i.type)).toEqual(['airtable']);
    expect(searchItems(items, 'repeat').map((i) => i.type)).toEqual(['loop']);
    expect(searchItems(items, 'thinking')).toEqual([]);
    expect(searchItems(items, '')).toHaveLength(items.length);
  });
});
