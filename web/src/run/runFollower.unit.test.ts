import { describe, expect, it } from 'vitest';
import { runFollower, type RunSource } from './runFollower';
import type { RunView } from './runState';

type Stored = Awaited<ReturnType<RunSource['execution']>>;

/** A promise the test settles when it likes. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const sse = (events: Array<[string, unknown]>) => events.map(([event, data], i) => `id: ${i + 1}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');

/** A source whose stored executions answer when the test says, and whose streams are recorded: each answers `answer(url)`. */
function source(answer: (url: string, init: RequestInit) => Response) {
  const executions = new Map<string, ReturnType<typeof deferred<Stored>>>();
  const fetched: Array<{ url: string; signal: AbortSignal }> = [];
  const src: RunSource = {
    execution: (id) => {
      const d = deferred<Stored>();
      executions.set(id, d);
      return d.promise;
    },
    fetch: (url, init) => {
      fetched.push({ url, signal: init.signal as AbortSignal });
      return Promise.resolve(answer(url, init));
    },
  };
  /** Waits until the stored execution `id` is asked for. */
  const asked = async (id: string) => expect.poll(() => executions.has(id)).toBe(true);
  /** Answers the stored execution `id` once it was asked for. */
  const stored = async (id: string, execution: Stored) => {
    await asked(id);
    executions.get(id)?.resolve(execution);
  };
  return { src, fetched, asked, stored };
}

/** A stream that stays open until its request is aborted. */
const endless = (init: RequestInit) =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(sse([['execution:started', { executionId: 'new' }]])));
        init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

const running = (id: string): Stored => ({ executionId: id, status: 'running', logs: [{ blockId: 'slow', blockName: 'Slow', blockType: 'function', success: true, output: { a: 1 } }] });

describe('the run the console shows', () => {
  it('a run opened from the history that is stopped while its stored execution loads (the console left) opens no stream', async () => {
    const { src, fetched, stored } = source(() => new Response(''));
    const shown: Array<RunView | null> = [];
    const runs = runFollower((r) => shown.push(r), src);
    const opening = runs.open('old');
    runs.stop();
    await stored('old', running('old'));
    await opening;
    expect(fetched).toEqual([]);
    expect(shown).toEqual([]);
  });

  it('a run started while an opened one still loads keeps its stream and the console; the late answer changes nothing', async () => {
    const { src, fetched, stored } = source((_url, init) => endless(init));
    const shown: Array<RunView | null> = [];
    const runs = runFollower((r) => shown.push(r), src);
    const opening = runs.open('old');
    void runs.stream('/workflows/w/execute', {});
    await expect.poll(() => shown.at(-1)?.executionId).toBe('new');
    await stored('old', running('old'));
    await opening;
    expect(fetched.map((f) => [f.url, f.signal.aborted])).toEqual([['/api/workflows/w/execute', false]]);
    expect(shown.some((r) => r?.executionId === 'old')).toBe(false);
    expect(shown.at(-1)).toMatchObject({ executionId: 'new', status: 'running' });
    runs.stop();
  });

  it('of two runs opened one after the other, only the second is shown, whichever loads first', async () => {
    const { src, stored } = source(() => new Response(''));
    const shown: Array<RunView | null> = [];
    const runs = runFollower((r) => shown.push(r), src);
    const first = runs.open('first');
    const second = runs.open('second');
    await stored('second', { executionId: 'second', status: 'succeeded' });
    await stored('first', { executionId: 'first', status: 'succeeded' });
    await Promise.all([first, second]);
    expect(shown.map((r) => r?.executionId)).toEqual(['second']);
  });

  it('a stream that ends early is followed by the stored execution, unless another run took the console meanwhile', async () => {
    const { src, asked, stored } = source((url) => (url.endsWith('/execute') ? new Response(sse([['execution:started', { executionId: 'early' }]])) : new Response('')));
    const shown: Array<RunView | null> = [];
    const runs = runFollower((r) => shown.push(r), src);
    const ending = runs.stream('/workflows/w/execute', {});
    await asked('early');
    expect(shown.at(-1)).toMatchObject({ executionId: 'early', status: 'running' });
    const opening = runs.open('other');
    await stored('early', { executionId: 'early', status: 'succeeded' });
    await stored('other', { executionId: 'other', status: 'failed', error: 'boom' });
    await Promise.all([ending, opening]);
    expect(shown.at(-1)).toMatchObject({ executionId: 'other', status: 'failed' });
    expect(shown.some((r) => r?.executionId === 'early' && r.status === 'succeeded')).toBe(false);
  });

  it('a running run from the history whose stream is refused keeps its stored log, with the error', async () => {
    const { src, stored } = source(() => new Response(JSON.stringify({ error: 'the stream is gone' }), { status: 503, headers: { 'content-type': 'application/json' } }));
    const shown: Array<RunView | null> = [];
    const runs = runFollower((r) => shown.push(r), src);
    const opening = runs.open('old');
    await stored('old', running('old'));
    await opening;
    const last = shown.at(-1);
    expect(last).toMatchObject({ executionId: 'old', status: 'failed', error: 'the stream is gone' });
    expect(last?.entries.map((e) => e.blockId)).toEqual(['slow']);
  });
});
