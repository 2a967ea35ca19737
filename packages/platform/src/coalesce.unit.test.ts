import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { currentRequestContext, withRequestContext } from './context.js';
import { answerEach, createCallCoalescer, type BatchedCall, type Outcome } from './coalesce.js';

describe('call coalescer', () => {
  it('sends the calls of one turn as one batch and answers each with its own outcome', async () => {
    const batches: Array<Array<BatchedCall<number>>> = [];
    const call = createCallCoalescer<number, string>(async (calls) => {
      batches.push(calls);
      return calls.map(({ request }): Outcome<string> => (request % 2 === 0 ? { ok: `even ${request}` } : { error: { code: 'validation', message: `odd ${request}`, detailsJson: '{"n":1}' } }));
    });
    const answers = await Promise.allSettled([1, 2, 3, 4].map((n) => withRequestContext({ requestId: `r${n}` }, () => call(n))));
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([1, 2, 3, 4].map((n) => ({ request: n, requestId: `r${n}` })));
    expect(answers[1]).toEqual({ status: 'fulfilled', value: 'even 2' });
    const refused = answers[0] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppError);
    expect(refused.reason).toMatchObject({ code: 'validation', message: 'odd 1', details: { n: 1 } });
    // A later turn is a new batch.
    await call(6);
    expect(batches).toHaveLength(2);
  });

  it('fails every call of a batch whose send fails, and splits batches at maxBatch', async () => {
    const sizes: number[] = [];
    const call = createCallCoalescer<number, number>(async (calls) => {
      sizes.push(calls.length);
      if (calls.some((c) => c.request === 99)) throw new AppError('unavailable', 'The service is unavailable');
      return calls.map((c) => ({ ok: c.request }));
    }, 3);
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 99, 7].map((n) => call(n)));
    expect(sizes).toEqual([3, 3, 1]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'unavailable' });
  });

  it('answerEach runs every item in its own request context and turns failures into call errors', async () => {
    const seen: string[] = [];
    const heard: string[] = [];
    const outcomes = await answerEach(
      [
        { request: 1, requestId: 'a' },
        { request: 2, requestId: 'b' },
      ],
      async (n) => {
        seen.push(currentRequestContext()?.requestId ?? '');
        if (n === 2) throw new Error('boom');
        return n * 10;
      },
      (_err, answered) => heard.push(answered.code),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(outcomes).toEqual([{ ok: 10 }, { error: { code: 'internal', message: 'Internal server error', detailsJson: '' } }]);
    expect(heard).toEqual(['internal']);
  });
});
