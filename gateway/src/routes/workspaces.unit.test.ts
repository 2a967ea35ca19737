import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@weft/platform';
import type { registry } from '@weft/contracts';
import type { Clients } from '../clients.js';
import type { UserDirectory, UserSummary } from '../accounts/users.js';
import { errorHandler } from '../errors.js';
import { workspaceRoutes } from './workspaces.js';

const accounts: UserSummary[] = [
  { id: 'alice', name: 'Alice', email: 'alice@example.invalid' },
  { id: 'bob', name: 'Bob', email: 'bob@example.invalid' },
  { id: 'carol', name: 'Carol', email: 'carol@example.invalid' },
];

/** Workspace ws1's members by user id (what the registry holds), reset before each test. */
let members = new Map<string, string>();
/** What the registry was asked to set. */
const asked: registry.SetMemberRequest[] = [];

const createdAt = '2026-01-01T00:00:00.000Z';
const clients = {
  registry: {
    getPermissions: ({ actor, workspaceId }: registry.WorkspaceRef) => {
      const own = members.get(actor?.userId ?? '');
      if (workspaceId !== 'ws1' || !own) return Promise.reject(new AppError('forbidden', 'Access denied to workspace'));
      return Promise.resolve({ permission: own, members: [...members].map(([userId, permission]) => ({ userId, permission, createdAt })) });
    },
    // The registry's rules (services/registry/src/workspaces/members.ts), in the messages it answers with.
    setMember: (req: registry.SetMemberRequest) => {
      asked.push(req);
      const before = members.get(req.userId);
      if (!before && req.mustExist) return Promise.reject(new AppError('not_found', `userId ${req.userId} is not a member of this workspace`));
      if (before && req.mustBeNew) return Promise.reject(new AppError('conflict', `userId ${req.userId} is already a member of this workspace`, { field: 'userId', userId: req.userId }));
      if (before === 'admin' && req.permission !== 'admin' && ![...members].some(([id, p]) => id !== req.userId && p === 'admin')) {
        return Promise.reject(new AppError('conflict', 'A workspace needs at least one admin'));
      }
      members.set(req.userId, req.permission);
      return Promise.resolve({ member: { userId: req.userId, permission: req.permission, createdAt } });
    },
  },
} as unknown as Clients;

const users: UserDirectory = {
  byEmail: (email) => Promise.resolve(accounts.find((u) => u.email === email.trim().toLowerCase())),
  byIds: (ids) => Promise.resolve(new Map(accounts.filter((u) => ids.includes(u.id)).map((u) => [u.id, u]))),
};
const auth = { authenticate: (req: express.Request) => Promise.resolve(req.header('x-user') ? { userId: req.header('x-user') ?? '' } : null) };

describe('workspace members: an invitation adds, a permission change is PATCH', () => {
  let base = '';
  let close: () => void = () => undefined;
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.use('/api', workspaceRoutes(clients, auth, users));
    app.use(errorHandler(createLogger('workspaces-route-test', 'silent')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/workspaces/ws1`;
    close = () => server.close();
  });
  afterAll(() => close());
  beforeEach(() => {
    members = new Map([
      ['alice', 'admin'],
      ['bob', 'read'],
    ]);
    asked.length = 0;
  });

  const send = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', 'x-user': 'alice' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('refuses to invite a member again, naming the email; their permission stays', async () => {
    expect(await send('POST', '/members', { email: 'bob@example.invalid', permission: 'admin' })).toEqual({
      status: 409,
      body: { error: 'bob@example.invalid is already a member of this workspace', field: 'email' },
    });
    expect(members.get('bob')).toBe('read');
    expect(asked).toMatchObject([{ userId: 'bob', mustBeNew: true, mustExist: false }]);
  });

  it('refuses the admin inviting their own email (the form’s default "write") as a member, not as the last admin stepping down', async () => {
    expect(await send('POST', '/members', { email: 'ALICE@example.invalid', permission: 'write' })).toEqual({
      status: 409,
      body: { error: 'alice@example.invalid is already a member of this workspace', field: 'email' },
    });
    expect(members.get('alice')).toBe('admin');
  });

  it('adds someone who is no member yet, with the permission asked for', async () => {
    expect(await send('POST', '/members', { email: 'carol@example.invalid', permission: 'write' })).toEqual({
      status: 201,
      body: { member: { userId: 'carol', permission: 'write', createdAt, email: 'carol@example.invalid', name: 'Carol' } },
    });
    expect(members.get('carol')).toBe('write');
  });

  it('changes a member’s permission with PATCH .../members/{userId}, and only a member’s', async () => {
    expect(await send('PATCH', '/members/bob', { permission: 'write' })).toEqual({ status: 200, body: { member: { userId: 'bob', permission: 'write', createdAt } } });
    expect(members.get('bob')).toBe('write');
    expect(await send('PATCH', '/members/carol', { permission: 'write' })).toEqual({ status: 404, body: { error: 'userId carol is not a member of this workspace' } });
    expect(asked).toMatchObject([{ userId: 'bob', mustExist: true }, { userId: 'carol', mustExist: true }]);
  });

  it('passes on other conflicts as they are', async () => {
    expect(await send('PATCH', '/members/alice', { permission: 'write' })).toEqual({ status: 409, body: { error: 'A workspace needs at least one admin' } });
  });
});
