import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { AppError } from '@weft/platform';
import type { OAuthCredentialTable } from '../db.js';
import type { Registry } from '../ports.js';
import type { OAuthProvider } from '../config.js';
import { emit } from '../events.js';
import { requestTokens } from './tokenEndpoint.js';

/** How long a started authorization may take before its state is refused. */
const STATE_TTL_MS = 10 * 60_000;

export interface CredentialView {
  id: string;
  providerId: string;
  scopes: string;
  expiresAt: string | null;
  createdAt: string;
}

function provider(r: Registry, providerId: string): OAuthProvider {
  const found = r.oauth.providers[providerId];
  if (!found) throw new AppError('validation', `Unknown OAuth provider: ${providerId}`);
  return found;
}

function tokenContext(credentialId: string, kind: 'access' | 'refresh'): string {
  return `oauth:${credentialId}:${kind}`;
}

/** Starts the authorization code flow with PKCE; answers the provider URL to send the browser to. */
export async function startOAuth(r: Registry, userId: string, providerId: string, redirectUri: string): Promise<string> {
  const p = provider(r, providerId);
  if (!redirectUri) throw new AppError('validation', 'redirectUri is required');
  const state = randomBytes(24).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  await r.db.insertInto('oauth_states').values({ state, user_id: userId, provider_id: providerId, code_verifier: verifier, created_at: r.now() }).execute();
  const url = new URL(p.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  if (p.scopes.length > 0) url.searchParams.set('scope', p.scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Exchanges the code the provider sent back for tokens and stores them encrypted as a credential. */
export async function completeOAuth(r: Registry, userId: string, state: string, code: string, redirectUri: string): Promise<CredentialView> {
  const pending = await r.db.deleteFrom('oauth_states').where('state', '=', state).where('user_id', '=', userId).returningAll().executeTakeFirst();
  if (!pending || r.now().getTime() - pending.created_at.getTime() > STATE_TTL_MS) throw new AppError('validation', 'The authorization expired or was not started here; please connect again');
  const p = provider(r, pending.provider_id);
  const tokens = await requestTokens(r.oauth.fetch, p, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pending.code_verifier }, r.now());
  const id = randomUUID();
  const access = r.cipher.encrypt(tokens.accessToken, tokenContext(id, 'access'));
  const row = await r.db.transaction().execute(async (trx) => {
    const saved = await trx
      .insertInto('oauth_credentials')
      .values({
        id,
        user_id: userId,
        provider_id: pending.provider_id,
        scopes: tokens.scope ?? p.scopes.join(' '),
        access_token: access.value,
        refresh_token: tokens.refreshToken ? r.cipher.encrypt(tokens.refreshToken, tokenContext(id, 'refresh')).value : null,
        key_id: access.keyId,
        expires_at: tokens.expiresAt,
        created_at: r.now(),
        updated_at: r.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'user', userId, 'oauthCredentialConnected', { userId, credentialId: id, providerId: pending.provider_id });
    return saved;
  });
  r.kick();
  return toView(row);
}

/** The caller's credentials (never their tokens). */
export async function listCredentials(r: Registry, userId: string): Promise<CredentialView[]> {
  const rows = await r.db.selectFrom('oauth_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map(toView);
}

/**
 * Disconnects one of the caller's credentials: the row and its sealed tokens are deleted. Another
 * user's credential answers not found, as one that does not exist (its id tells them nothing).
 */
export async function deleteCredential(r: Registry, userId: string, credentialId: string): Promise<void> {
  if (!credentialId) throw new AppError('validation', 'credentialId is required');
  await r.db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('oauth_credentials').where('id', '=', credentialId).where('user_id', '=', userId).returning(['id', 'provider_id']).executeTakeFirst();
    if (!row) throw new AppError('not_found', `Credential ${credentialId} not found`);
    await emit(trx, r.instance, 'user', userId, 'oauthCredentialDisconnected', { userId, credentialId: row.id, providerId: row.provider_id });
  });
  r.kick();
}

/**
 * A usable access token: the stored one, or a refreshed one when it expires within the configured
 * skew. The row is locked while refreshing so concurrent calls refresh once.
 */
export async function getAccessToken(r: Registry, userId: string, credentialId: string): Promise<string> {
  if (!credentialId) throw new AppError('validation', 'credentialId is required');
  const token = await r.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('oauth_credentials').selectAll().where('id', '=', credentialId).where('user_id', '=', userId).forUpdate().executeTakeFirst();
    if (!row) throw new AppError('not_found', `Credential ${credentialId} not found`);
    const now = r.now();
    const fresh = row.expires_at === null || row.expires_at.getTime() - now.getTime() > r.oauth.refreshSkewS * 1000;
    if (fresh) return r.cipher.decrypt(row.access_token, row.key_id, tokenContext(row.id, 'access'));
    if (!row.refresh_token) throw new AppError('unauthenticated', 'The credential expired and cannot be refreshed; please connect the account again');
    const refreshToken = r.cipher.decrypt(row.refresh_token, row.key_id, tokenContext(row.id, 'refresh'));
    const tokens = await requestTokens(r.oauth.fetch, provider(r, row.provider_id), { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
    const access = r.cipher.encrypt(tokens.accessToken, tokenContext(row.id, 'access'));
    const refresh = r.cipher.encrypt(tokens.refreshToken ?? refreshToken, tokenContext(row.id, 'refresh'));
    await trx
      .updateTable('oauth_credentials')
      .set({ access_token: access.value, refresh_token: refresh.value, key_id: access.keyId, expires_at: tokens.expiresAt, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await emit(trx, r.instance, 'user', userId, 'oauthCredentialRefreshed', { userId, credentialId: row.id, expiresAt: tokens.expiresAt?.toISOString() ?? null });
    return tokens.accessToken;
  });
  r.kick();
  return token;
}

/** Re-encrypts credentials sealed with an older key; answers how many it rewrote. */
export async function rotateCredentials(r: Registry): Promise<number> {
  const stale = await r.db.selectFrom('oauth_credentials').selectAll().where('key_id', '!=', r.cipher.currentKeyId).execute();
  for (const row of stale) {
    const access = r.cipher.encrypt(r.cipher.decrypt(row.access_token, row.key_id, tokenContext(row.id, 'access')), tokenContext(row.id, 'access'));
    const refresh = row.refresh_token ? r.cipher.encrypt(r.cipher.decrypt(row.refresh_token, row.key_id, tokenContext(row.id, 'refresh')), tokenContext(row.id, 'refresh')).value : null;
    await r.db.updateTable('oauth_credentials').set({ access_token: access.value, refresh_token: refresh, key_id: access.keyId }).where('id', '=', row.id).where('key_id', '=', row.key_id).execute();
  }
  return stale.length;
}

function toView(row: Selectable<OAuthCredentialTable>): CredentialView {
  return { id: row.id, providerId: row.provider_id, scopes: row.scopes, expiresAt: row.expires_at?.toISOString() ?? null, createdAt: row.created_at.toISOString() };
}
