import { describe, expect, it } from 'vitest';
import { AppError } from '@weft/platform';
import { runner } from '@weft/contracts';
import { awaitFirstDelivery, awaitFirstStart, type RedeliveryClients } from './redelivery.js';

const claim = { workflowId: 'wf', deliveryId: 'd1', executionId: 'mine' };

/** Runner and registry stand-ins: executions by id (status running until `end`), claims by delivery. */
function fakes(opts: { claimedBy: string; executions: Record<string, string> }) {
  const executions = new Map(Object.entries(opts.executions));
  let holder: string | undefined = opts.claimedBy;
  const calls = { claims: 0, reads: 0 };
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
        if (holder === undefined) holder = req.executionId;
        return Promise.resolve({ executionId: holder, duplicate: holder !== req.executionId, claimedAtMs: 0 });
      },
    },
  };
  return {
    clients,
    calls,
    release: () => (holder = undefined),
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
    await expect.poll(() => f.calls.claims).toBeGreaterThanOrEqual(1);
    f.start('first', 'failed');
    expect(await waiting).toMatchObject({ kind: 'ended', execution: { executionId: 'first', status: 'failed' } });
  });

  it('claims the delivery itself when the first one never started and gave its claim back', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstDelivery(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.claims).toBeGreaterThanOrEqual(1);
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
    await expect.poll(() => f.calls.claims).toBeGreaterThanOrEqual(2);
    expect(settled).toBe(false);
    f.start('first', 'running');
    expect(await waiting).toEqual({ kind: 'started', executionId: 'first' });
  });

  it('claims the delivery itself when the first one never started and gave its claim back', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstStart(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.claims).toBeGreaterThanOrEqual(1);
    f.release();
    expect(await waiting).toEqual({ kind: 'claimed' });
  });

  it('follows a later claim of the delivery (the first gave it back and another repeat took it)', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    const waiting = awaitFirstStart(f.clients, claim, 'first', Date.now() + 10_000);
    await expect.poll(() => f.calls.claims).toBeGreaterThanOrEqual(1);
    f.release();
    f.clients.triggers.claimWebhookDelivery({ ...claim, executionId: 'second' }).catch(() => undefined);
    f.start('second', 'running');
    expect(await waiting).toEqual({ kind: 'started', executionId: 'second' });
  });

  it('is pending (the route answers 503 with Retry-After) when the first run has not started by the deadline', async () => {
    const f = fakes({ claimedBy: 'first', executions: {} });
    expect(await awaitFirstStart(f.clients, claim, 'first', Date.now() + 300)).toEqual({ kind: 'pending', executionId: 'first' });
    expect(f.calls.claims).toBeGreaterThan(0);
  });
});
