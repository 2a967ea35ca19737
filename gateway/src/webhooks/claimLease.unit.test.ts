import { describe, expect, it } from 'vitest';
import { holdClaim, type LeaseTimer } from './claimLease.js';

const claim = { workflowId: 'wf', deliveryId: 'hook:gh-1', executionId: 'exec-1' };

/** A clock the test moves: timers due by `now` run when it advances; nothing waits for real time. */
function manualClock() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void }> = [];
  const timer: LeaseTimer = (run, ms) => {
    const entry = { at: now + ms, run };
    timers.push(entry);
    return () => {
      timers = timers.filter((t) => t !== entry);
    };
  };
  /** Moves the clock by `ms`, running each timer due on the way and letting its renewal's answer settle. */
  async function advance(ms: number): Promise<void> {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.run();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    now = end;
  }
  return { timer, advance, now: () => now, pending: () => timers.length };
}

function registry(clockNow: () => number, answers: Array<boolean | Error> = []) {
  const renewals: Array<{ at: number; req: unknown; deadlineMs?: number }> = [];
  return {
    renewals,
    triggers: {
      renewWebhookDelivery(req: typeof claim, options?: { deadlineMs?: number }) {
        renewals.push({ at: clockNow(), req, deadlineMs: options?.deadlineMs });
        const answer = answers.shift() ?? true;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ renewed: answer });
      },
    },
  };
}

function logger() {
  const warnings: string[] = [];
  const about: unknown[] = [];
  return {
    warnings,
    about,
    warn: (obj: unknown, msg?: string) => {
      warnings.push(msg ?? '');
      about.push(obj);
    },
  };
}

describe("a claim's lease is renewed while its claimer is still starting the run", () => {
  it('renews every third of the lease for as long as the start takes, and never after stop', async () => {
    const clock = manualClock();
    const reg = registry(clock.now);
    const log = logger();
    const lease = holdClaim(reg.triggers, claim, 15_000, log, clock.timer);
    // A start that takes two minutes: renewed 5 s apart all along, each renewal naming this claim.
    await clock.advance(120_000);
    expect(reg.renewals.map((r) => r.at)).toEqual(Array.from({ length: 24 }, (_, i) => (i + 1) * 5_000));
    expect(reg.renewals[0]?.req).toEqual(claim);
    // Each renewal has a deadline of its own, no longer than a third of the lease.
    expect(reg.renewals.every((r) => r.deadlineMs !== undefined && r.deadlineMs < 5_000)).toBe(true);
    lease.stop();
    expect(clock.pending()).toBe(0);
    await clock.advance(60_000);
    expect(reg.renewals).toHaveLength(24);
    expect(log.warnings).toEqual([]);
  });

  it('a failed renewal is logged and the next one tried; a claim found gone ends the renewals with a warning', async () => {
    const clock = manualClock();
    const reg = registry(clock.now, [new Error('registry unavailable'), true, false]);
    const log = logger();
    const lease = holdClaim(reg.triggers, claim, 3_000, log, clock.timer);
    await clock.advance(1_000);
    expect(log.warnings).toEqual(['webhook delivery claim not renewed']);
    await clock.advance(2_000);
    expect(reg.renewals).toHaveLength(3);
    expect(log.warnings).toHaveLength(2);
    expect(log.warnings[1]).toMatch(/claim lost before its run started/);
    expect(log.about[1]).toMatchObject({ deliveryId: 'hook:gh-1', executionId: 'exec-1' });
    expect(lease.lost).toBe(true);
    await clock.advance(10_000);
    expect(reg.renewals).toHaveLength(3);
  });

  it('renews on a fixed cadence from each attempt\'s start: a hung renewal does not hold the next back, and one still hung when the next is due is skipped', async () => {
    const clock = manualClock();
    const asked: number[] = [];
    const hung: Array<() => void> = [];
    const triggers = {
      renewWebhookDelivery: () => {
        asked.push(clock.now());
        // The first never answers until the test lets it (a client that ignored its deadline); the rest answer at once.
        if (asked.length === 1) return new Promise<{ renewed: boolean }>((resolve) => hung.push(() => resolve({ renewed: true })));
        return Promise.resolve({ renewed: true });
      },
    };
    const log = logger();
    const lease = holdClaim(triggers, claim, 15_000, log, clock.timer);
    await clock.advance(10_000);
    // The second is due at 10 s while the first is still unanswered: skipped, with a warning, not piled up.
    expect(asked).toEqual([5_000]);
    expect(log.warnings).toEqual([expect.stringMatching(/renewal skipped/)]);
    hung.forEach((answer) => answer());
    for (let i = 0; i < 3; i++) await Promise.resolve();
    await clock.advance(10_000);
    expect(asked).toEqual([5_000, 15_000, 20_000]);
    expect(lease.lost).toBe(false);
    lease.stop();
  });

  it('a renewal that fails on its deadline is followed by the next on time, 5 s after the previous started', async () => {
    const clock = manualClock();
    const reg = registry(clock.now, [new Error('DEADLINE_EXCEEDED'), new Error('DEADLINE_EXCEEDED'), true]);
    const log = logger();
    const lease = holdClaim(reg.triggers, claim, 15_000, log, clock.timer);
    await clock.advance(15_000);
    expect(reg.renewals.map((r) => r.at)).toEqual([5_000, 10_000, 15_000]);
    expect(log.about[0]).toMatchObject({ deliveryId: 'hook:gh-1' });
    lease.stop();
  });

  it('a stop while a renewal is on its way schedules no other and logs nothing when the claim was given back', async () => {
    const clock = manualClock();
    let answer: (v: { renewed: boolean }) => void = () => undefined;
    let asked = 0;
    const triggers = {
      renewWebhookDelivery: () => {
        asked += 1;
        return new Promise<{ renewed: boolean }>((resolve) => {
          answer = resolve;
        });
      },
    };
    const log = logger();
    const lease = holdClaim(triggers, claim, 900, log, clock.timer);
    await clock.advance(300);
    expect(asked).toBe(1);
    lease.stop();
    answer({ renewed: false });
    await clock.advance(5_000);
    expect(asked).toBe(1);
    expect(clock.pending()).toBe(0);
    expect(log.warnings).toEqual([]);
  });
});
