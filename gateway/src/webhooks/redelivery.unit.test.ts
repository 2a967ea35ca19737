import { describe, expect, it } from 'vitest';
import { AppError } from '@weft/platform';
import { runner } from '@weft/contracts';
import { awaitFirstDelivery, awaitFirstStart, awaitRepeat, type RedeliveryClients } from './redelivery.js';

const claim = { workflowId: 'wf', deliveryId: 'd1', executionId: 'mine' };

/**
 * Runner and registry stand-ins: executions by id (status running until `end`), the delivery's claim
 * (its holder, and whether it has gone stale), with a count of each call.
 */
function fakes(opts: { claimedBy: string; executions: Record<string, string> }) {
  const executions = new Map(Object.entries(opts.executions));
  let holder: string | undefined = opts.claimedBy;
  let stale = false;
  const calls = { claims: 0, reads: 0, polls: 0, takeOvers: 0 };
  const clients: RedeliveryClients = {
    runs: {
      readRunEvents(req) {
        calls.reads += 1;
        const status = executions.get(req.executionId);
        if (status === undefined) return Promise.reject(new AppError('not_found', `Execution ${req.executionId} not found`));
        return Promise.resolve({ eventsJson: '[]', status, lastSeq: 3 });
      },
      getExecution(req) {
        const status = executions.get(req.executionId);
        return Promise.resolve({ execution: status === undefined ? undefined : runner.Execution.fromPartial({ executionId: req.executionId, status }) });
      },
    },
    triggers: {
      claimWebhookDelivery(req) {
        calls.claims += 1;
        if (holder === undefined) {
          holder = req.executionId;
          stale = false;
        }
        return Promise.resolve({ executionId: holder, duplicate: holder !== req.executionId, claimedAtMs: 0, leaseMs: 15_000 });
      },
      readWebhookDelivery() {
        calls.polls += 1;
        return Promise.resolve(holder === undefined ? { stale: false } : { executionId: holder, stale });
      },
      takeOverWebhookDelivery(req) {
        calls.takeOvers += 1;
        const taken = stale && holder === req.staleExecutionId;
        if (taken) {
          holder = req.executionId;
          stale = false;
        }
        return Promise.resolve({ taken });
      },
    },
  };
  return {
    clients,
    calls,
    holder: () => holder,
    release: () => (holder = undefined),
    /** The first call claimed and then crashed (or failed to give its claim back): its claim's lease lapses (no one renews it). */
    abandon: () => (stale = true),
    start: (id: string, status: string) => executions.set(id, status),
  };
}

describe('awaitFirstDelivery (a repeat of a delivery answered with its Response block)', () => {
  it('answers the first delivery’s execution once it has ended', async () => {
    const f = fakes({ claimedBy: 'first', executions: { first: 'succeeded' } });
    const got = await awaitFirstDelivery(f.clients, claim, 'first', Date.now() + 5_000);
    expect(got).toMatchObject({ kind: 'ended', execution: { executionId: 'first', status: 'succeeded' } });
  });

  it('waits while the first delivery is claimed but not started yet, then follows its run', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstDelivery(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.polls).toBeGreaterThanOrEqual(1);
    f.start('first', 'failed');
    expect(await waiting).toMatchObject({ kind: 'ended', execution: { executionId: 'first', status: 'failed' } });
  });

  it('claims the delivery itself when the first one never started and gave its claim back', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstDelivery(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.polls).toBeGreaterThanOrEqual(1);
    f.release();
    expect(await waiting).toEqual({ kind: 'claimed' });
  });

  it('is a timeout (504) when the first run has not ended by the deadline', async () => {
    const f = fakes({ claimedBy: 'first', executions: { first: 'running' } });
    await expect(awaitFirstDelivery(f.clients, claim, 'first', Date.now() + 300)).rejects.toMatchObject({ code: 'timeout' });
    expect(f.calls.reads).toBeGreaterThan(0);
  });
});

describe('awaitFirstStart (a repeat of a delivery answered as soon as its run starts)', () => {
  it('answers started once the first delivery’s run exists, whatever its status', async () => {
    const f = fakes({ claimedBy: 'first', executions: { first: 'running' } });
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 5_000)).toEqual({ kind: 'started', executionId: 'first' });
    expect(f.calls.claims).toBe(0);
  });

  it('waits while the first delivery is claimed but not started yet, and answers once it started', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    let settled = false;
    const waiting = awaitFirstStart(f.clients, claim, 'first', Date.now() + 10_000).finally(() => (settled = true));
    await expect.poll(() => f.calls.polls).toBeGreaterThanOrEqual(2);
    expect(settled).toBe(false);
    f.start('first', 'running');
    expect(await waiting).toEqual({ kind: 'started', executionId: 'first' });
  });

  it('claims the delivery itself when the first one never started and gave its claim back', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstStart(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.polls).toBeGreaterThanOrEqual(1);
    f.release();
    expect(await waiting).toEqual({ kind: 'claimed' });
  });

  it('follows a later claim of the delivery (the first gave it back and another repeat took it)', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstStart(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.polls).toBeGreaterThanOrEqual(1);
    f.release();
    f.clients.triggers.claimWebhookDelivery({ ...claim, executionId: 'second' }).catch(() => undefined);
    f.start('second', 'running');
    expect(await waiting).toEqual({ kind: 'started', executionId: 'second' });
  });

  it('is pending (the route answers 503 with Retry-After) when the first run has not started by the deadline', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 300)).toEqual({ kind: 'pending', executionId: 'first' });
    expect(f.calls.polls).toBeGreaterThan(0);
  });

  it('polls a claim being started without writing it, less and less often', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    // 1.5 s: looks after 0.1, 0.3, 0.7 and 1.5 s (a fixed 100 ms loop would look 15 times).
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 1_500)).toEqual({ kind: 'pending', executionId: 'first' });
    expect(f.calls.polls).toBeGreaterThanOrEqual(2);
    expect(f.calls.polls).toBeLessThanOrEqual(6);
    expect(f.calls.claims).toBe(0);
    expect(f.calls.takeOvers).toBe(0);
  });

  it('takes over a claim left behind (stale, its run never started) and runs the delivery itself', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    f.abandon();
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 5_000)).toEqual({ kind: 'claimed' });
    expect(f.holder()).toBe('mine');
    expect(f.calls.takeOvers).toBe(1);
  });

  it('never takes over a stale claim whose run has started', async () => {
    const f = fakes({ claimedBy: 'first', executions: { first: 'running' } });
    f.abandon();
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 5_000)).toEqual({ kind: 'started', executionId: 'first' });
    expect(f.calls.takeOvers).toBe(0);
  });

  it('of two repeats that find the claim stale, one takes it over and the other follows its run', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    f.abandon();
    const repeats = ['mine', 'other'].map((executionId) => awaitFirstStart(f.clients, { ...claim, executionId }, 'first', Date.now() + 5_000));
    await expect.poll(() => f.holder()).not.toBe('first');
    const winner = f.holder() ?? '';
    f.start(winner, 'running');
    const got = await Promise.all(repeats);
    expect(got).toEqual(expect.arrayContaining([{ kind: 'claimed' }, { kind: 'started', executionId: winner }]));
    expect(got.filter((g) => g.kind === 'claimed')).toHaveLength(1);
  });
});

describe('awaitRepeat (the route’s repeat: which wait, and what a claim by the repeat means)', () => {
  it('answered at its start: a claim given back is claimed by the repeat, which never then waits on the first run’s events', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    f.release();
    const got = await awaitRepeat(f.clients, claim, 'first', { answersAtStart: true, arrived: Date.now(), responseDeadline: Date.now() + 5_000 });
    expect(got).toEqual({ kind: 'claimed' });
    expect(f.calls.reads).toBe(0);
    expect(f.holder()).toBe('mine');
  });

  it('answered with its Response block: the first run’s answer once ended; a stale claim is taken over', async () => {
    const ended = fakes({ claimedBy: 'first', executions: { first: 'succeeded' } });
    const got = await awaitRepeat(ended.clients, claim, 'first', { answersAtStart: false, arrived: Date.now(), responseDeadline: Date.now() + 5_000 });
    expect(got).toMatchObject({ kind: 'ended', execution: { executionId: 'first' } });
    const left = fakes({ claimedBy: 'first', executions: {} });
    left.abandon();
    expect(await awaitRepeat(left.clients, claim, 'first', { answersAtStart: false, arrived: Date.now(), responseDeadline: Date.now() + 5_000 })).toEqual({ kind: 'claimed' });
    expect(left.calls.takeOvers).toBe(1);
  });
});
