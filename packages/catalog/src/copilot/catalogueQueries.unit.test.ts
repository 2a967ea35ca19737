import { describe, expect, it } from 'vitest';
import { getAllBlocks, getBlocksAndTools, getBlocksMetadata } from './catalogueQueries.js';

describe('copilot catalogue queries', () => {
  it('maps each block to the tools it can call', () => {
    const map = getBlocksAndTools();
    expect(Object.keys(map)).toHaveLength(64);
    expect(map.slack).toEqual(['slack_message', 'slack_canvas', 'slack_message_reader']);
    expect(map.condition).toEqual([]);
  });

  it('gives metadata of the named blocks and leaves unknown ids out', () => {
    const data = getBlocksMetadata(['slack', 'nope']);
    expect(Object.keys(data)).toEqual(['slack']);
    expect(data.slack?.tools.map((t) => t.id)).toEqual(['slack_message', 'slack_canvas', 'slack_message_reader']);
    expect(data.slack?.outputs).toHaveProperty('ts', 'string');
    expect(data.slack?.subBlocks.some((s) => s.id === 'operation')).toBe(true);
  });

  it('lists all blocks, filtered by category, with or without details', () => {
    const triggers = getAllBlocks({ filterCategory: 'triggers' });
    expect(triggers.map((b) => b.id).sort()).toEqual(['schedule', 'webhook']);
    expect(triggers[0]).not.toHaveProperty('subBlocks');
    const detailed = getAllBlocks({ includeDetails: true, filterCategory: 'blocks' });
    expect(detailed.every((b) => 'subBlocks' in b && b.category === 'blocks')).toBe(true);
    expect(getAllBlocks()).toHaveLength(64);
  });
});
