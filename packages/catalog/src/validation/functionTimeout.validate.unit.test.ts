import { describe, expect, it } from 'vitest';
import { validateBlockParams } from './registry.js';
import { functionTimeoutError } from './functionTimeout.validate.js';

describe("function block's timeout", () => {
  it('is a whole number of milliseconds from 1 to 300000; blank is the 10 s default', () => {
    for (const timeout of [1, '5000', 300_000, undefined, '']) expect(validateBlockParams('function', { code: 'return 1', timeout })).toEqual({ success: true });
  });

  it('refuses what POST /api/function/execute refuses, in its words', () => {
    expect(validateBlockParams('function', { timeout: 300_001 })).toEqual({ success: false, error: 'timeout must be at most 300000 ms' });
    expect(functionTimeoutError(2.5)).toBe('timeout must be a whole number of milliseconds');
    expect(functionTimeoutError('0')).toBe('timeout must be positive');
    expect(functionTimeoutError(-5)).toBe('timeout must be positive');
    expect(functionTimeoutError('soon')).toBe('timeout must be a number of milliseconds');
    expect(functionTimeoutError(true)).toBe('timeout must be a number of milliseconds');
  });

  it('a reference or {{KEY}} in it is checked once the run resolves it', () => {
    expect(validateBlockParams('function', { timeout: '<start.input.ms>' })).toEqual({ success: true });
    expect(validateBlockParams('function', { timeout: '{{FN_TIMEOUT}}' })).toEqual({ success: true });
  });
});
