import { APIError, createAuthMiddleware } from 'better-auth/api';
import { bodyFault } from '../wellFormedInput.js';

/** The longest user name kept (spec 000 sets none; a name is shown in the header and workspace names). */
export const USER_NAME_MAX = 100;

/** The better-auth routes that take a user's name: sign-up (which requires one) and a profile update. */
const NAME_ROUTES: ReadonlySet<string> = new Set(['/sign-up/email', '/update-user']);

/** Why a (trimmed) name is refused, naming the field, or undefined. */
export function userNameProblem(name: string): string | undefined {
  if (name === '') return 'name is required';
  if (name.length > USER_NAME_MAX) return `name must be at most ${USER_NAME_MAX} characters`;
  return undefined;
}

/**
 * better-auth's `hooks` for user names: a sign-up or profile update whose name is blank or over
 * USER_NAME_MAX characters answers 400 naming the field (the web app trimmed, the API did not: "   "
 * and 100,000 characters were accepted); a name is stored trimmed. A name that is no string is left
 * to better-auth's own check. Any better-auth body holding text Postgres cannot store as sent (NUL, a
 * lone surrogate) or nested too deeply is refused naming the field, as the app's JSON parser does
 * (better-auth reads its bodies itself: a NUL in a name was a 500, a lone surrogate stored as U+FFFD).
 */
export const userNameHooks = {
  before: createAuthMiddleware(async (ctx) => {
    const body: unknown = ctx.body;
    const fault = bodyFault(body);
    if (fault !== undefined) throw new APIError('BAD_REQUEST', { message: fault, code: 'INVALID_TEXT' });
    if (!NAME_ROUTES.has(ctx.path) || body === null || typeof body !== 'object' || !('name' in body)) return;
    const { name } = body;
    if (typeof name !== 'string') return;
    const trimmed = name.trim();
    const problem = userNameProblem(trimmed);
    if (problem !== undefined) throw new APIError('BAD_REQUEST', { message: problem, code: 'INVALID_NAME' });
    return { context: { body: { ...body, name: trimmed } } };
  }),
};
