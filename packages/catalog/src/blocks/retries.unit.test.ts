import { describe, expect, it } from 'vitest';
import { validateBlockParams, validateWrittenParams } from '../validation/registry.js';
import { getBlock, listBlocks } from './registry.js';
import { retriesError } from './retries.js';

const retriesOf = (type: string) => getBlock(type)?.subBlocks.find((s) => s.id === 'retries');

describe('the per-block retry setting (issue 10)', () => {
  it('is an advanced-mode whole number 0-5 on every block whose tool or model calls are retried, and on no other', () => {
    for (const type of ['api', 'slack', 'agent', 'router', 'evaluator', 'translate', 'memory', 'knowledge', 'image_generator']) {
      expect(retriesOf(type), type).toMatchObject({ title: 'Retries', type: 'number', min: 0, max: 5, integer: true, mode: 'advanced' });
    }
    for (const type of ['starter', 'condition', 'function', 'response', 'workflow', 'thinking', 'webhook', 'schedule']) expect(retriesOf(type), type).toBeUndefined();
    // Once per block, last in its form.
    for (const b of listBlocks()) {
      const ids = b.subBlocks.map((s) => s.id);
      if (ids.includes('retries')) expect(ids.indexOf('retries'), b.type).toBe(ids.length - 1);
    }
  });

  it('takes 0 to 5 (numbers or their text) and empty; refuses anything else with a message naming the field', () => {
    for (const ok of [0, 5, '3', ' 2 ', '', null, undefined]) expect(retriesError({ retries: ok }), String(ok)).toBeUndefined();
    for (const bad of [6, -1, 1.5, 'three', true, [1]]) expect(retriesError({ retries: bad }), String(bad)).toBe('Retries must be a whole number between 0 and 5');
  });

  it('is checked with the block parameters, after the block\'s own messages; a reference is left to the run', () => {
    expect(validateBlockParams('api', { url: 'https://example.test', retries: 9 })).toEqual({ success: false, error: 'Retries must be a whole number between 0 and 5' });
    expect(validateBlockParams('api', { url: 'https://example.test', retries: 2 })).toEqual({ success: true });
    expect(validateBlockParams('function', { code: 'return 1', retries: 9 })).toEqual({ success: true });
    expect(validateBlockParams('slack', { operation: 'send', text: 'hi', retries: 9 })).toMatchObject({ error: expect.stringContaining('Channel is required') });
    expect(validateWrittenParams('api', { url: 'https://example.test', retries: '<start.input.n>' })).toEqual({ success: true });
  });
});
