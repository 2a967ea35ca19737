import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backingEnv, createTestDatabase, createTestInstance } from '@weft/testkit';
import { connectBus, createEnvelope, createLogger, type Bus, type Database, type RunningConsumer } from '@weft/platform';
import { migrations } from '../migrations/index.js';
import type { IntegrationsDB } from '../db.js';
import { consumeRegistryDeletions } from './registryEvents.js';

describe('following the registry’s deletions (real Postgres and NATS)', () => {
  let database: Database<IntegrationsDB> & { drop(): Promise<void> };
  let bus: Bus;
  let consumer: RunningConsumer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestInstance();
    cleanup = created.cleanup;
    database = await createTestDatabase<IntegrationsDB>('integrations_deletions', migrations);
    bus = await connectBus((await backingEnv()).natsUrl, created.instance);
    consumer = await consumeRegistryDeletions({ bus, db: database.db, logger: createLogger('test', 'silent') });
  });

  afterAll(async () => {
    await consumer?.stop();
    await bus?.close();
    await cleanup?.();
    await database?.drop();
  });

  async function publish(kind: 'workflow' | 'workspace', id: string, type: string, data: unknown): Promise<void> {
    const envelope = createEnvelope(`${bus.instance}.registry.${kind}.${id}`, type, data);
    await bus.js.publish(envelope.subject, JSON.stringify(envelope), { msgID: envelope.id });
  }

  async function addBase(id: string, workspaceId: string): Promise<void> {
    await database.db.insertInto('knowledge_bases').values({ id, workspace_id: workspaceId, name: id, embedding_model: 'text-embedding-3-small', chunking: '{}' }).execute();
    await database.db
      .insertInto('knowledge_documents')
      .values({ id: `${id}-doc`, knowledge_base_id: id, name: 'a.txt', mime_type: 'text/plain', file_size: 10, character_count: 10 })
      .execute();
  }

  const memoryKeys = async () => (await database.db.selectFrom('memories').select(['workflow_id', 'key']).orderBy('workflow_id').execute()).map((r) => `${r.workflow_id}/${r.key}`);
  const baseIds = async () => (await database.db.selectFrom('knowledge_bases').select('id').orderBy('id').execute()).map((r) => r.id);
  const documentIds = async () => (await database.db.selectFrom('knowledge_documents').select('id').orderBy('id').execute()).map((r) => r.id);

  it('drops a deleted workflow’s memories and a deleted workspace’s knowledge bases with their documents, and nothing else', async () => {
    for (const [id, workflowId] of [['m1', 'wf-gone'], ['m2', 'wf-gone'], ['m3', 'wf-kept']] as const) {
      await database.db.insertInto('memories').values({ id, workflow_id: workflowId, key: id, type: 'agent', data: '[]' }).execute();
    }
    await addBase('kb-gone', 'ws-gone');
    await addBase('kb-kept', 'ws-kept');

    // Other registry events (a rename, a created workflow) change nothing here.
    await publish('workspace', 'ws-kept', 'workspaceRenamed', { workspace: { id: 'ws-kept', name: 'New name' } });
    await publish('workflow', 'wf-gone', 'workflowDeleted', { workflow: { id: 'wf-gone', workspaceId: 'ws-gone' } });
    await publish('workspace', 'ws-gone', 'workspaceDeleted', { workspace: { id: 'ws-gone' } });
    await expect.poll(memoryKeys, { timeout: 15_000 }).toEqual(['wf-kept/m3']);
    await expect.poll(baseIds, { timeout: 15_000 }).toEqual(['kb-kept']);
    expect(await documentIds()).toEqual(['kb-kept-doc']);

    // A redelivered deletion finds nothing more to delete; the next event (handled after it) shows it was handled.
    await addBase('kb-new', 'ws-kept');
    await publish('workspace', 'ws-gone', 'workspaceDeleted', { workspace: { id: 'ws-gone' } });
    await publish('workflow', 'wf-kept', 'workflowDeleted', { workflow: { id: 'wf-kept' } });
    await expect.poll(memoryKeys, { timeout: 15_000 }).toEqual([]);
    expect(await baseIds()).toEqual(['kb-kept', 'kb-new']);
  });
});
