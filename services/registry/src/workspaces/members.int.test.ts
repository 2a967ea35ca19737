import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createTestRegistry } from '../testSupport.js';
import type { Registry } from '../ports.js';
import { createWorkspace } from './workspaces.js';
import { getPermissions, setMember } from './members.js';

/** The types of the events the registry emitted, oldest first. */
async function events(registry: Registry): Promise<string[]> {
  const rows = await sql<{ type: string }>`select envelope->>'type' as type from outbox order by seq`.execute(registry.db);
  return rows.rows.map((e) => e.type);
}

async function memberIds(registry: Registry, workspaceId: string): Promise<string[]> {
  return (await getPermissions(registry, 'owner', workspaceId)).members.map((m) => m.userId);
}

describe('setMember with mustExist (a change of a member, PATCH .../members/{userId})', () => {
  it('refuses a user who is no member as not_found, writes and emits nothing; without it the user is added', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'owner', 'W');
      await expect(setMember(registry, 'owner', ws.id, 'stranger', 'write', { mustExist: true })).rejects.toMatchObject({
        code: 'not_found',
        message: 'userId stranger is not a member of this workspace',
      });
      expect(await memberIds(registry, ws.id)).toEqual(['owner']);
      expect(await events(registry)).toEqual(['workspaceCreated']);

      await setMember(registry, 'owner', ws.id, 'stranger', 'read');
      expect(await setMember(registry, 'owner', ws.id, 'stranger', 'write', { mustExist: true })).toMatchObject({ userId: 'stranger', permission: 'write' });
      expect(await events(registry)).toEqual(['workspaceCreated', 'memberAdded', 'memberUpdated']);
    } finally {
      await drop();
    }
  });

  it('does not undo a removal that commits while it waits for the member row', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'owner', 'W');
      await setMember(registry, 'owner', ws.id, 'dev', 'write');
      let commitRemoval: () => void = () => undefined;
      let removalPid: number | undefined;
      const removal = registry.db.transaction().execute(async (trx) => {
        removalPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
        await trx.deleteFrom('workspace_members').where('workspace_id', '=', ws.id).where('user_id', '=', 'dev').execute();
        await new Promise<void>((resolve) => (commitRemoval = resolve));
      });
      // The change starts while the removal holds the row: it waits on the row lock, then finds no row.
      const change = setMember(registry, 'owner', ws.id, 'dev', 'read', { mustExist: true }).then(
        () => 'changed',
        (e: unknown) => e,
      );
      await vi.waitFor(async () => {
        expect(removalPid).toBeDefined();
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${removalPid ?? 0}::int = any(pg_blocking_pids(pid))`.execute(registry.db);
        expect(waiting.rows[0]?.n).toBe(1);
      }, { timeout: 10_000, interval: 20 });
      commitRemoval();
      await removal;
      expect(await change).toMatchObject({ code: 'not_found', message: 'userId dev is not a member of this workspace' });
      expect(await memberIds(registry, ws.id)).toEqual(['owner']);
      expect(await events(registry)).toEqual(['workspaceCreated', 'memberAdded']);
    } finally {
      await drop();
    }
  });
});

describe('setMember with mustBeNew (an invitation, POST .../members)', () => {
  it('refuses a user who is already a member as conflict, their permission unchanged and nothing emitted; a new user is added', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'owner', 'W');
      // The sole admin invited again as 'write' is refused as a member, not asked to keep an admin.
      await expect(setMember(registry, 'owner', ws.id, 'owner', 'write', { mustBeNew: true })).rejects.toMatchObject({
        code: 'conflict',
        message: 'userId owner is already a member of this workspace',
        details: { field: 'userId', userId: 'owner' },
      });
      expect(await setMember(registry, 'owner', ws.id, 'dev', 'read', { mustBeNew: true })).toMatchObject({ userId: 'dev', permission: 'read' });
      await expect(setMember(registry, 'owner', ws.id, 'dev', 'admin', { mustBeNew: true })).rejects.toMatchObject({ code: 'conflict', message: 'userId dev is already a member of this workspace' });
      expect((await getPermissions(registry, 'owner', ws.id)).members.map((m) => [m.userId, m.permission])).toEqual([
        ['owner', 'admin'],
        ['dev', 'read'],
      ]);
      expect(await events(registry)).toEqual(['workspaceCreated', 'memberAdded']);
      await expect(setMember(registry, 'owner', ws.id, 'dev', 'read', { mustBeNew: true, mustExist: true })).rejects.toMatchObject({ code: 'validation' });
    } finally {
      await drop();
    }
  });
});

describe('the last admin (concurrent changes)', () => {
  it('two admins stepping down at once: one is refused, the workspace keeps an admin', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'owner', 'W');
      await setMember(registry, 'owner', ws.id, 'second', 'admin');
      // Both changes pass their checks and then wait to write their event behind a lock held here, so without
      // the membership lock each would have seen the other still an admin.
      let release: () => void = () => undefined;
      let holderPid: number | undefined;
      const holder = registry.db.transaction().execute(async (trx) => {
        holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]?.pid;
        await sql`lock table outbox in exclusive mode`.execute(trx);
        await new Promise<void>((resolve) => (release = resolve));
      });
      await vi.waitFor(() => expect(holderPid).toBeDefined(), { timeout: 10_000, interval: 20 });
      const outcome = (p: Promise<unknown>) => p.then(() => 'changed', (e: unknown) => (e as { message?: string }).message);
      const changes = [outcome(setMember(registry, 'owner', ws.id, 'owner', 'write')), outcome(setMember(registry, 'second', ws.id, 'second', 'write'))];
      // Both are waiting once two backends wait on the holder, directly or behind each other (other tests' waits on the server are not counted).
      await vi.waitFor(async () => {
        const rows = (await sql<{ pid: number; blockers: number[] }>`select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity where cardinality(pg_blocking_pids(pid)) > 0`.execute(registry.db)).rows;
        const behind = new Set([holderPid]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const r of rows) if (!behind.has(r.pid) && r.blockers.some((b) => behind.has(b))) grew = Boolean(behind.add(r.pid));
        }
        expect(behind.size - 1).toBe(2);
      }, { timeout: 10_000, interval: 20 });
      release();
      await holder;
      expect((await Promise.all(changes)).sort()).toEqual(['A workspace needs at least one admin', 'changed']);
      const admins = (await sql<{ user_id: string }>`select user_id from workspace_members where workspace_id = ${ws.id} and permission = 'admin'`.execute(registry.db)).rows;
      expect(admins).toHaveLength(1);
    } finally {
      await drop();
    }
  });
});
