import { describe, expect, it } from 'vitest';
import { getBlock } from '../blocks/registry.js';
import { fieldOfMessage, validateBlockParams, validateWrittenParams } from './registry.js';
import { isAnswerStatus, responseStatusError } from './responseStatus.validate.js';

describe("Response block's Status Code", () => {
  it('is a whole number from 200 to 599; blank is the default 200', () => {
    for (const status of [200, '201', 404, '599', undefined, null, '', '  ']) expect(validateBlockParams('response', { status })).toEqual({ success: true });
  });

  it('refuses an interim 1xx status and anything HTTP cannot answer, naming the field', () => {
    expect(validateBlockParams('response', { status: 150 })).toEqual({ success: false, error: 'Status Code must be a whole number from 200 to 599 (got 150)' });
    expect(responseStatusError('100')).toBe('Status Code must be a whole number from 200 to 599 (got 100)');
    for (const status of [199, 0, -1, 600, 2.5, 'ok', true]) expect(responseStatusError(status)).toMatch(/^Status Code must be a whole number from 200 to 599 \(got /);
    const response = getBlock('response');
    if (!response) throw new Error('no response block');
    expect(fieldOfMessage(response, responseStatusError(150) ?? '', { status: 150 })).toBe('status');
    expect(response.subBlocks.find((s) => s.id === 'status')).toMatchObject({ min: 200, max: 599 });
  });

  it('a reference in it is left to the run (deploy checks)', () => {
    expect(validateWrittenParams('response', { status: '<start.input.code>' })).toEqual({ success: true });
  });

  it('isAnswerStatus: only numbers 200..599 answer a caller', () => {
    expect([200, 599, 199, 600, 250.5, '200'].map(isAnswerStatus)).toEqual([true, true, false, false, false, false]);
  });
});
