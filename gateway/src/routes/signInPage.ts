import { Router } from 'express';
import type { Authenticator } from '../auth.js';

/** The web app's sign-in page (a page of the React app, served like any other of its paths). */
export const SIGN_IN_PATH = '/sign-in';
/** Pages of the web app that a visitor without a session may load. */
const PUBLIC_PAGES = new Set([SIGN_IN_PATH, '/sign-up']);

/**
 * Page loads of the web app without a session go to its sign-in page, with where they were going
 * in `next`; the sign-in and sign-up pages themselves, assets and /api are left alone.
 */
export function signInPage(auth: Authenticator): Router {
  const r = Router();
  r.get(/^(?!\/api\/)[^.]*$/, async (req, res, next) => {
    if (PUBLIC_PAGES.has(req.path) || !req.accepts('html') || (await auth.authenticate(req))) {
      next();
      return;
    }
    res.redirect(302, `${SIGN_IN_PATH}?next=${encodeURIComponent(req.originalUrl)}`);
  });
  return r;
}
