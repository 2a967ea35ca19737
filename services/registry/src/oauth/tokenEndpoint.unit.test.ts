import { describe, expect, it } from 'vitest';
import type { OAuthProvider } from '../config.js';
import { requestTokens } from './tokenEndpoint.js';

const provider: OAuthProvider = { authorizeUrl: 'http://provider.test/authorize', tokenUrl: 'http://provider.test/token', clientId: 'c', clientSecret: 's', scopes: [] };
const now = new Date('2026-01-01T00:00:00Z');

/** A token endpoint that answers `status` with `body` (no network: the fetch is this function). */
function answering(status: number, body: string): typeof fetch {
  return () => Promise.resolve(new Response(body, { status }));
}

const refresh = (fetchFn: typeof fetch) => requestTokens(fetchFn, provider, { grant_type: 'refresh_token', refresh_token: 'r' }, now);

describe('the provider token endpoint (spec 000 §8 Failed to fetch access token)', () => {
  it('a provider 4xx (a revoked or expired grant) is permanent: unauthenticated with the spec message', async () => {
    await expect(refresh(answering(400, '{"error":"invalid_grant"}'))).rejects.toMatchObject({
      code: 'unauthenticated',
      message: 'Failed to fetch access token: 400 {"error":"invalid_grant"}',
    });
    await expect(refresh(answering(401, 'revoked'))).rejects.toMatchObject({ code: 'unauthenticated', message: 'Failed to fetch access token: 401 revoked' });
  });

  it('an OAuth error answered with 200 (as some providers do) is permanent too', async () => {
    await expect(refresh(answering(200, '{"error":"bad_verification_code"}'))).rejects.toMatchObject({
      code: 'unauthenticated',
      message: 'Failed to fetch access token: 200 {"error":"bad_verification_code"}',
    });
  });

  it('a provider 5xx, a 429 or an unreachable provider is transient (unavailable, retried)', async () => {
    await expect(refresh(answering(503, 'busy'))).rejects.toMatchObject({ code: 'unavailable', message: 'Failed to fetch access token: 503 busy' });
    await expect(refresh(answering(429, 'slow down'))).rejects.toMatchObject({ code: 'unavailable', message: 'Failed to fetch access token: 429 slow down' });
    await expect(refresh(() => Promise.reject(new TypeError('fetch failed')))).rejects.toMatchObject({ code: 'unavailable', message: 'Failed to fetch access token: fetch failed' });
  });

  it('a good answer gives the tokens and the expiry', async () => {
    const tokens = await refresh(answering(200, '{"access_token":"a","refresh_token":"b","expires_in":60}'));
    expect(tokens).toEqual({ accessToken: 'a', refreshToken: 'b', expiresAt: new Date(now.getTime() + 60_000), scope: undefined });
  });
});
