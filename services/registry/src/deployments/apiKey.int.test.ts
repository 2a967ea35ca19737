import { describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase } from '@weft/testkit';
import { migrate, platformMigrations } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow, getWorkflow } from '../entries/workflows.js';
import { createCipher, generateKey, parseKeys } from '../secrets/cipher.js';
import { plainMigrations, registryMigrations } from '../migrations/index.js';
import { deploy, getDeployment, undeploy } from './deployments.js';
import { openApiKey, rotateApiKeys } from './apiKey.js';

/** Every row of every table in the registry's schema, as text. */
async function dumpSchema(db: Kysely<RegistryDB>): Promise<string> {
  const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
  const parts = await Promise.all(tables.rows.map(({ name }) => sql<{ text: string | null }>`select string_agg(t::text, ' ') as text from ${sql.table(name)} t`.execute(db)));
  return parts.map((p) => p.rows[0]?.text ?? '').join('\n');
}

describe('workflow API keys at rest', () => {
  it('stores the key encrypted in no table in clear, answers it in clear, keeps it across deploys and re-encrypts it on rotation', async () => {
    const oldKey = generateKey('old');
    const { registry, drop } = await createTestRegistry({ cipher: createCipher(parseKeys(oldKey)) });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      const first = await deploy(registry, 'u1', wf.id);
      const apiKey = first.apiKey ?? '';
      expect(apiKey).toMatch(/^wf_/);
      expect((await getDeployment(registry, 'u1', wf.id)).apiKey).toBe(apiKey);
      expect((await getWorkflow(registry, 'u1', wf.id, 'read')).workflow.apiKey).toBe(apiKey);
      await undeploy(registry, 'u1', wf.id);
      expect((await deploy(registry, 'u1', wf.id)).apiKey).toBe(apiKey);

      const dump = await dumpSchema(registry.db);
      expect(dump).toContain(wf.id);
      expect(dump).not.toContain(apiKey);
      expect(dump).not.toContain(apiKey.slice(3));

      const newKey = generateKey('new');
      const rotated = { ...registry, cipher: createCipher(parseKeys(`${newKey},${oldKey}`)) };
      expect(await rotateApiKeys(rotated.db, rotated.cipher)).toBe(1);
      expect(await rotateApiKeys(rotated.db, rotated.cipher)).toBe(0);
      const onlyNew = { ...registry, cipher: createCipher(parseKeys(newKey)) };
      expect((await getWorkflow(onlyNew, 'u1', wf.id, 'read')).workflow.apiKey).toBe(apiKey);
      const row = await registry.db.selectFrom('workflows').selectAll().where('id', '=', wf.id).executeTakeFirstOrThrow();
      expect(row.api_key_key_id).toBe('new');
      expect(await dumpSchema(registry.db)).not.toContain(apiKey);
      // Copied into another workflow's row, the ciphertext does not decrypt: the row is bound in.
      expect(() => openApiKey(onlyNew.cipher, { ...row, id: 'another-workflow' })).toThrow();
    } finally {
      await drop();
    }
  });

  it('encrypts the keys stored in clear before the migration', async () => {
    const database = await createTestDatabase<RegistryDB>('registry', plainMigrations);
    try {
      const plain = 'wf_stored-in-clear-before-the-migration';
      await sql`insert into workspaces (id, name, owner_id) values ('ws1', 'W', 'u1')`.execute(database.db);
      await sql`insert into workflows (id, workspace_id, name, description, color, is_deployed, api_key) values ('wf1', 'ws1', 'A', '', '#3972F6', true, ${plain}), ('wf2', 'ws1', 'B', '', '#3972F6', false, null)`.execute(database.db);
      const cipher = createCipher(parseKeys(generateKey('k1')));
      await migrate(database, { ...platformMigrations, ...registryMigrations(cipher) });
      const rows = await database.db.selectFrom('workflows').selectAll().orderBy('id').execute();
      expect(rows.map((r) => [r.id, r.api_key_key_id, openApiKey(cipher, r)])).toEqual([
        ['wf1', 'k1', plain],
        ['wf2', null, null],
      ]);
      expect(await dumpSchema(database.db)).not.toContain(plain);
    } finally {
      await database.drop();
    }
  });
});
