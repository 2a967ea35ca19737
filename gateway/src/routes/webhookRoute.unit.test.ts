import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import { runner } from '@weft/contracts';
import { errorHandler } from '../errors.js';
import type { LeaseTimer } from '../webhooks/claimLease.js';
import type { RateLimiter, Take } from '../rateLimitStore.js';
import { webhookRoutes, type WebhookClients } from './webhooks.js';

const logger = createLogger('webhook-route-test', 'silent');

function starterState(secret: string) {
  const sub = (id: string, value: unknown) => ({ id, type: 'short-input', value });
  const starter = {
    id: 'start',
    type: 'starter',
    name: 'Start',
    enabled: true,
    subBlocks: { startWorkflow: sub('startWorkflow', 'webhook'), webhookPath: sub('webhookPath', 'orders'), webhookSecret: sub('webhookSecret', secret) },
  };
  return { blocks: { start: starter }, edges: [] };
}

/** The services a webhook call reaches, faked: what each was asked is kept. */
function fakeServices(
  secret: string,
  opts: { env?: Record<string, string>; leaseMs?: number; renewed?: boolean[]; startRun?: () => Promise<runner.ExecutionResponse>; started?: () => boolean } = {},
) {
  const seen = { envAskedFor: [] as string[], starts: [] as runner.StartRunRequest[], renewals: 0, releases: 0 };
  const unused = () => Promise.reject(new Error('not expected in this test'));
  const clients: WebhookClients = {
    triggers: {
      resolveWebhook: () => Promise.resolve({ workflowId: 'wf', workspaceId: 'ws', ownerId: 'owner', actorId: 'deployer', deploymentVersion: 1, stateJson: JSON.stringify(starterState(secret)) }),
      claimWebhookDelivery: (req) => Promise.resolve({ executionId: req.executionId, duplicate: false, claimedAtMs: 0, leaseMs: opts.leaseMs ?? 15_000 }),
      readWebhookDelivery: unused,
      takeOverWebhookDelivery: unused,
      releaseWebhookDelivery: () => {
        seen.releases += 1;
        return Promise.resolve({ released: true });
      },
      renewWebhookDelivery: () => {
        seen.renewals += 1;
        return Promise.resolve({ renewed: opts.renewed?.shift() ?? true });
      },
    },
    runs: {
      startRun: (req) => {
        seen.starts.push(req);
        return opts.startRun ? opts.startRun() : Promise.resolve({ execution: undefined });
      },
      // A run the start made though its call failed (`started`), else none.
      getExecution: (req) =>
        opts.started?.()
          ? Promise.resolve({ execution: runner.Execution.fromPartial({ executionId: req.executionId, status: 'running' }) })
          : Promise.reject(new AppError('not_found', 'no such execution')),
      readRunEvents: unused,
    },
    registry: {
      getEnvironment: (req) => {
        seen.envAskedFor.push(req.actor?.userId ?? '');
        return Promise.resolve({ variables: opts.env ?? {} });
      },
    },
  };
  return { clients, seen };
}

let server: Server | undefined;
function closeServer(): Promise<void> {
  const open = server;
  server = undefined;
  return new Promise<void>((resolve) => (open ? open.close(() => resolve()) : resolve()));
}
afterEach(closeServer);

/** An account allowed `limit` runs: each admitted call takes a slot, a give-back frees one (`given` lists the buckets). */
function slots(limit: number) {
  let free = limit;
  const given: string[] = [];
  const account: RateLimiter = {
    rule: { limit, windowMs: 60_000 },
    take: () => Promise.resolve(free > 0 ? { allowed: true, remaining: --free } : { allowed: false, retryAfterMs: 60_000 }),
    giveBack: (bucket) => {
      given.push(bucket);
      free += 1;
      return Promise.resolve();
    },
  };
  return { account, given };
}

/** Log lines at warn and above, as written. */
function capturingLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger('webhook-route-test', 'warn', { write: (line: string) => void lines.push(line) }) };
}

/** A lease timer the test steps one renewal period at a time; nothing waits for real time. */
function steppedTimer() {
  let pending: Array<{ run: () => void }> = [];
  const timer: LeaseTimer = (run) => {
    const entry = { run };
    pending.push(entry);
    return () => {
      pending = pending.filter((p) => p !== entry);
    };
  };
  /** One period: runs each timer pending now (a renewal schedules the next), then lets the answers settle. */
  async function period(): Promise<void> {
    const due = pending;
    pending = [];
    for (const entry of due) entry.run();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return { timer, period, pending: () => pending.length };
}

/** Polls (no fixed sleep) until `done`, failing with `what` after about 2.5 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i > 500) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function serve(clients: WebhookClients, opts: { leaseTimer?: LeaseTimer; take?: () => Promise<Take>; account?: RateLimiter; logger?: typeof logger } = {}): Promise<string> {
  const app = express();
  const admitAll: RateLimiter = {
    rule: { limit: 1000, windowMs: 60_000 },
    take: opts.take ?? (() => Promise.resolve({ allowed: true, remaining: 999 })),
    giveBack: () => Promise.reject(new Error('no call was given back in this test')),
  };
  app.use('/api', webhookRoutes(clients, { account: opts.account ?? admitAll }, opts.logger ?? logger, opts.leaseTimer ? { leaseTimer: opts.leaseTimer } : {}));
  app.use(errorHandler(logger));
  const listening = app.listen(0, '127.0.0.1');
  server = listening;
  await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/api/webhooks/trigger/orders`;
}

function post(url: string, token: string, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: '{"n":1}' });
}

describe("the webhook route reads a {{KEY}} secret from the deployer's environment", () => {
  it('runs a call carrying the environment value, refuses the reference as typed, and keeps the value out of the input', async () => {
    const { clients, seen } = fakeServices('{{HOOK_TOKEN}}', { env: { HOOK_TOKEN: 'tok-from-env' } });
    const url = await serve(clients);
    const refused = await post(url, '{{HOOK_TOKEN}}');
    expect(refused.status).toBe(401);
    expect(seen.starts).toHaveLength(0);
    const ok = await post(url, 'tok-from-env');
    expect(ok.status).toBe(200);
    // Asked once for the deployer: the resolved secret is kept a short while (30 s).
    expect(seen.envAskedFor).toEqual(['deployer']);
    expect(seen.starts).toHaveLength(1);
    const input = JSON.parse(seen.starts[0]?.inputJson ?? '{}') as { headers: Record<string, string> };
    expect(input.headers.authorization).toBe('Bearer [REDACTED]');
    expect(seen.starts[0]?.inputJson).not.toContain('tok-from-env');
  });

  it('fails closed on an unknown key: 401 as for a wrong secret, whatever the caller sends, and a warning naming the key', async () => {
    const plain = fakeServices('plain-secret');
    const plainUrl = await serve(plain.clients);
    const wrong = await post(plainUrl, 'not-the-secret');
    expect(wrong.status).toBe(401);
    const wrongBody: unknown = await wrong.json();
    expect(plain.seen.envAskedFor).toEqual([]);
    await closeServer();

    const unknown = fakeServices('{{NO_SUCH_KEY}}', { env: { OTHER: 'x' } });
    const log = capturingLogger();
    const url = await serve(unknown.clients, { logger: log.logger });
    for (const token of ['x', '{{NO_SUCH_KEY}}', '']) {
      const refused = await post(url, token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual(wrongBody);
    }
    expect(unknown.seen.starts).toHaveLength(0);
    expect(log.lines.some((line) => line.includes('NO_SUCH_KEY') && line.includes('refused'))).toBe(true);
  });

  it('refuses a secret filled only in part (one key empty), and logs the key, never a value', async () => {
    const { clients, seen } = fakeServices('{{K1}}{{K2}}', { env: { K1: 'first-half', K2: '' } });
    const log = capturingLogger();
    const url = await serve(clients, { logger: log.logger });
    for (const token of ['first-half', 'first-half{{K2}}', '{{K1}}{{K2}}']) expect((await post(url, token)).status).toBe(401);
    expect(seen.starts).toHaveLength(0);
    const warning = log.lines.find((line) => line.includes('"K2"')) ?? '';
    expect(warning).not.toBe('');
    expect(warning).not.toContain('"K1"');
    expect(log.lines.join('\n')).not.toContain('first-half');
  });
});

describe("the webhook route renews its delivery's claim while the run is starting", () => {
  it('renews through a slow start, and gives the claim and the rate-limit slot back when the start fails', async () => {
    let finishStart: (answer: runner.ExecutionResponse | Error) => void = () => undefined;
    const { clients, seen } = fakeServices('s', {
      leaseMs: 30,
      startRun: () =>
        new Promise((resolve, reject) => {
          finishStart = (answer) => (answer instanceof Error ? reject(answer) : resolve(answer));
        }),
    });
    const { account, given } = slots(1000);
    const url = await serve(clients, { account });
    const slow = post(url, 's', { 'idempotency-key': 'delivery-1' });
    // A start far longer than the lease: the claim is renewed all along (every 10 ms here).
    for (let i = 0; seen.renewals < 5; i++) {
      if (i > 500) throw new Error('the claim was not renewed');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen.starts).toHaveLength(1);
    finishStart({ execution: undefined });
    expect((await slow).status).toBe(200);
    expect(seen.renewals).toBeGreaterThanOrEqual(5);
    expect(seen.releases).toBe(0);
    expect(given).toEqual([]);

    const failing = post(url, 's', { 'idempotency-key': 'delivery-2' });
    for (let i = 0; seen.starts.length < 2; i++) {
      if (i > 500) throw new Error('the run was not started');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    finishStart(new AppError('unavailable', 'The service is unavailable'));
    expect((await failing).status).toBe(503);
    expect(seen.releases).toBe(1);
    expect(given).toEqual(['account:deployer']);
  });

  it('a start that fails with its run not started leaves the account its slot, with a delivery id or none; one whose run started anyway keeps it counted', async () => {
    let startFails = true;
    let startedAnyway = false;
    const { clients, seen } = fakeServices('s', {
      startRun: () => (startFails ? Promise.reject(new AppError('unavailable', 'The service is unavailable')) : Promise.resolve({ execution: undefined })),
      started: () => startedAnyway,
    });
    // An account allowed one run.
    const { account, given } = slots(1);
    const url = await serve(clients, { account });
    expect((await post(url, 's', { 'idempotency-key': 'delivery-6' })).status).toBe(503);
    expect((await post(url, 's')).status).toBe(503);
    expect(given).toEqual(['account:deployer', 'account:deployer']);
    expect(seen.releases).toBe(1);

    // The run started though its call failed (a waited run past its deadline): the slot stays counted.
    startedAnyway = true;
    expect((await post(url, 's', { 'idempotency-key': 'delivery-7' })).status).toBe(503);
    expect(given).toHaveLength(2);
    expect(seen.releases).toBe(1);
    startFails = false;
    expect((await post(url, 's', { 'idempotency-key': 'delivery-8' })).status).toBe(429);
    expect(seen.starts).toHaveLength(3);
  });

  it('stops renewing once the start has answered: none in the three periods after the 200', async () => {
    let finishStart: () => void = () => undefined;
    const { clients, seen } = fakeServices('s', { startRun: () => new Promise((resolve) => (finishStart = () => resolve({ execution: undefined }))) });
    const clock = steppedTimer();
    const url = await serve(clients, { leaseTimer: clock.timer });
    const call = post(url, 's', { 'idempotency-key': 'delivery-3' });
    await until(() => seen.starts.length === 1, 'the run was not started');
    for (let i = 0; i < 3; i++) await clock.period();
    expect(seen.renewals).toBe(3);
    finishStart();
    expect((await call).status).toBe(200);
    const renewed = seen.renewals;
    for (let i = 0; i < 3; i++) await clock.period();
    expect(seen.renewals).toBe(renewed);
    expect(clock.pending()).toBe(0);
  });

  it('starts nothing when a renewal finds the claim taken over before the start: 503 with Retry-After, a warning naming the delivery, and the rate-limit slot given back', async () => {
    // An account allowed one run: a slot is taken by each admitted call, and freed by a give-back.
    let free = 1;
    let admit: () => void = () => undefined;
    const given: string[] = [];
    const account: RateLimiter = {
      rule: { limit: 1, windowMs: 60_000 },
      take: () =>
        new Promise<Take>((resolve) => {
          admit = () => resolve(free > 0 ? { allowed: true, remaining: --free } : { allowed: false, retryAfterMs: 60_000 });
        }),
      giveBack: (bucket) => {
        given.push(bucket);
        free += 1;
        return Promise.resolve();
      },
    };
    const { clients, seen } = fakeServices('s', { renewed: [false] });
    const clock = steppedTimer();
    const log = capturingLogger();
    const url = await serve(clients, { leaseTimer: clock.timer, account, logger: log.logger });
    const call = post(url, 's', { 'idempotency-key': 'delivery-4' });
    // The claim is lost while the slot is being taken (the only wait between the claim and the start).
    await until(() => clock.pending() === 1, 'the claim was not held');
    await clock.period();
    expect(seen.renewals).toBe(1);
    admit();
    const answer = await call;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(seen.starts).toHaveLength(0);
    expect(seen.releases).toBe(0);
    expect(log.lines.some((line) => line.includes('claim lost') && line.includes('start:delivery-4'))).toBe(true);
    expect(given).toEqual(['account:deployer']);
    // The account's one slot is still there: the next delivery runs.
    const next = post(url, 's', { 'idempotency-key': 'delivery-5' });
    await until(() => clock.pending() === 1, 'the next claim was not held');
    admit();
    expect((await next).status).toBe(200);
    expect(seen.starts).toHaveLength(1);
    expect(given).toHaveLength(1);
  });
});
