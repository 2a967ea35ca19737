import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import type { Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createExecution, getExecutionValue, storeValue, withBlobs } from './executionsStore.js';

describe('values kept aside under a key (Postgres)', () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase<RunnerDB>('storevalue', migrations);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const rows = (executionId: string) => database.db.selectFrom('run_blobs').select(['ref', 'value', 'bytes']).where('execution_id', '=', executionId).orderBy('ref').execute();

  it('keeps one row per key: a second store (a retried activity) replaces the value and its bytes', async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-1', trigger: 'manual', input: null });
    const key = '0123456789abcdef0123456789abcdef';
    const first = await storeValue(database.db, id, JSON.stringify('x'.repeat(5_000)), key);
    const second = await storeValue(database.db, id, JSON.stringify({ body: 'é'.repeat(100) }), key);
    expect(first.$blobRef).toBe(`${id}/${key}`);
    expect(second).toEqual({ $blobRef: first.$blobRef, bytes: Buffer.byteLength(JSON.stringify({ body: 'é'.repeat(100) })) });
    expect(await rows(id)).toEqual([{ ref: `${id}/${key}`, value: { body: 'é'.repeat(100) }, bytes: second.bytes }]);
    // Every reader of the ref sees the last value.
    expect(await getExecutionValue(database.db, id, first.$blobRef)).toEqual({ body: 'é'.repeat(100) });
    expect(await withBlobs(database.db, { out: first })).toEqual({ out: { body: 'é'.repeat(100) } });
  });

  it('keeps every store apart without a key, and other keys in their own slots', async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-1', trigger: 'manual', input: null });
    const a = await storeValue(database.db, id, '"a"');
    const b = await storeValue(database.db, id, '"a"');
    await storeValue(database.db, id, '"output"', 'aa');
    await storeValue(database.db, id, '"failure"', 'bb');
    expect(a.$blobRef).not.toBe(b.$blobRef);
    expect((await rows(id)).map((r) => r.value)).toEqual(expect.arrayContaining(['a', 'a', 'output', 'failure']));
    expect(await rows(id)).toHaveLength(4);
  });

  it('refuses a key that is not lower-case hex (a `/` would leave the run’s refs), naming the field', async () => {
    const id = `run-${uniqueSuffix()}`;
    for (const key of ['', 'a/b', '../x', 'ABCDEF', 'f'.repeat(65)]) {
      await expect(storeValue(database.db, id, '"v"', key)).rejects.toMatchObject({ code: 'validation', message: 'key must be 1-64 lower-case hex characters' });
    }
    expect(await rows(id)).toEqual([]);
  });
});
