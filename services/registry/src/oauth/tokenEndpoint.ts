import { z } from 'zod';
import { AppError } from '@weft/platform';
import type { OAuthProvider } from '../config.js';

const TOKEN_TIMEOUT_MS = 10_000;

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().optional(),
  expires_in: z.coerce.number().optional(),
  scope: z.string().optional(),
});

const oauthError = z.object({ error: z.string().min(1) });

/**
 * A provider's 5xx, 408 or 429 may pass and is retried (`unavailable`); any other refusal — a revoked
 * or expired grant (`invalid_grant`), a wrong client — is permanent: `unauthenticated` (401, as the
 * token route answers when the credential can no longer give a token), which tools do not retry.
 */
function isTransient(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** A token endpoint's answer, with the expiry turned into a date. */
export interface Tokens {
  accessToken: string;
  refreshToken: string | undefined;
  expiresAt: Date | null;
  scope: string | undefined;
}

/** Posts a form to the provider's token endpoint (RFC 6749 §4.1.3 and §6). */
export async function requestTokens(fetchFn: typeof fetch, provider: OAuthProvider, params: Record<string, string>, now: Date): Promise<Tokens> {
  const body = new URLSearchParams({ ...params, client_id: provider.clientId, ...(provider.clientSecret ? { client_secret: provider.clientSecret } : {}) });
  let res: Response;
  try {
    res = await fetchFn(provider.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
  } catch (err) {
    throw new AppError('unavailable', `Failed to fetch access token: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = await res.text();
  const failure = `Failed to fetch access token: ${res.status} ${text.slice(0, 200)}`;
  if (!res.ok) throw new AppError(isTransient(res.status) ? 'unavailable' : 'unauthenticated', failure);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = Object.fromEntries(new URLSearchParams(text));
  }
  // Some providers (GitHub) answer an OAuth error (RFC 6749 §5.2) with 200: as permanent as a 400.
  if (oauthError.safeParse(json).success) throw new AppError('unauthenticated', failure);
  const parsed = tokenAnswer.safeParse(json);
  if (!parsed.success) throw new AppError('unavailable', 'Failed to fetch access token: the provider answered without an access_token');
  const t = parsed.data;
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresAt: t.expires_in !== undefined ? new Date(now.getTime() + t.expires_in * 1000) : null,
    scope: t.scope,
  };
}
