import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { toNodeHandler } from 'better-auth/node';
import type { Clients } from '../clients.js';
import { requireActor } from '../auth.js';
import type { Accounts } from '../session.js';
import { BODY_LIMIT, parseBody } from '../validate.js';
import { jsonBody, textBodyFirst } from '../wellFormedInput.js';
import { settingsPatch } from '../accounts/settings.js';

const apiKeyBody = z.object({ name: z.string().max(200).default('API key') });
const tokenBody = z.object({ credentialId: z.string().min(1, 'credentialId is required') });

function callbackUrl(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}/api/auth/oauth/callback`;
}

/**
 * better-auth's routes as mounted: its body read first as the other routes read theirs
 * (`textBodyFirst`: bytes that are not UTF-8 and JSON nested too deeply are a 400 naming the body,
 * never read with U+FFFD), then handed to better-auth as that text.
 */
export function betterAuthHandlers(auth: Parameters<typeof toNodeHandler>[0]): RequestHandler[] {
  return [textBodyFirst(BODY_LIMIT), toNodeHandler(auth)];
}

/**
 * /api/auth: better-auth's email + password sign-up, sign-in, sign-out and session routes, plus
 * personal API keys and OAuth credentials. Mounted before the app's JSON body parser: better-auth's
 * routes read their bodies through `betterAuthHandlers`.
 */
export function accountRoutes(clients: Clients, accounts: Accounts): Router {
  const r = Router();
  const json = jsonBody('100kb');
  const auth = accounts.authenticator;

  r.post('/auth/api-keys', json, async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(apiKeyBody, req.body);
    res.status(201).json(await accounts.apiKeys.create(actor.userId, body.name));
  });
  // The signed-in user's settings (spec 000 §7 names /api/settings; docs/web.md says what they hold).
  r.get('/settings', async (req, res) => {
    const actor = await requireActor(auth, req);
    res.json({ data: await accounts.settings.get(actor.userId) });
  });
  r.patch('/settings', json, async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(settingsPatch, req.body);
    res.json({ data: await accounts.settings.update(actor.userId, body) });
  });
  r.get('/auth/api-keys', async (req, res) => {
    const actor = await requireActor(auth, req);
    res.json({ keys: await accounts.apiKeys.list(actor.userId) });
  });
  r.delete('/auth/api-keys/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    await accounts.apiKeys.revoke(actor.userId, req.params.id);
    res.json({ success: true });
  });

  r.post('/auth/oauth/token', json, async (req, res) => {
    const actor = await requireActor(auth, req);
    const body = parseBody(tokenBody, req.body);
    const out = await clients.registry.getOAuthToken({ actor, credentialId: body.credentialId });
    res.json({ accessToken: out.accessToken });
  });
  r.get('/auth/oauth/credentials', async (req, res) => {
    const actor = await requireActor(auth, req);
    res.json({ credentials: (await clients.registry.listOAuthCredentials({ actor })).credentials });
  });
  // Disconnect: only the caller's own credentials (another's id answers 404, as an unknown one).
  r.delete('/auth/oauth/credentials/:id', async (req, res) => {
    const actor = await requireActor(auth, req);
    await clients.registry.deleteOAuthCredential({ actor, credentialId: req.params.id });
    res.json({ success: true });
  });
  r.get('/auth/oauth/authorize/:provider', async (req, res) => {
    const actor = await requireActor(auth, req);
    const out = await clients.registry.startOAuth({ actor, providerId: req.params.provider, redirectUri: callbackUrl(req) });
    res.redirect(302, out.authorizeUrl);
  });
  r.get('/auth/oauth/callback', async (req, res) => {
    const actor = await requireActor(auth, req);
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const code = typeof req.query.code === 'string' ? req.query.code : '';
    const out = await clients.registry.completeOAuth({ actor, state, code, redirectUri: callbackUrl(req) });
    res.json({ credential: out.credential });
  });

  r.all('/auth/{*rest}', ...betterAuthHandlers(accounts.auth));
  return r;
}
