import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import { migrate, platformMigrations } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import { createTestRegistry } from '../testSupport.js';
import { createCipher, generateKey, parseKeys } from '../secrets/cipher.js';
import { plainMigrations, registryMigrations } from '../migrations/index.js';
import { createWorkspace, deleteWorkspace, ensureInitialWorkspace, listWorkspaces } from './workspaces.js';

describe('the initial workspace', () => {
  it('is created once for concurrent calls, and not again after the user deleted it', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      expect(await listWorkspaces(registry.db, 'u1')).toEqual({ workspaces: [], initialWorkspaceCreated: false });
      const made = await Promise.all(Array.from({ length: 6 }, () => ensureInitialWorkspace(registry, 'u1', "Ada's Workspace")));
      const created = made.filter((w) => w !== null);
      expect(created).toHaveLength(1);
      const listed = await listWorkspaces(registry.db, 'u1');
      expect(listed.initialWorkspaceCreated).toBe(true);
      expect(listed.workspaces).toEqual([expect.objectContaining({ id: created[0]?.id, name: "Ada's Workspace", permission: 'admin' })]);
      const events = await sql<{ type: string }>`select envelope->>'type' as type from outbox`.execute(registry.db);
      expect(events.rows.map((e) => e.type)).toEqual(['workspaceCreated']);

      await deleteWorkspace(registry, 'u1', created[0]?.id ?? '');
      expect(await ensureInitialWorkspace(registry, 'u1', "Ada's Workspace")).toBeNull();
      expect(await listWorkspaces(registry.db, 'u1')).toEqual({ workspaces: [], initialWorkspaceCreated: true });
    } finally {
      await drop();
    }
  });

  it('never lists the mark without the workspace: lists beside the creation see none or both', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const users = Array.from({ length: 8 }, (_, i) => `race-${i}`);
      const seen = await Promise.all(
        users.flatMap((user) => [
          ensureInitialWorkspace(registry, user, 'First').then(() => undefined),
          ...Array.from({ length: 6 }, () => listWorkspaces(registry.db, user)),
        ]),
      );
      for (const listed of seen) {
        if (listed === undefined) continue;
        // The gateway trusts this pair: the mark without a workspace would show an empty list.
        expect(listed.initialWorkspaceCreated).toBe(listed.workspaces.length === 1);
      }
    } finally {
      await drop();
    }
  });

  it('counts a workspace the user created themselves; a refused call marks nothing, so the next one still creates it', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const own = await createWorkspace(registry, 'u2', 'Team');
      expect(await ensureInitialWorkspace(registry, 'u2', 'Mine')).toBeNull();
      expect((await listWorkspaces(registry.db, 'u2')).workspaces.map((w) => w.id)).toEqual([own.id]);

      await expect(ensureInitialWorkspace(registry, 'u3', '   ')).rejects.toMatchObject({ code: 'validation' });
      expect((await listWorkspaces(registry.db, 'u3')).initialWorkspaceCreated).toBe(false);
      expect(await ensureInitialWorkspace(registry, 'u3', 'Third')).toMatchObject({ name: 'Third' });
    } finally {
      await drop();
    }
  });

  it('marks the owners of workspaces made before the migration, so they get no second one', async () => {
    const database = await createTestDatabase<RegistryDB>('registry', plainMigrations);
    try {
      await sql`insert into workspaces (id, name, owner_id, created_at) values ('late', 'L', 'u1', now()), ('early', 'E', 'u1', now() - interval '1 day')`.execute(database.db);
      await migrate(database, { ...platformMigrations, ...registryMigrations(createCipher(parseKeys(generateKey('k1')))) });
      const marks = await database.db.selectFrom('initial_workspaces').select(['user_id', 'workspace_id']).execute();
      expect(marks).toEqual([{ user_id: 'u1', workspace_id: 'early' }]);
    } finally {
      await database.drop();
    }
  });
});
