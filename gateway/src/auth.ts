import type { Request } from 'express';
import { AppError } from '@weft/platform';

/** Who is calling, as the services see it. */
export interface Actor {
  userId: string;
}

/**
 * Resolves the caller of a request. Sessions (cookies, API keys) plug in here; the services only
 * ever receive the resolved actor.
 */
export interface Authenticator {
  authenticate(req: Request): Promise<Actor | null>;
}

/** The single local user of a machine without accounts. */
export const LOCAL_ACTOR: Actor = { userId: 'local' };

/** Every request is the local user (until accounts arrive with the registry issue). */
export function localAuthenticator(): Authenticator {
  return { authenticate: () => Promise.resolve(LOCAL_ACTOR) };
}

/** The actor of a request, or 401. */
export async function requireActor(auth: Authenticator, req: Request): Promise<Actor> {
  const actor = await auth.authenticate(req);
  if (!actor) throw new AppError('unauthenticated', 'Unauthorized');
  return actor;
}
