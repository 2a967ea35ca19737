import { inject, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { decodeSnapshot, replay, type WorkflowEvent } from '@weft/workflow';
import { api } from './support/http.js';
import { ANONYMOUS, as, signUp, type TestUser } from './support/session.js';

interface Status {
  isDeployed: boolean;
  deployedAt: string | null;
  apiKey: string | null;
  needsRedeployment: boolean;
}

/** Runs `use` with a client on the stack's database (the registry's tables are in schema `registry`). */
async function withDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('weftEnv').DATABASE_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Fails when `secret` appears in any row of any registry table. */
async function expectNotInRegistryTables(client: pg.Client, secret: string): Promise<void> {
  const tables = await client.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'registry'");
  expect(tables.rows.map((t) => t.table_name)).toEqual(expect.arrayContaining(['workflows', 'environment_variables', 'outbox']));
  for (const { table_name } of tables.rows) {
    const dump = await client.query<{ text: string | null }>(`select string_agg(t::text, ' ') as text from registry."${table_name}" t`);
    expect(dump.rows[0]?.text ?? '').not.toContain(secret);
  }
}

/** `read` again until `ok` (30 s: the editor's events reach the registry late on a loaded machine); answers the last value. */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('accounts and workspaces', () => {
  it('signs up with a first workspace, signs out and signs in again', async () => {
    const user = await signUp('Ada Lovelace');
    const ws = await api<{ workspaces: Array<{ name: string; permission: string }> }>('GET', '/api/workspaces', undefined, user.headers);
    expect(ws.body.workspaces).toEqual([expect.objectContaining({ name: "Ada's Workspace", permission: 'admin' })]);
    const out = await fetch(`${inject('weftUrl')}/api/auth/sign-out`, { method: 'POST', headers: { ...user.headers, 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBe(200);
    expect((await api('GET', '/api/workspaces', undefined, user.headers)).status).toBe(401);
    const wrong = await fetch(`${inject('weftUrl')}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: 'nope-nope-nope' }) });
    expect(wrong.status).toBe(401);
    const signIn = await fetch(`${inject('weftUrl')}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: 'correct horse battery staple' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    expect((await api('GET', '/api/workspaces', undefined, { cookie })).status).toBe(200);
  });

  it('creates, renames and deletes workspaces and manages members with permissions', async () => {
    const [admin, other] = await Promise.all([signUp('Admin'), signUp('Other')]);
    const call = as(admin);
    const made = await call<{ workspace: { id: string; name: string; permission: string } }>('POST', '/api/workspaces', { name: 'Team' });
    expect(made.status).toBe(201);
    expect(made.body.workspace).toMatchObject({ name: 'Team', permission: 'admin' });
    const id = made.body.workspace.id;
    expect((await call<{ workspace: { name: string } }>('PUT', `/api/workspaces/${id}`, { name: 'Team B' })).body.workspace.name).toBe('Team B');
    expect((await call('POST', `/api/workspaces/${id}/members`, { email: 'missing@example.test', permission: 'read' })).body).toEqual({ error: 'No account with email missing@example.test' });
    expect((await call('POST', `/api/workspaces/${id}/members`, { email: other.email, permission: 'write' })).status).toBe(201);
    const perms = await api<{ permission: string; members: Array<{ email: string; permission: string }> }>('GET', `/api/workspaces/${id}/permissions`, undefined, other.headers);
    expect(perms.body.permission).toBe('write');
    expect(perms.body.members.map((m) => [m.email, m.permission]).sort()).toEqual([
      [admin.email, 'admin'],
      [other.email, 'write'],
    ].sort());
    expect((await call('PATCH', `/api/workspaces/${id}/members/${other.userId}`, { permission: 'read' })).status).toBe(200);
    expect((await call('PATCH', `/api/workspaces/${id}/members/${admin.userId}`, { permission: 'read' })).body).toEqual({ error: 'A workspace needs at least one admin' });
    expect((await call('DELETE', `/api/workspaces/${id}/members/${other.userId}`)).status).toBe(200);
    expect((await api('GET', `/api/workspaces/${id}/permissions`, undefined, other.headers)).body).toEqual({ error: 'Access denied to workspace' });
    // A change of permission does not make a removed member one again: that is an invitation by email.
    const readd = await call('PATCH', `/api/workspaces/${id}/members/${other.userId}`, { permission: 'write' });
    expect(readd).toEqual({ status: 404, body: { error: `userId ${other.userId} is not a member of this workspace` } });
    expect((await api('GET', `/api/workspaces/${id}/permissions`, undefined, other.headers)).status).toBe(403);
    expect((await call('DELETE', `/api/workspaces/${id}`)).status).toBe(200);
    const left = await call<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
    expect(left.body.workspaces.map((w) => w.id)).toEqual([admin.workspaceId]);
  });
});

describe('the first workspace', () => {
  /** What an account looks like to the registry when sign-up could not reach it: nothing at all. */
  async function forgetInRegistry(userId: string): Promise<void> {
    await withDatabase(async (client) => {
      await client.query('delete from registry.workspaces where owner_id = $1', [userId]);
      await client.query('delete from registry.initial_workspaces where user_id = $1', [userId]);
    });
  }

  it('is created by the first list of workspaces when sign-up could not create it, once for concurrent lists', async () => {
    const user = await signUp('Grace Hopper');
    await forgetInRegistry(user.userId);
    const lists = await Promise.all([1, 2, 3].map(() => api<{ workspaces: Array<{ id: string; name: string; permission: string }> }>('GET', '/api/workspaces', undefined, user.headers)));
    expect(lists.map((l) => l.status)).toEqual([200, 200, 200]);
    const made = lists[0]?.body.workspaces ?? [];
    expect(made).toEqual([expect.objectContaining({ name: "Grace's Workspace", permission: 'admin' })]);
    for (const l of lists) expect(l.body.workspaces.map((w) => w.id)).toEqual(made.map((w) => w.id));
    const wf = await api('POST', '/api/workflows', { workspaceId: made[0]?.id }, user.headers);
    expect(wf.status).toBe(201);
  });

  it('is not created again for a user who deleted their only workspace', async () => {
    const user = await signUp('Deleter');
    const call = as(user);
    expect((await call('DELETE', `/api/workspaces/${user.workspaceId}`)).status).toBe(200);
    expect((await call('GET', '/api/workspaces')).body).toEqual({ workspaces: [] });
    expect((await call('GET', '/api/workspaces')).body).toEqual({ workspaces: [] });
    const own = await call<{ workspace: { id: string } }>('POST', '/api/workspaces', { name: 'Fresh start' });
    expect((await call<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces')).body.workspaces.map((w) => w.id)).toEqual([own.body.workspace.id]);
  });
});

describe('the workflow registry', () => {
  let user: TestUser;
  let call: ReturnType<typeof as>;
  beforeAll(async () => {
    user = await signUp('Registry');
    call = as(user);
  });

  it('creates with defaults, updates partial metadata, lists and deletes', async () => {
    const created = await call<{ id: string; name: string; description: string; color: string; folderId: null }>('POST', '/api/workflows', { workspaceId: user.workspaceId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ description: 'New workflow', folderId: null });
    const market = await call<{ color: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId, marketplaceData: { id: 'm1', status: 'temp' } });
    expect(market.body.color).toBe('#808080');
    const missing = await call('POST', '/api/workflows', { workspaceId: 'no-such-workspace' });
    expect(missing).toEqual({ status: 404, body: { error: 'Workspace no-such-workspace not found' } });

    const folder = await call<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: user.workspaceId, name: 'Drafts' });
    const updated = await call<{ workflow: Record<string, unknown> }>('PUT', `/api/workflows/${created.body.id}`, { description: 'Sends a digest', folderId: folder.body.folder.id });
    expect(updated.status).toBe(200);
    expect(updated.body.workflow).toMatchObject({ name: created.body.name, description: 'Sends a digest', color: created.body.color, folderId: folder.body.folder.id });
    expect(typeof updated.body.workflow.updatedAt).toBe('string');

    const list = await call<{ data: Array<Record<string, unknown>> }>('GET', `/api/workflows?workspaceId=${user.workspaceId}`);
    const entry = list.body.data.find((w) => w.id === created.body.id);
    expect(entry).toMatchObject({ description: 'Sends a digest', workspaceId: user.workspaceId, folderId: folder.body.folder.id, isDeployed: false, deployedAt: null, apiKey: null, marketplaceData: null });
    expect(Object.keys(entry ?? {})).toEqual(expect.arrayContaining(['id', 'name', 'description', 'color', 'state', 'createdAt', 'marketplaceData', 'workspaceId', 'folderId', 'isDeployed', 'deployedAt', 'apiKey']));

    expect((await call('DELETE', `/api/workflows/${created.body.id}`)).status).toBe(200);
    expect((await call('GET', `/api/workflows/${created.body.id}`)).body).toEqual({ error: `Workflow ${created.body.id} not found` });
  });

  it('nests folders, and deleting one keeps its workflows at its parent', async () => {
    const top = await call<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: user.workspaceId, name: 'Top' });
    const sub = await call<{ folder: { id: string; parentId: string } }>('POST', '/api/folders', { workspaceId: user.workspaceId, name: 'Sub', parentId: top.body.folder.id });
    expect(sub.body.folder.parentId).toBe(top.body.folder.id);
    expect((await call('PUT', `/api/folders/${top.body.folder.id}`, { parentId: sub.body.folder.id })).body).toEqual({ error: 'A folder cannot be moved into itself or one of its subfolders' });
    const wf = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId, folderId: sub.body.folder.id });
    expect((await call('DELETE', `/api/folders/${sub.body.folder.id}`)).status).toBe(200);
    const got = await call<{ data: { folderId: string | null } }>('GET', `/api/workflows/${wf.body.id}`);
    expect(got.body.data.folderId).toBe(top.body.folder.id);
    const folders = await call<{ folders: Array<{ id: string }> }>('GET', `/api/folders?workspaceId=${user.workspaceId}`);
    expect(folders.body.folders.map((f) => f.id)).not.toContain(sub.body.folder.id);
  });

  it('duplicates metadata, state and variables and answers the counts', async () => {
    const src = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId, name: 'Source' });
    const state = await call<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${src.body.id}`);
    const starter = Object.values(state.body.data.state.blocks).find((b) => b.type === 'starter');
    const edit = await call('POST', `/api/workflows/${src.body.id}/commands`, {
      commands: [
        { type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 400, y: 100 } },
        { type: 'addBlock', id: 'loop1', blockType: 'loop', position: { x: 700, y: 100 } },
        { type: 'addEdge', source: starter?.id, target: 'fn' },
        { type: 'addVariable', name: 'greeting', variableType: 'plain', value: 'hi' },
      ],
    });
    expect(edit.status).toBe(200);
    const dup = await call<{ id: string; blocksCount: number; edgesCount: number; subflowsCount: number }>('POST', `/api/workflows/${src.body.id}/duplicate`, { name: 'Source (Copy)', workspaceId: user.workspaceId });
    expect(dup.status).toBe(201);
    expect(dup.body).toMatchObject({ blocksCount: 3, edgesCount: 1, subflowsCount: 1 });
    const copy = await call<{ data: { name: string; state: { blocks: Record<string, unknown>; edges: unknown[] } } }>('GET', `/api/workflows/${dup.body.id}`);
    expect(copy.body.data.name).toBe('Source (Copy)');
    expect(Object.keys(copy.body.data.state.blocks).sort()).toEqual(Object.keys(state.body.data.state.blocks).concat(['fn', 'loop1']).sort());
    const vars = await call<{ data: Record<string, { name: string; value: unknown }> }>('GET', `/api/workflows/${dup.body.id}/variables`);
    expect(Object.values(vars.body.data).map((v) => [v.name, v.value])).toEqual([['greeting', 'hi']]);
  });

  it('runs the deployment cycle: deploy → edit → needsRedeployment → revert → clean', async () => {
    const wf = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId });
    const id = wf.body.id;
    await call('GET', `/api/workflows/${id}`);
    expect((await call('POST', `/api/workflows/${id}/revert-to-deployed`)).body).toEqual({ error: 'No deployed state found' });

    const deployed = await call<{ apiKey: string; isDeployed: boolean; deployedAt: string }>('POST', `/api/workflows/${id}/deploy`, {});
    expect(deployed.status).toBe(200);
    expect(deployed.body.isDeployed).toBe(true);
    expect(deployed.body.apiKey).toMatch(/^wf_/);
    expect(Date.now() - Date.parse(deployed.body.deployedAt)).toBeLessThan(60_000);
    const fresh = await call<Status>('GET', `/api/workflows/${id}/deploy`);
    expect(fresh.body).toMatchObject({ isDeployed: true, apiKey: deployed.body.apiKey, needsRedeployment: false });

    await call('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'extra', blockType: 'function', position: { x: 300, y: 300 } }] });
    const dirty = await eventually(() => call<Status>('GET', `/api/workflows/${id}/deploy`), (r) => r.body.needsRedeployment);
    expect(dirty.body.needsRedeployment).toBe(true);

    const reverted = await call<{ success: boolean }>('POST', `/api/workflows/${id}/revert-to-deployed`);
    expect(reverted.status).toBe(200);
    const after = await call<{ data: { state: { blocks: Record<string, unknown> } } }>('GET', `/api/workflows/${id}`);
    expect(Object.keys(after.body.data.state.blocks)).not.toContain('extra');
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await call<Status>('GET', `/api/workflows/${id}/deploy`)).body.needsRedeployment).toBe(false);

    // A second version, then the first activated again.
    await call('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'addBlock', id: 'v2', blockType: 'function', position: { x: 300, y: 300 } }] });
    const second = await call<{ deployedAt: string }>('POST', `/api/workflows/${id}/deploy`, { deployedAt: '2025-01-02T03:04:05.000Z' });
    expect(second.body.deployedAt).toBe('2025-01-02T03:04:05.000Z');
    const versions = await call<{ data: Array<{ version: number; isActive: boolean; blocksCount: number }> }>('GET', `/api/workflows/${id}/deployments`);
    expect(versions.body.data.map((v) => [v.version, v.isActive, v.blocksCount])).toEqual([
      [2, true, 2],
      [1, false, 1],
    ]);
    const activated = await call<Status>('POST', `/api/workflows/${id}/deployments/1/activate`);
    expect(activated.body).toMatchObject({ isDeployed: true, needsRedeployment: true });
    await call('POST', `/api/workflows/${id}/revert-to-deployed`);
    const v1 = await call<{ data: { state: { blocks: Record<string, unknown> } } }>('GET', `/api/workflows/${id}`);
    expect(Object.keys(v1.body.data.state.blocks)).toHaveLength(1);

    const undeployed = await call<Status>('DELETE', `/api/workflows/${id}/deploy`);
    expect(undeployed.body).toMatchObject({ isDeployed: false, deployedAt: null });
    // The state's flags are the registry's: the revert before the undeploy leaves no isDeployed behind.
    type Flags = { isDeployed: boolean; deployedAt: unknown; needsRedeployment: boolean; hasActiveWebhook: boolean; deploymentStatuses: Record<string, { isDeployed: boolean }> };
    const one = await call<{ data: { isDeployed: boolean; state: Flags } }>('GET', `/api/workflows/${id}`);
    expect(one.body.data.isDeployed).toBe(false);
    expect(one.body.data.state).toMatchObject({ isDeployed: false, deployedAt: null, hasActiveWebhook: false, deploymentStatuses: { [id]: { isDeployed: false } } });
    const list = await call<{ data: Array<{ id: string; state: Flags }> }>('GET', `/api/workflows?workspaceId=${user.workspaceId}`);
    expect(list.body.data.find((w) => w.id === id)?.state).toMatchObject({ isDeployed: false, deployedAt: null });
    // So are those of the full state a canvas loads, and of the events it folds (the editor's copy says deployed after the revert).
    const full = await call<{ state: unknown }>('GET', `/api/workflows/${id}/state`);
    expect(decodeSnapshot(full.body.state)).toMatchObject({ isDeployed: false, deployedAt: null, hasActiveWebhook: false, deploymentStatuses: { [id]: { isDeployed: false } } });
    const page = await call<{ events: Array<{ data: WorkflowEvent }> }>('GET', `/api/workflows/${id}/events?after=0`);
    expect(page.body.events.some((e) => e.data.type === 'revertedToDeployed')).toBe(true);
    expect(replay(page.body.events.map((e) => e.data))).toMatchObject({ isDeployed: false, deployedAt: null, hasActiveWebhook: false });
    // Nor can a client set them as editing commands.
    const set = await call<{ error: string }>('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'setDeployed', isDeployed: true }] });
    expect([set.status, set.body.error]).toEqual([400, expect.stringContaining('commands[0].type: setDeployed is not an editing command')]);
  });

  it('needs a redeployment only when what would run differs: not for a move, again clean after undo', async () => {
    const wf = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId });
    const id = wf.body.id;
    const edit = (commands: unknown[]) => call('POST', `/api/workflows/${id}/commands`, { commands });
    const status = () => call<Status>('GET', `/api/workflows/${id}/deploy`);
    await call('GET', `/api/workflows/${id}`); // waits for the editor to start the workflow
    expect((await edit([{ type: 'addBlock', id: 'f', blockType: 'function', position: { x: 300, y: 300 } }])).status).toBe(200);
    expect((await call('POST', `/api/workflows/${id}/deploy`, {})).status).toBe(200);

    await edit([{ type: 'moveBlock', id: 'f', position: { x: 520, y: 140 } }]);
    await edit([{ type: 'resizeBlock', id: 'f', width: 400, height: 300 }]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await status()).body.needsRedeployment).toBe(false);

    await edit([{ type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 2' }]);
    expect((await eventually(status, (r) => r.body.needsRedeployment)).body.needsRedeployment).toBe(true);
    await edit([{ type: 'undo' }]);
    expect((await eventually(status, (r) => !r.body.needsRedeployment)).body.needsRedeployment).toBe(false);
    // The draft still has the move: only what runs counts.
    const draft = await call<{ data: { state: { blocks: Record<string, { position: { x: number } }> } } }>('GET', `/api/workflows/${id}`);
    expect(draft.body.data.state.blocks['f']?.position.x).toBe(520);

    await edit([{ type: 'renameBlock', id: 'f', name: 'Compute' }]);
    expect((await eventually(status, (r) => r.body.needsRedeployment)).body.needsRedeployment).toBe(true);
    expect((await call('POST', `/api/workflows/${id}/revert-to-deployed`)).status).toBe(200);
    expect((await eventually(status, (r) => !r.body.needsRedeployment)).body.needsRedeployment).toBe(false);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await status()).body.needsRedeployment).toBe(false);
  });

  it('stores the deployment API key encrypted: no plain key in any registry table, every route still shows it', async () => {
    const wf = await call<{ id: string }>('POST', '/api/workflows', { workspaceId: user.workspaceId });
    const id = wf.body.id;
    await call('GET', `/api/workflows/${id}`);
    const deployed = await call<Status>('POST', `/api/workflows/${id}/deploy`, {});
    const apiKey = deployed.body.apiKey ?? '';
    expect(apiKey).toMatch(/^wf_/);
    expect((await call<{ data: { apiKey: string } }>('GET', `/api/workflows/${id}`)).body.data.apiKey).toBe(apiKey);
    expect((await call<Status>('GET', `/api/workflows/${id}/deploy`)).body.apiKey).toBe(apiKey);
    const listed = await call<{ data: Array<{ id: string; apiKey: string | null }> }>('GET', `/api/workflows?workspaceId=${user.workspaceId}`);
    expect(listed.body.data.find((w) => w.id === id)?.apiKey).toBe(apiKey);
    await withDatabase(async (client) => {
      await expectNotInRegistryTables(client, apiKey);
      const row = await client.query<{ api_key: string; api_key_key_id: string }>('select api_key, api_key_key_id from registry.workflows where id = $1', [id]);
      expect(row.rows[0]?.api_key_key_id).toBeTruthy();
    });
    // Undeploying and deploying again keeps the key.
    await call('DELETE', `/api/workflows/${id}/deploy`);
    expect((await call<Status>('POST', `/api/workflows/${id}/deploy`, {})).body.apiKey).toBe(apiKey);
  });
});

describe('environment variables and custom tools', () => {
  it('stores environment variables encrypted: no plain value in any registry table or event', async () => {
    const user = await signUp('Env');
    const call = as(user);
    const secret = `sk-live-${crypto.randomUUID()}`;
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: secret, REGION: 'eu' } })).status).toBe(200);
    const got = await call<{ data: Record<string, { key: string; value: string }> }>('GET', '/api/environment');
    expect(got.body.data).toEqual({ OPENAI_API_KEY: { key: 'OPENAI_API_KEY', value: secret }, REGION: { key: 'REGION', value: 'eu' } });
    expect((await api('GET', '/api/environment')).body).toEqual({ data: {} });

    await withDatabase(async (client) => {
      await expectNotInRegistryTables(client, secret);
      const rows = await client.query<{ name: string; key_id: string }>('select name, key_id from registry.environment_variables where user_id = $1 order by name', [user.userId]);
      expect(rows.rows.map((r) => r.name)).toEqual(['OPENAI_API_KEY', 'REGION']);
    });
    await call('POST', '/api/environment', { variables: { REGION: 'us' } });
    expect((await call<{ data: Record<string, unknown> }>('GET', '/api/environment')).body.data).toEqual({ REGION: { key: 'REGION', value: 'us' } });
  });

  it('upserts, lists and deletes custom tools; an invalid batch stores nothing and names the tool and field', async () => {
    const user = await signUp('Tools');
    const call = as(user);
    const tool = (id: string, title: string) => ({
      id,
      title,
      schema: { type: 'function', function: { name: title.toLowerCase(), description: `The ${title} tool`, parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } },
      code: 'return q',
    });
    const saved = await call<{ data: Array<{ id: string }> }>('POST', '/api/tools/custom', { tools: [tool('t1', 'Search'), { ...tool('t2', 'Fetch'), code: undefined }] });
    expect(saved.status).toBe(200);
    const refused = await call('POST', '/api/tools/custom', { tools: [tool('t3', 'Ok'), { ...tool('t4', 'Broken'), schema: { function: { name: 'b', parameters: { properties: {} } } } }] });
    expect(refused).toEqual({ status: 400, body: { error: 'Invalid custom tool "Broken": schema.function.description must be a string' } });
    const list = await call<{ data: Array<{ id: string; title: string; code: string }> }>('GET', '/api/tools/custom');
    expect(list.body.data.map((t) => [t.id, t.title, t.code])).toEqual([
      ['t1', 'Search', 'return q'],
      ['t2', 'Fetch', ''],
    ]);
    expect((await call('DELETE', '/api/tools/custom?id=t1')).status).toBe(200);
    expect((await call<{ data: unknown[] }>('GET', '/api/tools/custom')).body.data).toHaveLength(1);
    expect((await call('DELETE', '/api/tools/custom?id=t1')).body).toEqual({ error: 'Custom tool t1 not found' });
  });

  it('answers an unknown OAuth credential with 404', async () => {
    expect(await api('POST', '/api/auth/oauth/token', { credentialId: 'nope' })).toEqual({ status: 404, body: { error: 'Credential nope not found' } });
    expect((await api('POST', '/api/auth/oauth/token', {}, ANONYMOUS)).status).toBe(401);
  });
});
