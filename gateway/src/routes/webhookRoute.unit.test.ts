import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import type { runner } from '@weft/contracts';
import { errorHandler } from '../errors.js';
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
function fakeServices(secret: string, opts: { env?: Record<string, string>; leaseMs?: number; startRun?: () => Promise<runner.ExecutionResponse> } = {}) {
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
        return Promise.resolve({ renewed: true });
      },
    },
    runs: {
      startRun: (req) => {
        seen.starts.push(req);
        return opts.startRun ? opts.startRun() : Promise.resolve({ execution: undefined });
      },
      getExecution: () => Promise.reject(new AppError('not_found', 'no such execution')),
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
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(clients: WebhookClients): Promise<string> {
  const app = express();
  const admitAll = { rule: { limit: 1000, windowMs: 60_000 }, take: () => Promise.resolve({ allowed: true, retryAfterMs: 0, remaining: 999 }) };
  app.use('/api', webhookRoutes(clients, { account: admitAll }, logger));
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
    expect(seen.envAskedFor).toEqual(['deployer', 'deployer']);
    expect(seen.starts).toHaveLength(1);
    const input = JSON.parse(seen.starts[0]?.inputJson ?? '{}') as { headers: Record<string, string> };
    expect(input.headers.authorization).toBe('Bearer [REDACTED]');
    expect(seen.starts[0]?.inputJson).not.toContain('tok-from-env');
  });

  it('leaves an unknown key as written; a plain secret never asks for the environment', async () => {
    const unknown = fakeServices('{{NO_SUCH_KEY}}', { env: { OTHER: 'x' } });
    const url = await serve(unknown.clients);
    expect((await post(url, 'x')).status).toBe(401);
    expect((await post(url, '{{NO_SUCH_KEY}}')).status).toBe(200);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = undefined;
    const plain = fakeServices('plain-secret');
    const plainUrl = await serve(plain.clients);
    expect((await post(plainUrl, 'plain-secret')).status).toBe(200);
    expect(plain.seen.envAskedFor).toEqual([]);
  });
});

describe("the webhook route renews its delivery's claim while the run is starting", () => {
  it('renews through a slow start, and gives the claim back when the start fails', async () => {
    let finishStart: (answer: runner.ExecutionResponse | Error) => void = () => undefined;
    const { clients, seen } = fakeServices('s', {
      leaseMs: 30,
      startRun: () =>
        new Promise((resolve, reject) => {
          finishStart = (answer) => (answer instanceof Error ? reject(answer) : resolve(answer));
        }),
    });
    const url = await serve(clients);
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

    const failing = post(url, 's', { 'idempotency-key': 'delivery-2' });
    for (let i = 0; seen.starts.length < 2; i++) {
      if (i > 500) throw new Error('the run was not started');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    finishStart(new AppError('unavailable', 'The service is unavailable'));
    expect((await failing).status).toBe(503);
    expect(seen.releases).toBe(1);
  });
});
