import { describe, expect, it } from 'vitest';
import { getBlock, isKnownBlockType, visibleSubBlocks } from './index.js';

describe('catalogue smoke', () => {
  it('knows the starter and reads its default start mode', () => {
    expect(isKnownBlockType('starter')).toBe(true);
    const starter = getBlock('starter');
    if (!starter) throw new Error('starter missing');
    const ids = visibleSubBlocks(starter, {}, 'advanced').map((s) => s.id);
    expect(ids).toEqual(['startWorkflow', 'inputFormat']);
  });
});
