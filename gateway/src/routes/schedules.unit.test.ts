import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import type { runnerSchedules } from '@weft/contracts';
import type { Clients } from '../clients.js';
import type { AccessChecker } from '../access.js';
import { errorHandler } from '../errors.js';
import { scheduleRoutes } from './schedules.js';

/** Workspaces by id: their workflows and members (what the registry decides from). */
const workspaces: Record<string, { workflows: string[]; members: string[] }> = {
  ws1: { workflows: ['wf-a', 'wf-b'], members: ['alice', 'bob'] },
  ws2: { workflows: ['wf-x'], members: ['carol'] },
};

const view = (workflowId: string, blockId: string): runnerSchedules.ScheduleView => ({
  id: `${workflowId}:${blockId}`,
  workflowId,
  blockId,
  cronExpression: '0 9 * * *',
  timezone: 'UTC',
  nextRunAt: ['2026-01-16T09:00:00.000Z'],
  status: 'active',
  deploymentVersion: 2,
  scheduleType: 'daily',
});

/** What the runner was asked to list. */
const asked: runnerSchedules.ListSchedulesRequest[] = [];

const clients = {
  registry: {
    // The registry's own rule (services/registry/src/access.ts): a workspace's workflows for its members only.
    listWorkflows: ({ actor, workspaceId }: { actor: { userId: string }; workspaceId: string }) => {
      const ws = workspaces[workspaceId];
      if (!ws) return Promise.reject(new AppError('not_found', `Workspace ${workspaceId} not found`));
      if (!ws.members.includes(actor.userId)) return Promise.reject(new AppError('forbidden', 'Access denied to workspace'));
      return Promise.resolve({ workflows: ws.workflows.map((id) => ({ id })) });
    },
  },
  schedules: {
    listSchedules: (req: runnerSchedules.ListSchedulesRequest) => {
      asked.push(req);
      const all = req.workflowIds.flatMap((id) => [view(id, 's'), view(id, 'nightly')]);
      const from = req.after ? all.findIndex((v) => v.id === req.after) + 1 : 0;
      const page = all.slice(from, from + req.limit);
      return Promise.resolve({ schedules: page, ...(from + req.limit < all.length ? { nextAfter: page.at(-1)?.id } : {}) });
    },
  },
} as unknown as Clients;

const auth = { authenticate: (req: express.Request) => Promise.resolve(req.header('x-user') ? { userId: req.header('x-user') ?? '' } : null) };
const access = { require: () => Promise.resolve(), forget: () => undefined, forgetOnRegistryEvent: () => undefined } as AccessChecker;

describe('GET /api/schedules?workspaceId= (a workspace’s schedules in one call)', () => {
  let base = '';
  let close: () => void = () => undefined;
  beforeAll(async () => {
    const app = express();
    app.use('/api', scheduleRoutes(clients, auth, access));
    app.use(errorHandler(createLogger('schedules-route-test', 'silent')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/schedules`;
    close = () => server.close();
  });
  afterAll(() => close());

  const get = async (query: string, user: string | null = 'alice') => {
    const res = await fetch(`${base}?${query}`, { headers: user ? { 'x-user': user } : {} });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("lists the schedules of every workflow of the workspace the caller may read, in one runner call, a page at a time", async () => {
    asked.length = 0;
    const all = await get('workspaceId=ws1');
    expect(all.status).toBe(200);
    expect(asked).toEqual([{ workflowIds: ['wf-a', 'wf-b'], limit: 100, after: '' }]);
    expect(all.body).toEqual({
      schedules: ['wf-a:s', 'wf-a:nightly', 'wf-b:s', 'wf-b:nightly'].map((id) => expect.objectContaining({ id, lastRunAt: null, status: 'active', deploymentVersion: 2 })),
      nextCursor: null,
    });

    const first = await get('workspaceId=ws1&limit=3');
    expect((first.body.schedules as { id: string }[]).map((s) => s.id)).toEqual(['wf-a:s', 'wf-a:nightly', 'wf-b:s']);
    expect(typeof first.body.nextCursor).toBe('string');
    const second = await get(`workspaceId=ws1&limit=3&cursor=${String(first.body.nextCursor)}`);
    expect(second.body).toEqual({ schedules: [expect.objectContaining({ id: 'wf-b:nightly' })], nextCursor: null });
    expect(asked.at(-1)).toEqual({ workflowIds: ['wf-a', 'wf-b'], limit: 3, after: 'wf-b:s' });
  });

  it('a workspace the caller is not a member of is refused as the other workspace routes refuse it, and the runner is not asked', async () => {
    asked.length = 0;
    expect(await get('workspaceId=ws2', 'alice')).toEqual({ status: 403, body: { error: 'Access denied to workspace' } });
    expect(await get('workspaceId=nope', 'alice')).toEqual({ status: 404, body: { error: 'Workspace nope not found' } });
    expect(await get('workspaceId=ws1', null)).toEqual({ status: 401, body: { error: 'Unauthorized' } });
    expect(asked).toEqual([]);
    expect((await get('workspaceId=ws2', 'carol')).body.schedules).toHaveLength(2);
  });

  it('bad input is a 400 naming the field', async () => {
    asked.length = 0;
    const refused = async (query: string) => {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      return body.error;
    };
    expect(await refused('workspaceId=')).toBe('workspaceId is required');
    expect(await refused(`workspaceId=${'w'.repeat(201)}`)).toBe('workspaceId must be at most 200 characters');
    expect(await refused('workspaceId=ws1&workspaceId=ws2')).toBe('Query parameter workspaceId must be given once');
    expect(await refused('workspaceId=ws1&workflowId=wf-a')).toBe('Give workflowId or workspaceId, not both');
    for (const limit of ['0', '501', '-1', '2.5', 'ten', '', '99999']) expect(await refused(`workspaceId=ws1&limit=${limit}`)).toBe('limit must be a whole number from 1 to 500');
    for (const cursor of ['', 'not%20base64', 'x'.repeat(1001)]) expect(await refused(`workspaceId=ws1&cursor=${cursor}`)).toBe('cursor is not one this list gave (use nextCursor of the page before)');
    expect(await refused('')).toBe('workflowId is required');
    expect(asked).toEqual([]);
  });
});
