import { Router } from 'express';
import type { Authenticator } from '../auth.js';

/** The path of the gateway's own sign-in page. */
export const SIGN_IN_PATH = '/sign-in';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Weft</title>
<style>
  body { font: 15px system-ui, sans-serif; background: #f5f6f8; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #fff; padding: 28px; border-radius: 10px; box-shadow: 0 2px 12px #0001; width: 320px; display: grid; gap: 12px; }
  h1 { font-size: 20px; margin: 0 0 4px; }
  input, button { font: inherit; padding: 9px 10px; border-radius: 6px; border: 1px solid #ccd; }
  button { background: #3972F6; color: #fff; border: 0; cursor: pointer; }
  .switch { background: none; color: #3972F6; padding: 0; }
  .error { color: #b00020; min-height: 1.2em; margin: 0; }
  .hidden { display: none; }
</style>
</head>
<body>
<form id="form">
  <h1 id="title">Sign in to Weft</h1>
  <input id="name" class="hidden" name="name" placeholder="Name" autocomplete="name">
  <input name="email" type="email" placeholder="Email" required autocomplete="email">
  <input name="password" type="password" placeholder="Password (8 characters or more)" required minlength="8" autocomplete="current-password">
  <button type="submit" id="submit">Sign in</button>
  <button type="button" class="switch" id="switch">No account yet? Sign up</button>
  <p class="error" id="error" role="alert"></p>
</form>
<script>
  let signUp = false;
  const $ = (id) => document.getElementById(id);
  $('switch').onclick = () => {
    signUp = !signUp;
    $('name').classList.toggle('hidden', !signUp);
    $('title').textContent = signUp ? 'Create your Weft account' : 'Sign in to Weft';
    $('submit').textContent = signUp ? 'Sign up' : 'Sign in';
    $('switch').textContent = signUp ? 'Have an account? Sign in' : 'No account yet? Sign up';
  };
  $('form').onsubmit = async (e) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.target));
    const body = signUp ? { name: data.name || data.email.split('@')[0], email: data.email, password: data.password } : { email: data.email, password: data.password };
    const res = await fetch(signUp ? '/api/auth/sign-up/email' : '/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.ok) { location.href = new URLSearchParams(location.search).get('next') || '/'; return; }
    const answer = await res.json().catch(() => ({}));
    $('error').textContent = answer.message || answer.error || res.statusText;
  };
</script>
</body>
</html>`;

/**
 * The gateway's sign-in and sign-up page, and a redirect to it for page loads of the web app
 * without a session (assets and /api are left alone).
 */
export function signInPage(auth: Authenticator): Router {
  const r = Router();
  r.get(SIGN_IN_PATH, (_req, res) => {
    res.type('html').send(PAGE);
  });
  r.get(/^(?!\/api\/)[^.]*$/, async (req, res, next) => {
    if (!req.accepts('html') || (await auth.authenticate(req))) {
      next();
      return;
    }
    res.redirect(302, `${SIGN_IN_PATH}?next=${encodeURIComponent(req.originalUrl)}`);
  });
  return r;
}
