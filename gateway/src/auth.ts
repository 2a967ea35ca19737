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

/** How the registry's deployment keys begin (services/registry/src/deployments/apiKey.ts). */
const DEPLOYMENT_KEY_PREFIX = 'wf_';

/** A deployment key sent where only a person may call (listing runs, editing): it names a workflow, not a user. */
export const DEPLOYMENT_KEY_NOT_HERE =
  'A deployment API key runs its workflow (POST /api/workflows/{id}/execute) and reads those runs; this call needs a personal API key or a signed-in session';

/** Why a request without an actor is refused: the key it sent, read by its prefix. */
function unauthenticatedMessage(key: string | undefined): string {
  if (key?.startsWith(API_KEY_PREFIX)) return INVALID_API_KEY;
  if (key?.startsWith(DEPLOYMENT_KEY_PREFIX)) return DEPLOYMENT_KEY_NOT_HERE;
  return 'Unauthorized';
}

/**
 * The actor of a request, or 401: 'Invalid API key' for a personal key that names no one (unknown or
 * revoked), as a wrong deployment key is told; a deployment key (routes that take one read it before
 * this) is told what it is for.
 */
export async function requireActor(auth: Authenticator, req: Request): Promise<Actor> {
  const actor = await auth.authenticate(req);
  if (!actor) throw new AppError('unauthenticated', unauthenticatedMessage(req.header('x-api-key')));
  return actor;
}
