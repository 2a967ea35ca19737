import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { createLogger } from '@weft/platform';
import { userNameHooks } from '../accounts/userName.js';
import { errorHandler } from '../errors.js';
import { MAX_BODY_DEPTH, NOT_UTF8 } from '../wellFormedInput.js';
import { betterAuthHandlers } from './registryAccounts.js';

/** better-auth as the gateway mounts it (its hooks, `betterAuthHandlers`, the app's error mapping), over memory instead of Postgres, on 127.0.0.1. */
describe("better-auth's routes read their bodies as the other routes do", () => {
  type Rows = Array<Record<string, unknown>>;
  const db: { user: Rows; session: Rows; account: Rows; verification: Rows } = { user: [], session: [], account: [], verification: [] };
  let server: Server;
  let base = '';
  beforeAll(async () => {
    const auth = betterAuth({
      database: memoryAdapter(db),
      secret: 'a-test-secret-of-enough-length-0123456789',
      baseURL: 'http://127.0.0.1',
      emailAndPassword: { enabled: true, autoSignIn: true },
      telemetry: { enabled: false },
      logger: { disabled: true },
      hooks: userNameHooks,
      trustedOrigins: (request) => [`http://${request?.headers.get('host') ?? '127.0.0.1'}`],
    });
    const app = express();
    app.all('/api/auth/{*rest}', ...betterAuthHandlers(auth));
    app.use(errorHandler(createLogger('test', 'silent')));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const post = async (path: string, body: Buffer | string, type = 'application/json') => {
    const res = await fetch(`${base}/api/auth${path}`, { method: 'POST', headers: { 'content-type': type, origin: base }, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const signUp = (name: string) => JSON.stringify({ email: `${name.length}-${db.user.length}@example.invalid`, password: 'correct horse battery', name });

  it('refuses body bytes that are not UTF-8 with the 400 every route gives, and makes no account', async () => {
    // {"name":"a\xff", …}: better-auth read it with U+FFFD in place of the byte and stored that.
    const text = signUp('aX');
    const bytes = Buffer.from(text);
    bytes[text.indexOf('aX') + 1] = 0xff;
    expect(await post('/sign-up/email', bytes)).toEqual({ status: 400, body: { error: NOT_UTF8 } });
    expect(await post('/sign-in/email', Buffer.from([...Buffer.from('email=x%40example.invalid&password='), 0xc3, 0x28]), 'application/x-www-form-urlencoded')).toEqual({ status: 400, body: { error: NOT_UTF8 } });
    expect(db.user).toHaveLength(0);
  });

  it(`refuses JSON nested past ${MAX_BODY_DEPTH} levels from its bytes, naming where`, async () => {
    const levels = 1_000_000;
    const deep = `{"email":"d@example.invalid","password":"correct horse battery","name":"D","image":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const res = await post('/sign-up/email', deep);
    expect(res).toEqual({ status: 400, body: { error: `Request body is nested too deeply at image.0.0.0.0.0.… (at most ${MAX_BODY_DEPTH} levels of objects and arrays)` } });
    expect(db.user).toHaveLength(0);
  });

  it('hands a good body to better-auth as sent: accents and emoji kept, its own answers unchanged', async () => {
    const created = await post('/sign-up/email', signUp('Zoë 😀 Ünïcode'));
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ name: 'Zoë 😀 Ünïcode' });
    expect(db.user.map((u) => u.name)).toEqual(['Zoë 😀 Ünïcode']);
    // Its own checks still answer: a wrong password, and JSON that does not parse.
    const email = String(db.user[0]?.email);
    expect((await post('/sign-in/email', JSON.stringify({ email, password: 'wrong password here' }))).status).toBe(401);
    expect(await post('/sign-in/email', '{"email":')).toMatchObject({ status: 400, body: { message: 'Invalid JSON in request body' } });
    // A form is read as better-auth reads one.
    const form = new URLSearchParams({ email, password: 'correct horse battery' }).toString();
    expect((await post('/sign-in/email', form, 'application/x-www-form-urlencoded')).status).toBe(200);
  });
});
