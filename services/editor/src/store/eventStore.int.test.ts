import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { replay, type Command, type WorkflowEvent } from '@weft/workflow';
import { TEST_SNAPSHOT_EVERY, editorTestStore, testContextFactory } from '../testSupport.js';
import { createEventStore, projectState } from './eventStore.js';

type Env = Awaited<ReturnType<typeof editorTestStore>>;

async function counts(env: Env, workflowId: string) {
  const q = async (table: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref('workflow_id')} = ${workflowId}`.execute(env.db)).rows[0]?.n;
  const outbox = (await sql<{ n: number }>`select count(*)::int as n from outbox where envelope->'data'->>'workflowId' = ${workflowId}`.execute(env.db)).rows[0]?.n;
  return { events: await q('events'), processed: await q('processed_commands'), outbox };
}

async function versions(env: Env, workflowId: string): Promise<number[]> {
  const rows = await env.db.selectFrom('events').select('version').where('workflow_id', '=', workflowId).orderBy('version').execute();
  return rows.map((r) => Number(r.version));
}

const addFunction = (id: string, x = 0): Command => ({ type: 'addBlock', id, blockType: 'function', position: { x, y: 0 } });

describe('editor event store (real Postgres)', () => {
  let env: Env;
  beforeAll(async () => {
    env = await editorTestStore();
  });
  afterAll(async () => {
    await env?.database.drop();
  });

  it('keeps every edit of 50 concurrent writers on one workflow, with contiguous versions', async () => {
    await env.start('wf-50');
    const other = env.secondStore();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? env.store : other).execute('wf-50', [addFunction(`b${i}`, i), { type: 'moveBlock', id: `b${i}`, position: { x: i, y: i } }])),
    );
    const all = await versions(env, 'wf-50');
    expect(all).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.version)).size).toBe(50);
    const state = JSON.parse((await env.store.readState('wf-50'))?.stateJson ?? '{}') as { blocks: Record<string, { position: { x: number } }> };
    for (let i = 0; i < 50; i++) expect(state.blocks[`b${i}`]?.position).toEqual({ x: i, y: i });
    expect(Object.keys(state.blocks)).toHaveLength(51);
  });

  it('writes edits of many workflows made at once together, each applied once, even when one of them repeats a command id', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `wf-many-${i}`);
    for (const [i, id] of ids.entries()) {
      await env.start(id);
      await env.store.execute(id, [addFunction(i === 0 ? 'a' : `f${i}`, i)]); // so the cache is warm: the fast path
    }
    const retried: Command = { type: 'moveBlock', id: 'a', position: { x: 5, y: 5 } };
    const first = await env.store.execute('wf-many-0', [retried], { commandId: 'again' });
    const before = await Promise.all(ids.map((id) => versions(env, id)));
    // One turn: a retry of a processed command id (its shared statement fails on the duplicate id,
    // then every append is tried on its own) and a fresh edit on each other workflow.
    const answers = await Promise.all(ids.map((id, i) => (i === 0 ? env.store.execute(id, [retried], { commandId: 'again' }) : env.store.execute(id, [{ type: 'moveBlock', id: `f${i}`, position: { x: i, y: 1 } }], { commandId: `c-${i}` }))));
    expect(answers[0]).toEqual(first);
    for (const [i, id] of ids.entries()) {
      const after = await versions(env, id);
      expect(after).toEqual(i === 0 ? before[i] : [...(before[i] ?? []), (before[i]?.length ?? 0) + 1]);
      expect(await env.store.readState(id)).toEqual({ version: after.length, stateJson: expect.any(String) });
      expect(JSON.parse((await env.store.readState(id))?.stateJson ?? '{}')).toEqual(JSON.parse(JSON.stringify(projectState((await env.store.loadFull(id)) ?? replay([])))));
    }
    // And a turn with no repeat shares one statement: all applied, versions contiguous.
    await Promise.all(ids.map((id, i) => env.store.execute(id, [{ type: 'moveBlock', id: i === 0 ? 'a' : `f${i}`, position: { x: 9, y: 9 } }])));
    for (const id of ids) expect(await versions(env, id)).toEqual(Array.from({ length: (await versions(env, id)).length }, (_, v) => v + 1));
  });

  it('publishes each event with the fingerprint of the state its command left, and stores the event without it', async () => {
    await env.start('wf-fp');
    await env.store.execute('wf-fp', [addFunction('f')]);
    await env.store.execute('wf-fp', [{ type: 'moveBlock', id: 'f', position: { x: 40, y: 40 } }]);
    await env.store.execute('wf-fp', [{ type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 1' }, { type: 'moveBlock', id: 'f', position: { x: 9, y: 9 } }]);
    await env.store.execute('wf-fp', [{ type: 'undo' }, { type: 'undo' }]);
    const published = await sql<{ type: string; fingerprint: string | null }>`
      select envelope->>'type' as type, envelope->'data'->>'fingerprint' as fingerprint from outbox
      where envelope->'data'->>'workflowId' = 'wf-fp' order by seq`.execute(env.db);
    const [started, added, moved, valueSet, movedAgain, undone, undoneAgain] = published.rows;
    expect(published.rows.map((r) => r.type)).toEqual(['workflowStarted', 'blockAdded', 'blockMoved', 'subBlockValueSet', 'blockMoved', 'undone', 'undone']);
    expect(started?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(added?.fingerprint).not.toBe(started?.fingerprint);
    expect(moved?.fingerprint).toBe(added?.fingerprint); // layout only
    expect(valueSet?.fingerprint).not.toBe(moved?.fingerprint);
    expect(movedAgain?.fingerprint).toBe(valueSet?.fingerprint); // the same command
    expect(undone?.fingerprint).toBe(added?.fingerprint); // undone back to before the value
    expect(undoneAgain?.fingerprint).toBe(added?.fingerprint);
    const stored = await sql<{ n: number }>`select count(*)::int as n from events where workflow_id = 'wf-fp' and data ? 'fingerprint'`.execute(env.db);
    expect(stored.rows[0]?.n).toBe(0);
  });

  it('answers a repeated command id with the first answer and stores nothing new', async () => {
    await env.start('wf-idem');
    const first = await env.store.execute('wf-idem', [addFunction('x')], { commandId: 'cmd-1' });
    const before = await counts(env, 'wf-idem');
    const again = await env.store.execute('wf-idem', [addFunction('y')], { commandId: 'cmd-1' });
    const concurrent = await Promise.all([1, 2, 3].map(() => env.store.execute('wf-idem', [addFunction('z')], { commandId: 'cmd-2' })));
    expect(again).toEqual(first);
    expect(concurrent[1]).toEqual(concurrent[0]);
    expect(concurrent[2]).toEqual(concurrent[0]);
    const after = await counts(env, 'wf-idem');
    expect(after.events).toBe((before.events ?? 0) + 1);
    expect(after.processed).toBe(2);
  });

  it('refuses a stale expectedVersion with the current version', async () => {
    await env.start('wf-stale');
    const { version } = await env.store.execute('wf-stale', [addFunction('a')]);
    await expect(env.store.execute('wf-stale', [addFunction('b')], { expectedVersion: version - 1 })).rejects.toMatchObject({
      code: 'conflict',
      details: { currentVersion: version },
    });
    await expect(env.store.execute('wf-stale', [addFunction('b')], { expectedVersion: version })).resolves.toMatchObject({ version: version + 1 });
  });

  it('stores nothing for a rejected command, even inside a batch that began well', async () => {
    await env.start('wf-reject');
    const before = await counts(env, 'wf-reject');
    const state = await env.store.readState('wf-reject');
    await expect(
      env.store.execute('wf-reject', [addFunction('ok'), { type: 'addBlock', blockType: 'no_such_block', position: { x: 0, y: 0 } }], { commandId: 'r1' }),
    ).rejects.toMatchObject({ code: 'validation' });
    expect(await counts(env, 'wf-reject')).toEqual(before);
    expect(await env.store.readState('wf-reject')).toEqual(state);
  });

  it('loads the same state from snapshot + tail as from a full replay, with a lean snapshot', async () => {
    await env.start('wf-snap');
    for (let i = 0; i < 30; i++) await env.store.execute('wf-snap', [addFunction(`s${i}`, i)]);
    for (let i = 0; i < TEST_SNAPSHOT_EVERY * 2; i++) {
      const id = `s${i % 30}`;
      await env.store.execute('wf-snap', [
        i % 7 === 3 ? { type: 'undo' } : { type: 'setSubBlockValue', id, subBlockId: 'code', value: `return ${i}` },
      ]);
    }
    await env.store.flushSnapshots();
    const rows = await env.db.selectFrom('events').select('data').where('workflow_id', '=', 'wf-snap').orderBy('version').execute();
    const full = replay(rows.map((r) => r.data as WorkflowEvent));
    const snap = await env.db.selectFrom('snapshots').select(['version', sql<number>`length(state::text)`.as('size')]).where('workflow_id', '=', 'wf-snap').executeTakeFirst();
    expect(Number(snap?.version)).toBeGreaterThanOrEqual(TEST_SNAPSHOT_EVERY * 2);
    expect(snap?.size).toBeLessThan(JSON.stringify(full).length / 5);
    env.store.clearCache();
    expect(await env.store.loadFull('wf-snap')).toEqual(full);
    // And the next command decided on the loaded state lands where the replay says it should.
    const next = await env.store.execute('wf-snap', [{ type: 'undo' }]);
    expect(next.events.map((e) => e.type)).toEqual(full.history.past.length > 0 ? ['undone'] : []);
    expect(JSON.parse((await env.store.readState('wf-snap'))?.stateJson ?? '{}')).toEqual(JSON.parse(JSON.stringify(projectState(replay(next.events.map((e) => e.data), full)))));
  });

  it('refuses, loudly, to load a workflow whose stored events include a type this build does not know', async () => {
    await env.start('wf-newer');
    await env.store.execute('wf-newer', [addFunction('a')]);
    // A newer editor instance (mid-deploy) stored an event this build has never heard of.
    const data = { type: 'blockRecoloured', at: 2_000, id: 'a', colour: '#f00' };
    await env.db.insertInto('events').values({ workflow_id: 'wf-newer', version: 3, type: data.type, data: JSON.stringify(data), occurred_at: new Date() }).execute();
    await env.db.updateTable('streams').set({ version: 3 }).where('workflow_id', '=', 'wf-newer').execute();
    const told: unknown[] = [];
    const older = createEventStore({ db: env.db, instance: 'test', context: testContextFactory(), snapshotEvery: TEST_SNAPSHOT_EVERY, onUnknownEvent: (e) => told.push(e) });
    const refusal = { code: 'unavailable', message: 'Workflow wf-newer has an event this editor does not know (blockRecoloured, version 3); a newer Weft wrote it' };
    await expect(older.current('wf-newer')).rejects.toMatchObject(refusal);
    expect(told).toEqual([{ workflowId: 'wf-newer', version: 3, type: 'blockRecoloured' }]);
    // No edit is decided on a state that missed it: the command is refused and nothing is written.
    await expect(older.execute('wf-newer', [{ type: 'moveBlock', id: 'a', position: { x: 1, y: 1 } }])).rejects.toMatchObject(refusal);
    expect(await versions(env, 'wf-newer')).toEqual([1, 2, 3]);
  });
});
