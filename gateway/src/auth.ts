import type { Request } from 'express';
import { AppError } from '@weft/platform';
import { INVALID_API_KEY } from '@weft/contracts';
import { API_KEY_PREFIX } from './accounts/apiKeys.js';

/** Who is calling, as the services see it. */
export interface Actor {
  userId: string;
}

/**
 * Resolves the caller of a request from its session cookie or personal API key (session.ts); the
 * services only ever receive the resolved actor.
 */
export interface Authenticator {
  authenticate(req: Request): Promise<Actor | null>;
}

/** The actor of a request, or 401: 'Invalid API key' for a personal key that names no one (unknown or revoked), as a wrong deployment key is told. */
export async function requireActor(auth: Authenticator, req: Request): Promise<Actor> {
  const actor = await auth.authenticate(req);
  if (!actor) throw new AppError('unauthenticated', req.header('x-api-key')?.startsWith(API_KEY_PREFIX) ? INVALID_API_KEY : 'Unauthorized');
  return actor;
}
