import { describe, expect, it, inject } from 'vitest';
import { decodeSnapshot, replay, type WorkflowEvent } from '@weft/workflow';
import { api, defaultCookie } from './support/http.js';

interface StoredEvent {
  version: number;
  type: string;
  data: WorkflowEvent;
}
interface WorkflowBody {
  data: { version: number; state: { blocks: Record<string, { id: string; type: string; name: string; position: { x: number; y: number } }>; edges: unknown[] } };
}

/** The caller's first workspace, made when there is none. */
async function workspaceId(): Promise<string> {
  const listed = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  const first = listed.body.workspaces[0];
  if (first) return first.id;
  const made = await api<{ id?: string; workspace?: { id: string } }>('POST', '/api/workspaces', { name: 'Editor e2e' });
  const id = made.body.workspace?.id ?? made.body.id;
  if (!id) throw new Error(`could not make a workspace: ${made.status} ${JSON.stringify(made.body)}`);
  return id;
}

async function newWorkflow(): Promise<{ id: string; workspaceId: string; starterId: string; version: number }> {
  const workspace = await workspaceId();
  const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: workspace });
  const got = await api<WorkflowBody>('GET', `/api/workflows/${created.body.id}`);
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter');
  return { id: created.body.id, workspaceId: workspace, starterId: starter?.id ?? '', version: got.body.data.version };
}

async function state(id: string) {
  return (await api<WorkflowBody>('GET', `/api/workflows/${id}`)).body.data;
}

/** A minimal EventSource: reads `id:`/`data:` frames from the gateway's SSE stream; `headers` as a reconnect sends them. */
function openStream(id: string, after: number, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const events: StoredEvent[] = [];
  const ready = defaultCookie().then((cookie) => fetch(`${inject('weftUrl')}/api/workflows/${id}/events?after=${after}`, { headers: { accept: 'text/event-stream', cookie, ...headers }, signal: controller.signal })).then(async (res) => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body?.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const chunk = await reader?.read();
          if (!chunk || chunk.done) return;
          buffer += decoder.decode(chunk.value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame.split('\n').find((l) => l.startsWith('data: '));
            if (data) events.push(JSON.parse(data.slice(6)) as StoredEvent);
          }
        }
      } catch {
        // aborted
      }
    })();
  });
  return {
    events,
    ready,
    async until(version: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while ((events.at(-1)?.version ?? 0) < version) {
        if (Date.now() > deadline) throw new Error(`stream stopped at ${events.at(-1)?.version ?? 0}, wanted ${version}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => controller.abort(),
  };
}

describe('the event-sourced editor through the gateway (issue 3)', () => {
  it('answers 409 with the current version for a stale expectedVersion, and the first answer for a repeated commandId', async () => {
    const { id, version } = await newWorkflow();
    const cmd = { commands: [{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 1, y: 2 } }], commandId: 'c-1', expectedVersion: version };
    const first = await api<{ version: number; events: StoredEvent[] }>('POST', `/api/workflows/${id}/commands`, cmd);
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(version + 1);
    const retry = await api('POST', `/api/workflows/${id}/commands`, cmd);
    expect(retry).toEqual(first);
    const stale = await api('POST', `/api/workflows/${id}/commands`, { ...cmd, commandId: 'c-2' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ currentVersion: version + 1 });
    expect((await state(id)).version).toBe(version + 1);
  });

  it('answers each of many simultaneous edits on its own: refusals, conflicts and retries do not touch the others', async () => {
    const { id, version } = await newWorkflow();
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 0, y: 0 } }] });
    const moves = Array.from({ length: 24 }, (_, i) => ({ commands: [{ type: 'moveBlock', id: 'fn', position: { x: i, y: i } }], commandId: `move-${i}` }));
    const refused = { commands: [{ type: 'setParent', id: 'missing', parentId: null }] };
    const stale = { commands: [{ type: 'moveBlock', id: 'fn', position: { x: -1, y: -1 } }], expectedVersion: version };
    const answers = await Promise.all([...moves, refused, stale, moves[3]].map((body) => api<{ version: number; error?: string; currentVersion?: number }>('POST', `/api/workflows/${id}/commands`, body)));
    const moved = answers.slice(0, 24);
    expect(moved.every((a) => a.status === 200)).toBe(true);
    const versions = moved.map((a) => a.body.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 24 }, (_, i) => version + 2 + i));
    expect(answers[24]).toEqual({ status: 404, body: { error: 'Cannot set parent: Block not found' } });
    expect(answers[25]).toMatchObject({ status: 409, body: { currentVersion: expect.any(Number) } });
    // The repeated command id answers the first answer.
    expect(answers[26]).toEqual(answers[3]);
    expect((await state(id)).version).toBe(version + 25);
  });

  it('lists history with action labels and undoes through it', async () => {
    const { id } = await newWorkflow();
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 0, y: 0 } }] });
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'moveBlock', id: 'a', position: { x: 50, y: 50 } }] });
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'undo' }] });
    const history = await api<{ past: Array<{ action: string }>; present: { action: string; timestamp: number }; future: Array<{ action: string; index: number }> }>('GET', `/api/workflows/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body.past.map((p) => p.action)).toEqual(['Initial state']);
    expect(history.body.present.timestamp).toBeGreaterThan(0);
    expect(history.body.future).toHaveLength(1);
    expect((await state(id)).state.blocks['a']?.position).toEqual({ x: 0, y: 0 });
  });

  it('replaces variables in one event and answers them as a map with §5 validation', async () => {
    const { id } = await newWorkflow();
    const before = (await state(id)).version;
    const saved = await api('POST', `/api/workflows/${id}/variables`, {
      variables: [
        { id: 'v1', name: 'count', type: 'number', value: 'abc' },
        { id: 'v2', name: '', type: 'string', value: 'hi' },
      ],
    });
    expect(saved.status).toBe(200);
    const got = await api<{ data: Record<string, { name: string; type: string; validationError?: string }> }>('GET', `/api/workflows/${id}/variables`);
    expect(got.body.data['v1']).toMatchObject({ name: 'count', type: 'number', validationError: 'Not a valid number' });
    expect(got.body.data['v2']).toMatchObject({ type: 'plain' });
    expect((await state(id)).version).toBe(before + 1);
  });

  it('exports and imports YAML; invalid YAML names the line and changes nothing', async () => {
    const { id } = await newWorkflow();
    const exported = await api<{ yaml: string }>('GET', `/api/workflows/${id}/yaml`);
    expect(exported.body.yaml).toContain('starter');
    const before = (await state(id)).version;
    const bad = await api<{ success: boolean; message: string }>('PUT', `/api/workflows/${id}/yaml`, { yamlContent: 'version: 1\nblocks:\n  a: [unclosed', source: 'copilot' });
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toMatch(/line \d+/i);
    expect((await state(id)).version).toBe(before);
    const yamlContent = 'version: "1.0"\nblocks:\n  start:\n    type: starter\n    name: Start\n    connections: [fn]\n  fn:\n    type: function\n    name: Fn\n    inputs:\n      code: return 1\n';
    const good = await api<{ success: boolean; message: string }>('PUT', `/api/workflows/${id}/yaml`, { yamlContent, description: 'from test', source: 'copilot', applyAutoLayout: true, createCheckpoint: true });
    expect(good.body).toMatchObject({ success: true });
    const after = await state(id);
    expect(Object.keys(after.state.blocks).sort()).toEqual(['fn', 'start']);
    expect(after.state.edges).toHaveLength(1);
    const guide = await api<{ success: boolean; data: unknown }>('POST', '/api/tools/get-yaml-structure', {});
    expect(guide.body.success).toBe(true);
    expect(guide.body.data).toBeTruthy();
  });

  it('replaces each named workflow state with POST /api/workflows/sync', async () => {
    const { id, workspaceId, starterId } = await newWorkflow();
    const current = await state(id);
    const blocks = { ...current.state.blocks, fn: { id: 'fn', type: 'function', name: 'Function 1', position: { x: 300, y: 100 } } };
    const res = await api<{ success: boolean; results: Record<string, { version: number }> }>('POST', '/api/workflows/sync', {
      workspaceId,
      workflows: { [id]: { id, state: { blocks, edges: [{ id: 'e1', source: starterId, target: 'fn' }] } } },
    });
    expect(res.body.success).toBe(true);
    expect(res.body.results[id]?.version).toBe(current.version + 1);
    const after = await state(id);
    expect(after.state.blocks['fn']).toMatchObject({ name: 'Function 1', enabled: true });
    expect(after.state.edges).toEqual([{ id: 'e1', source: starterId, target: 'fn' }]);
  });

  it('refuses a second starter block with a 4xx naming it: commands, duplicate and sync; a YAML import keeps the first and says so (issue 13)', async () => {
    const { id, workspaceId, starterId } = await newWorkflow();
    const before = await state(id);
    const already = `A workflow can have only one starter block: it already has "Start" (${starterId})`;
    const added = await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 's2', blockType: 'starter', position: { x: 0, y: 300 } }] });
    expect(added).toEqual({ status: 400, body: { error: already } });
    const duplicated = await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'duplicateBlock', id: starterId }] });
    expect(duplicated).toEqual({ status: 400, body: { error: already } });

    const second = { ...before.state.blocks[starterId], id: 's2', name: 'Start 2' };
    const synced = await api<{ success: boolean; results: Record<string, { error?: string }> }>('POST', '/api/workflows/sync', {
      workspaceId,
      workflows: { [id]: { state: { blocks: { ...before.state.blocks, s2: second }, edges: [] } } },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toEqual({
      success: false,
      results: { [id]: { error: `Invalid command: blocks: a workflow can have only one starter block, found 2: "Start" (${starterId}), "Start 2" (s2)` } },
    });

    const untouched = await state(id);
    expect(untouched.version).toBe(before.version);
    expect(Object.values(untouched.state.blocks).filter((b) => b.type === 'starter').map((b) => b.id)).toEqual([starterId]);

    // A YAML import keeps the document's first starter and leaves the later one out, saying so.
    const yamlContent = 'blocks:\n  start:\n    type: starter\n    name: Start\n  again:\n    type: starter\n    name: Start 2\n';
    const yaml = await api('PUT', `/api/workflows/${id}/yaml`, { yamlContent, source: 'copilot' });
    expect(yaml).toEqual({
      status: 200,
      body: {
        success: true,
        message: 'Workflow saved from YAML: 1 blocks, 0 connections',
        version: before.version + 1,
        warnings: ['Left out starter block "Start 2" (again): a workflow can have only one starter block, and "Start" (start) is kept'],
      },
    });
    const after = await state(id);
    expect(Object.values(after.state.blocks).filter((b) => b.type === 'starter').map((b) => b.id)).toEqual(['start']);
  });

  it('refuses a trigger block inside a loop or parallel with a 400 naming the field and the block (commands, sync); a YAML import lifts it out', async () => {
    const { id, workspaceId, starterId } = await newWorkflow();
    const post = (commands: unknown[]) => api('POST', `/api/workflows/${id}/commands`, { commands });
    const nested = (name: string, blockId: string, type: string) => `"${name}" (${blockId}) is a trigger block (${type}); a trigger cannot be placed inside a loop or parallel`;
    expect((await post([{ type: 'addBlock', id: 'lp', blockType: 'loop', position: { x: 400, y: 0 } }, { type: 'addBlock', id: 'sch', blockType: 'schedule', name: 'Nightly', position: { x: 0, y: 300 } }])).status).toBe(200);
    const before = await state(id);

    const added = await post([{ type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 20, y: 40 }, parentId: 'lp' }]);
    expect(added).toEqual({ status: 400, body: { error: `Invalid command: parentId: ${nested('Hook', 'hook', 'webhook')}` } });
    expect(await post([{ type: 'setParent', id: 'sch', parentId: 'lp' }])).toEqual({ status: 400, body: { error: `Invalid command: parentId: ${nested('Nightly', 'sch', 'schedule')}` } });
    expect(await post([{ type: 'setParent', id: starterId, parentId: 'lp' }])).toEqual({ status: 400, body: { error: `Invalid command: parentId: ${nested('Start', starterId, 'starter')}` } });

    const sch = before.state.blocks['sch'];
    const synced = await api<{ success: boolean; results: Record<string, { error?: string }> }>('POST', '/api/workflows/sync', {
      workspaceId,
      workflows: { [id]: { state: { blocks: { ...before.state.blocks, sch: { ...sch, data: { parentId: 'lp', extent: 'parent' } } }, edges: [] } } },
    });
    expect(synced.body).toEqual({ success: false, results: { [id]: { error: `Invalid command: blocks.sch.data.parentId: ${nested('Nightly', 'sch', 'schedule')}` } } });

    const yamlContent = 'blocks:\n  start:\n    type: starter\n    name: Start\n  lp:\n    type: loop\n    name: Loop 1\n  hook:\n    type: webhook\n    name: Hook\n    parentId: lp\n';
    expect((await state(id)).version).toBe(before.version);
    // A YAML import (our export of a workflow stored before the rule must import) lifts the trigger to the top level instead.
    const yaml = await api('PUT', `/api/workflows/${id}/yaml`, { yamlContent, source: 'copilot' });
    expect(yaml.status).toBe(200);
    const imported = (await state(id)).state.blocks['hook'] as { type: string; data?: { parentId?: string } } | undefined;
    expect(imported?.type).toBe('webhook');
    expect(imported?.data?.parentId).toBeUndefined();
  });

  it("takes one request's commands back with one undo: a paste of blocks and their edge is one history entry", async () => {
    const { id } = await newWorkflow();
    const post = (commands: unknown[]) => api<{ version: number }>('POST', `/api/workflows/${id}/commands`, { commands });
    const before = await state(id);
    await post([
      { type: 'addBlock', id: 'p1', blockType: 'function', position: { x: 0, y: 300 } },
      { type: 'addBlock', id: 'p2', blockType: 'function', position: { x: 300, y: 300 } },
      { type: 'addEdge', id: 'pe', source: 'p1', target: 'p2' },
    ]);
    const history = await api<{ past: Array<{ action: string }>; present: { action: string } }>('GET', `/api/workflows/${id}/history`);
    expect([...history.body.past.map((p) => p.action), history.body.present.action]).toEqual(['Initial state', 'Add function block']);
    await post([{ type: 'undo' }]);
    const after = await state(id);
    expect(Object.keys(after.state.blocks)).toEqual(Object.keys(before.state.blocks));
    expect(after.state.edges).toEqual([]);
  });

  it('takes ids named like built-ins (constructor, toString) as ordinary ids: 404 while missing, then a block and variable like any other; 400 naming the field for "__proto__"', async () => {
    const { id } = await newWorkflow();
    const post = (commands: unknown[]) => api<{ error?: string }>('POST', `/api/workflows/${id}/commands`, { commands });
    await post([{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 0, y: 300 } }]);
    expect(await post([{ type: 'addEdge', source: 'constructor', target: 'fn' }])).toEqual({ status: 404, body: { error: 'Block constructor not found' } });
    expect((await post([{ type: 'renameBlock', id: 'toString', name: 'X' }])).status).toBe(404);
    expect((await post([{ type: 'setSubBlockValue', id: 'toString', subBlockId: 'code', value: 'x' }])).status).toBe(404);
    expect((await post([{ type: 'removeBlock', id: 'constructor' }])).status).toBe(404);
    expect((await post([{ type: 'updateVariable', id: 'toString', name: 'x' }])).status).toBe(404);
    expect((await state(id)).state.edges).toEqual([]);

    const added = await post([
      { type: 'addBlock', id: 'constructor', blockType: 'function', position: { x: 300, y: 300 } },
      { type: 'addEdge', id: 'ce', source: 'constructor', target: 'fn' },
      { type: 'renameBlock', id: 'constructor', name: 'Builder' },
      { type: 'addVariable', id: 'toString', name: 'count', variableType: 'number', value: 1 },
      { type: 'updateVariable', id: 'toString', value: 2 },
    ]);
    expect(added.status).toBe(200);
    const after = await state(id);
    expect(after.state.blocks['constructor']).toMatchObject({ id: 'constructor', name: 'Builder' });
    expect(after.state.edges).toEqual([expect.objectContaining({ id: 'ce', source: 'constructor', target: 'fn' })]);
    const variables = await api<{ data: Record<string, unknown> }>('GET', `/api/workflows/${id}/variables`);
    expect(Object.keys(variables.body.data)).toEqual(['toString']);
    expect(variables.body.data['toString']).toMatchObject({ id: 'toString', name: 'count', value: 2 });
    expect((await post([{ type: 'removeBlock', id: 'constructor' }])).status).toBe(200);
    expect((await state(id)).state.edges).toEqual([]);

    const proto = await post([{ type: 'renameBlock', id: '__proto__', name: 'X' }]);
    expect(proto.status).toBe(400);
    expect(proto.body.error).toContain('id: "__proto__" cannot be an id');
    expect((await post([{ type: 'updateVariable', id: '__proto__', name: 'x' }])).status).toBe(400);
  });

  it('answers the full state with its history at the stream version, equal to replaying every event; 404 for an unknown workflow', async () => {
    const { id } = await newWorkflow();
    const post = (commands: unknown[]) => api('POST', `/api/workflows/${id}/commands`, { commands });
    for (let i = 0; i < 8; i++) {
      await post([{ type: 'addBlock', id: `fn${i}`, blockType: 'function', position: { x: i * 10, y: 0 } }]);
      await post([{ type: 'setSubBlockValue', id: `fn${i}`, subBlockId: 'code', value: `return ${i}` }]);
      await post([{ type: 'moveBlock', id: `fn${i}`, position: { x: i * 10, y: 50 } }]);
    }
    await post([{ type: 'undo' }]);
    await post([{ type: 'undo' }]);
    await post([{ type: 'redo' }]);
    await post([{ type: 'renameBlock', id: 'fn1', name: 'Renamed' }]);
    await post([{ type: 'undo' }]);

    const got = await api<{ version: number; state: unknown }>('GET', `/api/workflows/${id}/state`);
    expect(got.status).toBe(200);
    const events: StoredEvent[] = [];
    for (let after = 0; ; ) {
      const page = await api<{ events: StoredEvent[]; version: number }>('GET', `/api/workflows/${id}/events?after=${after}`, undefined, { accept: 'application/json' });
      events.push(...page.body.events);
      after = page.body.events.at(-1)?.version ?? page.body.version;
      if (after >= page.body.version) break;
    }
    expect(got.body.version).toBe(events.at(-1)?.version);
    expect(got.body.version).toBe((await state(id)).version);
    const decoded = decodeSnapshot(got.body.state);
    const replayed = JSON.parse(JSON.stringify(replay(events.map((e) => e.data)))) as object;
    // The deployment flags are the registry's (never deployed here: the same), with §3's per-workflow status beside them.
    expect(decoded).toEqual({ ...replayed, deploymentStatuses: { [id]: { isDeployed: false, deployedAt: null, apiKey: null, needsRedeployment: false } } });
    expect(decoded.history.future).toHaveLength(1);
    expect(decoded.history.past.length).toBeGreaterThan(10);
    expect(decoded.blocks['fn1']?.name).not.toBe('Renamed');

    expect(await api('GET', '/api/workflows/no-such-workflow/state')).toEqual({ status: 404, body: { error: 'Workflow no-such-workflow not found' } });
  });

  it('answers events as JSON with contiguous versions', async () => {
    const { id } = await newWorkflow();
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'a', blockType: 'function', position: { x: 0, y: 0 } }, { type: 'toggleEnabled', id: 'a' }] });
    const all = await api<{ events: StoredEvent[] }>('GET', `/api/workflows/${id}/events?after=0`, undefined, { accept: 'application/json' });
    expect(all.body.events.map((e) => e.version)).toEqual([1, 2, 3]);
    const tail = await api<{ events: StoredEvent[] }>('GET', `/api/workflows/${id}/events?after=2`, undefined, { accept: 'application/json' });
    expect(tail.body.events.map((e) => [e.version, e.type])).toEqual([[3, 'blockEnabledToggled']]);
  });

  it('resumes an SSE stream from Last-Event-ID, not the ?after= a reconnecting EventSource keeps; a bad position is a 400 naming it', async () => {
    const { id, version } = await newWorkflow();
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'a', blockType: 'function', position: { x: 0, y: 0 } }, { type: 'toggleEnabled', id: 'a' }, { type: 'toggleEnabled', id: 'a' }] });
    const seen = version + 1;
    const resumed = openStream(id, 0, { 'last-event-id': String(seen) });
    await resumed.ready;
    await resumed.until(version + 3);
    resumed.close();
    expect(resumed.events.map((e) => e.version)).toEqual([version + 2, version + 3]);
    const json = { accept: 'application/json' };
    const badHeader = await api<{ error: string }>('GET', `/api/workflows/${id}/events?after=0`, undefined, { ...json, 'last-event-id': 'abc' });
    expect(badHeader).toEqual({ status: 400, body: { error: 'Last-Event-ID must be a non-negative integer' } });
    const badAfter = await api<{ error: string }>('GET', `/api/workflows/${id}/events?after=-1`, undefined, json);
    expect(badAfter).toEqual({ status: 400, body: { error: 'after must be a non-negative integer' } });
  });

  it('keeps two SSE clients editing one workflow converged on the stored state', async () => {
    const { id, version } = await newWorkflow();
    const alice = openStream(id, 0);
    const bob = openStream(id, 0);
    await Promise.all([alice.ready, bob.ready]);
    const edits = (who: string) =>
      Array.from({ length: 10 }, (_, i) => [
        { type: 'addBlock', id: `${who}${i}`, blockType: 'function', position: { x: i, y: 0 } },
        { type: 'setSubBlockValue', id: `${who}${i}`, subBlockId: 'code', value: `return ${i}` },
      ]);
    await Promise.all(
      ['a', 'b'].map(async (who) => {
        for (const commands of edits(who)) {
          const res = await api('POST', `/api/workflows/${id}/commands`, { commands });
          expect(res.status).toBe(200);
        }
      }),
    );
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'undo' }] });
    const final = await state(id);
    expect(final.version).toBe(version + 41);
    await Promise.all([alice.until(final.version), bob.until(final.version)]);
    alice.close();
    bob.close();
    expect(alice.events.map((e) => e.version)).toEqual(Array.from({ length: final.version }, (_, i) => i + 1));
    expect(bob.events).toEqual(alice.events);
    const folded = replay(alice.events.map((e) => e.data));
    expect(JSON.parse(JSON.stringify(folded.blocks))).toEqual(final.state.blocks);
    // The starter and 20 blocks, less the last request's: the undo takes its block and value back together.
    expect(Object.keys(folded.blocks)).toHaveLength(20);
  });
});
