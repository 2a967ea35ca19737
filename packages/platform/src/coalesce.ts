import { randomUUID } from 'node:crypto';
import { currentRequestContext, withRequestContext } from './context.js';
import { AppError, isErrorCode, toAppError } from './errors.js';

/** A refusal carried inside an answer (a batch item's error), as a failed gRPC call would carry it. */
export interface CallError {
  code: string;
  message: string;
  detailsJson: string;
}

export function toCallError(err: unknown): CallError {
  const appErr = toAppError(err);
  return { code: appErr.code, message: appErr.message, detailsJson: Object.keys(appErr.details).length > 0 ? JSON.stringify(appErr.details) : '' };
}

export function fromCallError(err: CallError): AppError {
  return new AppError(isErrorCode(err.code) ? err.code : 'internal', err.message, err.detailsJson ? (JSON.parse(err.detailsJson) as Record<string, unknown>) : {});
}

/** One item's answer in a batch: exactly one of `ok` and `error`. */
export interface Outcome<Res> {
  ok?: Res | undefined;
  error?: CallError | undefined;
}

/** An item of a batch with the request id of the call it came from. */
export interface BatchedCall<Req> {
  request: Req;
  requestId: string;
}

/**
 * Sends the calls made during one turn of the event loop as one batch: under load, the calls that
 * arrived together share a round trip; alone, a call waits only for the end of its turn. Each call
 * gets its own item's answer or refusal; a failed batch fails each of its calls.
 */
export function createCallCoalescer<Req, Res>(send: (calls: Array<BatchedCall<Req>>) => Promise<Array<Outcome<Res>>>, maxBatch = 256): (request: Req) => Promise<Res> {
  const pending: Array<BatchedCall<Req> & { resolve(res: Res): void; reject(err: unknown): void }> = [];

  async function flush(): Promise<void> {
    const calls = pending.splice(0, maxBatch);
    if (pending.length > 0) setImmediate(() => void flush());
    try {
      const outcomes = await send(calls.map(({ request, requestId }) => ({ request, requestId })));
      calls.forEach((call, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok !== undefined) call.resolve(outcome.ok);
        else call.reject(outcome?.error ? fromCallError(outcome.error) : new AppError('internal', 'The batch answered without this call'));
      });
    } catch (err) {
      for (const call of calls) call.reject(err);
    }
  }

  return (request) =>
    new Promise<Res>((resolve, reject) => {
      if (pending.length === 0) setImmediate(() => void flush());
      pending.push({ request, requestId: currentRequestContext()?.requestId ?? '', resolve, reject });
    });
}

/**
 * Answers each call of a batch on its own and at once (calls on one workflow still meet in the
 * editor's group commit), each in its own request context: an outcome per call, in order.
 * `onError` hears every failure, as thrown and as answered (to log the unexpected ones).
 */
export async function answerEach<Req, Res>(calls: Array<BatchedCall<Req>>, run: (request: Req) => Promise<Res>, onError?: (err: unknown, answered: AppError) => void): Promise<Array<Outcome<Res>>> {
  return Promise.all(
    calls.map((call) =>
      withRequestContext({ requestId: call.requestId || randomUUID() }, async () => {
        try {
          return { ok: await run(call.request) };
        } catch (err) {
          const appErr = toAppError(err);
          onError?.(err, appErr);
          return { error: toCallError(appErr) };
        }
      }),
    ),
  );
}
