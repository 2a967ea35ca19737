import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestRegistry } from './testSupport.js';
import { createWorkspace } from './workspaces/workspaces.js';
import { createWorkflow, WORKFLOW_LIMIT_MESSAGE } from './entries/workflows.js';
import { getEnvironment, rotateEnvironment, setEnvironment } from './environment/environment.js';
import { createCipher, generateKey, parseKeys } from './secrets/cipher.js';
import { completeOAuth, deleteCredential, getAccessToken, listCredentials, startOAuth } from './oauth/credentials.js';

describe('plan limit', () => {
  it('refuses the workflow past the limit with upgradeRequired and the spec message', async () => {
    const { registry, drop } = await createTestRegistry({ workflowLimit: 2 });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      await Promise.all([createWorkflow(registry, 'u1', ws.id, {}), createWorkflow(registry, 'u1', ws.id, {})]);
      await expect(createWorkflow(registry, 'u1', ws.id, {})).rejects.toMatchObject({ code: 'limit', message: WORKFLOW_LIMIT_MESSAGE, details: { upgradeRequired: true } });
      const events = await sql<{ type: string }>`select envelope->>'type' as type from outbox order by seq`.execute(registry.db);
      expect(events.rows.map((e) => e.type)).toEqual(['workspaceCreated', 'workflowCreated', 'workflowCreated']);
    } finally {
      await drop();
    }
  });
});

describe('encryption keys', () => {
  it('re-encrypts with a new key, still reads the values, and the old key is no longer needed', async () => {
    const oldKey = generateKey('old');
    const { registry, drop } = await createTestRegistry({ cipher: createCipher(parseKeys(oldKey)) });
    try {
      await setEnvironment(registry, 'u1', { TOKEN: 'shh' });
      const newKey = generateKey('new');
      const rotated = { ...registry, cipher: createCipher(parseKeys(`${newKey},${oldKey}`)) };
      expect(await rotateEnvironment(rotated)).toBe(1);
      const onlyNew = { ...registry, cipher: createCipher(parseKeys(newKey)) };
      expect(await getEnvironment(onlyNew, 'u1')).toEqual({ TOKEN: 'shh' });
      const row = await registry.db.selectFrom('environment_variables').selectAll().executeTakeFirstOrThrow();
      expect(row.key_id).toBe('new');
      expect(row.value).not.toContain('shh');
      // A value moved to another row does not decrypt: the row is bound into the ciphertext.
      expect(() => onlyNew.cipher.decrypt(row.value, row.key_id, 'env:u2:TOKEN')).toThrow();
    } finally {
      await drop();
    }
  });
});

describe('OAuth credentials against a local authorization server', () => {
  let server: Server;
  let base = '';
  const grants: Array<Record<string, string>> = [];
  let issued = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === '/authorize') {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'the-code');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        grants.push(form);
        const ok = (form.grant_type === 'authorization_code' && form.code === 'the-code' && form.code_verifier) || (form.grant_type === 'refresh_token' && form.refresh_token?.startsWith('refresh-'));
        if (!ok || form.client_secret !== 'shh') {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        issued += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `access-${issued}`, refresh_token: `refresh-${issued}`, expires_in: 3600, scope: 'read' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('connects with the code flow, serves the token, and refreshes it once shortly before expiry', async () => {
    const providers = { fake: { authorizeUrl: `${base}/authorize`, tokenUrl: `${base}/token`, clientId: 'weft', clientSecret: 'shh', scopes: ['read'] } };
    const { registry, clock, drop } = await createTestRegistry({ oauth: { providers, refreshSkewS: 300, fetch } });
    try {
      const redirect = 'http://localhost/api/auth/oauth/callback';
      const authorizeUrl = await startOAuth(registry, 'u1', 'fake', redirect);
      const answer = await fetch(authorizeUrl, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location') ?? '');
      await expect(completeOAuth(registry, 'u2', back.searchParams.get('state') ?? '', 'the-code', redirect)).rejects.toMatchObject({ code: 'validation' });
      const credential = await completeOAuth(registry, 'u1', back.searchParams.get('state') ?? '', back.searchParams.get('code') ?? '', redirect);
      expect(credential).toMatchObject({ providerId: 'fake', scopes: 'read', expiresAt: '2026-01-01T01:00:00.000Z' });

      expect(await getAccessToken(registry, 'u1', credential.id)).toBe('access-1');
      await expect(getAccessToken(registry, 'u2', credential.id)).rejects.toMatchObject({ code: 'not_found' });

      clock.now = new Date('2026-01-01T00:56:00Z');
      const tokens = await Promise.all([getAccessToken(registry, 'u1', credential.id), getAccessToken(registry, 'u1', credential.id)]);
      expect(tokens).toEqual(['access-2', 'access-2']);
      expect(grants.map((g) => [g.grant_type, g.refresh_token ?? g.code])).toEqual([
        ['authorization_code', 'the-code'],
        ['refresh_token', 'refresh-1'],
      ]);
      const stored = await registry.db.selectFrom('oauth_credentials').selectAll().executeTakeFirstOrThrow();
      expect(`${stored.access_token}${stored.refresh_token}`).not.toContain('access-2');

      // Disconnecting: only the owner can; the credential and its tokens are gone afterwards.
      await expect(deleteCredential(registry, 'u2', credential.id)).rejects.toMatchObject({ code: 'not_found' });
      expect((await listCredentials(registry, 'u1')).map((c) => c.id)).toEqual([credential.id]);
      await deleteCredential(registry, 'u1', credential.id);
      expect(await listCredentials(registry, 'u1')).toEqual([]);
      expect(await registry.db.selectFrom('oauth_credentials').selectAll().execute()).toEqual([]);
      await expect(getAccessToken(registry, 'u1', credential.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(deleteCredential(registry, 'u1', credential.id)).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await drop();
    }
  });
});
