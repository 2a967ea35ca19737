import type { Response } from 'express';

type Call = (...args: unknown[]) => unknown;

/**
 * Holds a 2xx answer, headers and body included, until `before` has settled; other statuses go at
 * once (nothing changed). Every way a handler can answer is held — `writeHead`, `write` and `end`
 * (better-auth writes its head and body before ending; a client reads a complete answer as soon as
 * its bytes arrive, so holding only the end would let it act before `before` has happened).
 */
export function holdSuccessUntil(res: Response, before: () => Promise<unknown>): void {
  const writeHead = res.writeHead.bind(res) as Call;
  const write = res.write.bind(res) as Call;
  const end = res.end.bind(res) as Call;
  const queued: Array<() => void> = [];
  let status: number | undefined;
  const restore = () => {
    res.writeHead = writeHead as Response['writeHead'];
    res.write = write as Response['write'];
    res.end = end as Response['end'];
  };
  res.writeHead = ((...args: unknown[]) => {
    if (typeof args[0] === 'number') status = args[0];
    queued.push(() => writeHead(...args));
    return res;
  }) as Response['writeHead'];
  res.write = ((...args: unknown[]) => {
    queued.push(() => write(...args));
    return true;
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    restore();
    const send = () => {
      for (const run of queued) run();
      end(...args);
    };
    const code = status ?? res.statusCode;
    if (code < 200 || code >= 300) send();
    else
      void before()
        .catch(() => undefined)
        .finally(send);
    return res;
  }) as Response['end'];
}
