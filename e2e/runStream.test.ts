/**
 * A run's Server-Sent Events as the gateway sends them (`sseOf` in gateway/src/routes/executions.ts):
 * a failed block and a failed run, a cancelled run, and a reader that opens the stream while the run
 * is still going (a page reloaded mid-run). Runs are held open by an API block whose server answers
 * only when the test releases it, never by waiting a while.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { api, defaultCookie } from './support/http.js';
import { oneBlock, openStream, workflowWith, type SseEvent } from './support/runStream.js';

interface ExecutionAnswer {
  executionId: string;
  status: string;
}

const isEvent = (event: string, blockId?: string) => (e: SseEvent) => e.event === event && (blockId === undefined || e.data.blockId === blockId);
const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));
const named = (events: SseEvent[]) => events.map((e) => (typeof e.data.blockId === 'string' ? `${e.event} ${e.data.blockId}` : e.event));

/** starter → function "Compute" (`code`) [→ on its error path, function "Handler"]. */
function computing(code: string, handled: boolean) {
  return (starter: string) => [
    ...oneBlock('compute', 'function', 'Compute', { code })(starter),
    ...(handled
      ? [
          { type: 'addBlock', id: 'handler', blockType: 'function', name: 'Handler', position: { x: 700, y: 100 } },
          { type: 'setSubBlockValue', id: 'handler', subBlockId: 'code', value: 'return "handled: " + <compute.error>' },
          { type: 'addEdge', source: 'compute', target: 'handler', sourceHandle: 'error' },
        ]
      : []),
  ];
}

/** starter → function "Before" → API block "Wait" (GET `url`) → function "After" (what Wait answered). */
function heldAt(url: string) {
  return (starter: string) => [
    { type: 'addBlock', id: 'before', blockType: 'function', name: 'Before', position: { x: 400, y: 100 } },
    { type: 'setSubBlockValue', id: 'before', subBlockId: 'code', value: 'return 1' },
    { type: 'addEdge', source: starter, target: 'before' },
    { type: 'addBlock', id: 'wait', blockType: 'api', name: 'Wait', position: { x: 700, y: 100 } },
    { type: 'setSubBlockValue', id: 'wait', subBlockId: 'url', value: url },
    { type: 'setSubBlockValue', id: 'wait', subBlockId: 'method', value: 'GET' },
    { type: 'setSubBlockValue', id: 'wait', subBlockId: 'timeout', value: '120000' },
    { type: 'addEdge', source: 'before', target: 'wait' },
    { type: 'addBlock', id: 'after', blockType: 'function', name: 'After', position: { x: 1000, y: 100 } },
    { type: 'setSubBlockValue', id: 'after', subBlockId: 'code', value: 'return <wait.data.answer>' },
    { type: 'addEdge', source: 'wait', target: 'after' },
  ];
}

describe('a run’s event stream (SSE)', () => {
  let hold: FakeServer;
  /** Releases the held requests of one path. */
  const gates = new Map<string, () => void>();
  /** A path whose request is answered `{answer}` only once `release(path)` is called. */
  function gate(path: string): string {
    const released = new Promise<void>((resolve) => gates.set(path, resolve));
    hold.on('GET', path, async () => {
      await released;
      return { json: { answer: `released ${path}` } };
    });
    return `${hold.url}${path}`;
  }
  const release = (path: string) => gates.get(path)?.();

  beforeAll(async () => {
    hold = await createFakeServer();
  });
  afterAll(async () => {
    for (const open of gates.values()) open();
    await hold?.close();
  });

  it('a failed block sends block:error and the failed run execution:failed; a handled one block:error, then the run goes on', async () => {
    const { id, starter } = await workflowWith(computing('throw new Error("boom")', false));
    const failed = await openStream(`/api/workflows/${id}/execute`, { method: 'POST', body: {} });
    expect(failed.status).toBe(200);
    const events = await failed.rest();
    expect(named(events)).toEqual(['execution:started', `block:started ${starter}`, `block:completed ${starter}`, 'block:started compute', 'block:error compute', 'execution:failed']);
    const blockError = events.find(isEvent('block:error', 'compute'));
    expect(blockError?.data).toMatchObject({ blockName: 'Compute', success: false, error: expect.stringContaining('boom') as string, duration: expect.any(Number) as number });
    const end = events.at(-1);
    const executionId = String(events[0]?.data.executionId);
    expect(end?.data).toMatchObject({ status: 'failed', success: false, error: expect.stringMatching(/^Compute: .*boom/) as string, metadata: { executionId } });
    expect(ids(events)).toEqual([...ids(events)].sort((a, b) => a - b));
    // Read again once the run has ended: the same events.
    const again = await openStream(`/api/executions/${executionId}/stream`);
    expect(await again.rest()).toEqual(events);

    const handled = await workflowWith(computing('throw new Error("boom")', true));
    const goesOn = await (await openStream(`/api/workflows/${handled.id}/execute`, { method: 'POST', body: {} })).rest();
    expect(named(goesOn).slice(-4)).toEqual(['block:error compute', 'block:started handler', 'block:completed handler', 'execution:completed']);
    expect(goesOn.find(isEvent('block:completed', 'handler'))?.data).toMatchObject({ output: { result: expect.stringContaining('handled: ') as string } });
  });

  it('a page that loads the stream mid-run gets the whole run so far, then the rest as it happens; with Last-Event-ID only what came after that event', async () => {
    const path = '/hold-reload';
    const { id, starter } = await workflowWith(heldAt(gate(path)));
    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, {}, { cookie: await defaultCookie(), 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    const { executionId } = started.body;
    const streamPath = `/api/executions/${executionId}/stream`;
    await expect.poll(() => hold.received('GET', path).length).toBe(1);

    // A reload while Wait waits: everything so far, from the run's start.
    const reloaded = await openStream(streamPath);
    expect(reloaded.status).toBe(200);
    await reloaded.until(isEvent('block:started', 'wait'));
    expect(named(reloaded.events)).toEqual(['execution:started', `block:started ${starter}`, `block:completed ${starter}`, 'block:started before', 'block:completed before', 'block:started wait']);
    expect((await api<ExecutionAnswer>('GET', `/api/executions/${executionId}`)).body.status).toBe('running');

    // An EventSource reconnecting after Before completed: only what came after it.
    const beforeDone = reloaded.events.find(isEvent('block:completed', 'before'));
    const resumed = await openStream(streamPath, { headers: { 'last-event-id': beforeDone?.id ?? '' } });
    expect(resumed.status).toBe(200);
    await resumed.until(isEvent('block:started', 'wait'));
    expect(named(resumed.events)).toEqual(['block:started wait']);
    // `?after=` reads from the same place.
    const after = await openStream(`${streamPath}?after=${beforeDone?.id ?? ''}`);
    await after.until(isEvent('block:started', 'wait'));
    expect(named(after.events)).toEqual(['block:started wait']);

    // The run goes on: each reader gets the rest as it happens, up to the run's end.
    release(path);
    const [whole, rest, afterRest] = await Promise.all([reloaded.rest(), resumed.rest(), after.rest()]);
    expect(named(whole).slice(6)).toEqual(['block:completed wait', 'block:started after', 'block:completed after', 'execution:completed']);
    expect(whole.find(isEvent('block:completed', 'after'))?.data).toMatchObject({ output: { result: `released ${path}` } });
    expect(ids(whole)).toEqual([...new Set(ids(whole))].sort((a, b) => a - b));
    const afterBefore = whole.slice(whole.indexOf(beforeDone as SseEvent) + 1);
    expect(ids(rest)).toEqual(ids(afterBefore));
    expect(ids(afterRest)).toEqual(ids(afterBefore));
    // A reader after the end gets the same run.
    expect(ids(await (await openStream(streamPath)).rest())).toEqual(ids(whole));
  });

  it('a run cancelled while a reader follows it ends the stream with execution:cancelled', async () => {
    const path = '/hold-cancel';
    const { id } = await workflowWith(heldAt(gate(path)));
    const stream = await openStream(`/api/workflows/${id}/execute`, { method: 'POST', body: {} });
    expect(stream.status).toBe(200);
    const executionId = String((await stream.until(isEvent('execution:started'))).data.executionId);
    await stream.until(isEvent('block:started', 'wait'));
    await expect.poll(() => hold.received('GET', path).length).toBe(1);
    const cancelled = await api<ExecutionAnswer>('POST', `/api/executions/${executionId}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    const events = await stream.rest();
    expect(events.at(-1)).toMatchObject({ event: 'execution:cancelled', data: { status: 'cancelled', metadata: { executionId } } });
    expect(events.filter(isEvent('execution:cancelled'))).toHaveLength(1);
    expect(events.some(isEvent('block:started', 'after'))).toBe(false);
    // Read again after the end: the same run, ending cancelled.
    expect((await (await openStream(`/api/executions/${executionId}/stream`)).rest()).at(-1)?.event).toBe('execution:cancelled');
  });
});
