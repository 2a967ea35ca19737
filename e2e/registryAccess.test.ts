import { beforeAll, describe, expect, it, inject } from 'vitest';
import { api } from './support/http.js';
import { startSecondGateway } from './support/gateway.js';
import { ANONYMOUS, signUp, type TestUser } from './support/session.js';

type Level = 'read' | 'write' | 'admin';
interface Route {
  method: string;
  path: string;
  body?: unknown;
  level: Level;
}

/** Every workspace-scoped route of the registry and the editor, with the access it needs. */
function routes(ws: string, wf: string, folder: string): Route[] {
  return [
    { method: 'GET', path: `/api/workflows?workspaceId=${ws}`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}/deploy`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}/deployments`, level: 'read' },
    { method: 'GET', path: `/api/folders?workspaceId=${ws}`, level: 'read' },
    { method: 'GET', path: `/api/workspaces/${ws}/permissions`, level: 'read' },
    { method: 'GET', path: `/api/tools/custom?workflowId=${wf}`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}/history`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}/variables`, level: 'read' },
    { method: 'GET', path: `/api/workflows/${wf}/yaml`, level: 'read' },
    { method: 'POST', path: '/api/workflows', body: { workspaceId: ws }, level: 'write' },
    { method: 'PUT', path: `/api/workflows/${wf}`, body: { name: 'renamed' }, level: 'write' },
    { method: 'DELETE', path: `/api/workflows/${wf}`, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/duplicate`, body: {}, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/commands`, body: { commands: [{ type: 'undo' }] }, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/execute`, body: {}, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/variables`, body: { variables: [] }, level: 'write' },
    { method: 'PUT', path: `/api/workflows/${wf}/yaml`, body: { yamlContent: 'version: 1\nblocks: {}\n' }, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/deploy`, body: {}, level: 'write' },
    { method: 'DELETE', path: `/api/workflows/${wf}/deploy`, level: 'write' },
    { method: 'PATCH', path: `/api/workflows/${wf}/deploy`, body: { hasActiveWebhook: true }, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/revert-to-deployed`, level: 'write' },
    { method: 'POST', path: `/api/workflows/${wf}/deployments/1/activate`, level: 'write' },
    { method: 'POST', path: '/api/folders', body: { workspaceId: ws, name: 'F' }, level: 'write' },
    { method: 'PUT', path: `/api/folders/${folder}`, body: { name: 'G' }, level: 'write' },
    { method: 'DELETE', path: `/api/folders/${folder}`, level: 'write' },
    { method: 'PUT', path: `/api/workspaces/${ws}`, body: { name: 'Mine' }, level: 'admin' },
    { method: 'DELETE', path: `/api/workspaces/${ws}`, level: 'admin' },
    { method: 'POST', path: `/api/workspaces/${ws}/members`, body: { email: 'nobody@example.test', permission: 'read' }, level: 'admin' },
  ];
}

/** Routes about the caller alone: they only need a session. */
const ACCOUNT_ROUTES: Array<Omit<Route, 'level'>> = [
  { method: 'GET', path: '/api/workspaces' },
  { method: 'POST', path: '/api/workspaces', body: { name: 'X' } },
  { method: 'GET', path: '/api/environment' },
  { method: 'POST', path: '/api/environment', body: { variables: {} } },
  { method: 'GET', path: '/api/tools/custom' },
  { method: 'POST', path: '/api/tools/custom', body: { tools: [] } },
  { method: 'DELETE', path: '/api/tools/custom?id=x' },
  { method: 'POST', path: '/api/auth/oauth/token', body: { credentialId: 'x' } },
  { method: 'GET', path: '/api/auth/api-keys' },
  { method: 'POST', path: '/api/auth/api-keys', body: { name: 'k' } },
  // The API's map of routes is for signed-in callers too.
  { method: 'GET', path: '/api/routes' },
];

describe('access to workspaces', () => {
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let table: Route[] = [];

  beforeAll(async () => {
    [owner, reader, outsider] = await Promise.all([signUp('Owner'), signUp('Reader'), signUp('Outsider')]);
    const invited = await api('POST', `/api/workspaces/${owner.workspaceId}/members`, { email: reader.email, permission: 'read' }, owner.headers);
    expect(invited.status).toBe(201);
    const wf = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId }, owner.headers);
    const folder = await api<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: owner.workspaceId, name: 'Inbox' }, owner.headers);
    table = routes(owner.workspaceId, wf.body.id, folder.body.folder.id);
  });

  it('answers 401 to every route without a session', async () => {
    for (const route of [...table, ...ACCOUNT_ROUTES]) {
      const res = await api(route.method, route.path, route.body, ANONYMOUS);
      expect({ route: `${route.method} ${route.path}`, status: res.status, body: res.body }).toEqual({ route: `${route.method} ${route.path}`, status: 401, body: { error: 'Unauthorized' } });
    }
  });

  it('answers 403 Access denied to workspace to a signed-in non-member on every workspace route', async () => {
    for (const route of table) {
      const res = await api(route.method, route.path, route.body, outsider.headers);
      expect({ route: `${route.method} ${route.path}`, status: res.status, body: res.body }).toEqual({ route: `${route.method} ${route.path}`, status: 403, body: { error: 'Access denied to workspace' } });
    }
  });

  it('lets a read member read but refuses every write and admin route', async () => {
    for (const route of table) {
      const res = await api(route.method, route.path, route.body, reader.headers);
      const label = `${route.method} ${route.path}`;
      if (route.level === 'read') expect({ label, status: res.status }).toEqual({ label, status: 200 });
      else expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 403, body: { error: `This action needs ${route.level} permission in the workspace` } });
    }
  });

  it('sends a page load without a session to the sign-in page, which the web app serves', async () => {
    const page = await fetch(`${inject('weftUrl')}/workflows/abc`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/sign-in?next=%2Fworkflows%2Fabc');
    for (const path of ['/sign-in', '/sign-up']) {
      const form = await fetch(`${inject('weftUrl')}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
      expect({ path, status: form.status }).toEqual({ path, status: 200 });
      expect(await form.text()).toContain('<div id="root"></div>');
    }
  });

  it('takes effect at once when a member is downgraded or removed, even just after their edits', async () => {
    const editor = await signUp('Editor');
    const wf = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId }, owner.headers);
    const members = `/api/workspaces/${owner.workspaceId}/members`;
    expect((await api('POST', members, { email: editor.email, permission: 'write' }, owner.headers)).status).toBe(201);
    const edit = () => api('POST', `/api/workflows/${wf.body.id}/commands`, { commands: [{ type: 'addVariable', name: '', variableType: 'plain', value: 'x' }] }, editor.headers);
    expect((await edit()).status).toBe(200);
    expect((await edit()).status).toBe(200);
    expect((await api('PATCH', `${members}/${editor.userId}`, { permission: 'read' }, owner.headers)).status).toBe(200);
    expect(await edit()).toMatchObject({ status: 403, body: { error: 'This action needs write permission in the workspace' } });
    expect((await api('GET', `/api/workflows/${wf.body.id}/history`, undefined, editor.headers)).status).toBe(200);
    expect((await api('DELETE', `${members}/${editor.userId}`, undefined, owner.headers)).status).toBe(200);
    expect(await api('GET', `/api/workflows/${wf.body.id}/history`, undefined, editor.headers)).toMatchObject({ status: 403, body: { error: 'Access denied to workspace' } });
  });

  it('takes a removal made through another gateway into account as soon as the removal has answered', async () => {
    // This gateway remembers grants for a minute, so only being told before the answer can make it ask again.
    const other = await startSecondGateway({ WEFT_ACCESS_CACHE_MS: '60000' });
    try {
      const editor = await signUp('Remote Editor');
      const wf = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId }, owner.headers);
      const members = `/api/workspaces/${owner.workspaceId}/members`;
      expect((await api('POST', members, { email: editor.email, permission: 'write' }, owner.headers)).status).toBe(201);
      const history = () => fetch(`${other.url}/api/workflows/${wf.body.id}/history`, { headers: editor.headers }).then((r) => r.status);
      expect(await history()).toBe(200);
      expect((await api('DELETE', `${members}/${editor.userId}`, undefined, owner.headers)).status).toBe(200);
      expect(await history()).toBe(403);
    } finally {
      other.stop();
    }
  });

  it('ends a session on every gateway as soon as the sign-out through one has answered', async () => {
    // This gateway remembers sessions for a minute, so only being told before the answer can make it ask again.
    const other = await startSecondGateway({ WEFT_SESSION_CACHE_MS: '60000' });
    try {
      const user = await signUp('Leaver');
      const workspaces = () => fetch(`${other.url}/api/workspaces`, { headers: user.headers }).then((r) => r.status);
      expect(await workspaces()).toBe(200);
      const out = await fetch(`${inject('weftUrl')}/api/auth/sign-out`, { method: 'POST', headers: { ...user.headers, 'content-type': 'application/json' }, body: '{}' });
      expect(out.status).toBe(200);
      expect(await workspaces()).toBe(401);
    } finally {
      other.stop();
    }
  });

  it('accepts a personal API key in x-api-key instead of a session', async () => {
    const made = await api<{ key: string; id: string }>('POST', '/api/auth/api-keys', { name: 'script' }, owner.headers);
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^weft_/);
    const viaKey = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, { 'x-api-key': made.body.key });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.workspaces.map((w) => w.id)).toContain(owner.workspaceId);
    // A wrong or revoked personal key is told so, as a wrong deployment key is.
    expect(await api('GET', '/api/workspaces', undefined, { 'x-api-key': 'weft_not-a-key' })).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    await api('DELETE', `/api/auth/api-keys/${made.body.id}`, undefined, owner.headers);
    expect(await api('GET', '/api/workspaces', undefined, { 'x-api-key': made.body.key })).toEqual({ status: 401, body: { error: 'Invalid API key' } });
  });
});
