import { describe, expect, it } from 'vitest';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { USER_NAME_MAX, userNameHooks } from './userName.js';

/** better-auth as the gateway configures it for names, over memory instead of Postgres. */
function createAuth() {
  type Rows = Record<string, unknown>[];
  const db: { user: Rows; session: Rows; account: Rows; verification: Rows } = { user: [], session: [], account: [], verification: [] };
  const auth = betterAuth({
    database: memoryAdapter(db),
    secret: 'a-test-secret-of-enough-length-0123456789',
    baseURL: 'http://localhost:3000',
    emailAndPassword: { enabled: true, autoSignIn: true },
    telemetry: { enabled: false },
    logger: { disabled: true },
    hooks: userNameHooks,
  });
  return { auth, db };
}

async function post(auth: ReturnType<typeof createAuth>['auth'], path: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: 'http://localhost:3000' };
  if (cookie !== undefined) headers.cookie = cookie;
  const res = await auth.handler(new Request(`http://localhost:3000/api/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie: res.headers.get('set-cookie') ?? '' };
}

describe('a user name at sign-up and on update (POST /api/auth/sign-up/email, /api/auth/update-user)', () => {
  const signUp = (auth: ReturnType<typeof createAuth>['auth'], name: unknown, email = 'ada@example.com') => post(auth, '/sign-up/email', { name, email, password: 'correct horse battery' });

  it.each(['', '   ', '\t\n'])('a blank name (%j) is refused with a 400 naming the field, and no account is made', async (name) => {
    const { auth, db } = createAuth();
    const res = await signUp(auth, name);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('name is required');
    expect(db.user).toHaveLength(0);
  });

  it(`a name over ${USER_NAME_MAX} characters is refused`, async () => {
    const { auth, db } = createAuth();
    const res = await signUp(auth, 'x'.repeat(100_000));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`name must be at most ${USER_NAME_MAX} characters`);
    expect(db.user).toHaveLength(0);
  });

  it('a name is kept trimmed; one of exactly the limit is taken', async () => {
    const { auth, db } = createAuth();
    expect((await signUp(auth, '  Ada Lovelace  ')).status).toBe(200);
    expect(db.user[0]?.name).toBe('Ada Lovelace');
    expect((await signUp(auth, `  ${'y'.repeat(USER_NAME_MAX)}  `, 'y@example.com')).status).toBe(200);
  });

  it('updating the name follows the same rules; an update without a name is left alone', async () => {
    const { auth, db } = createAuth();
    const { cookie } = await signUp(auth, 'Ada');
    const session = cookie.split(';')[0] ?? '';
    expect((await post(auth, '/update-user', { name: '  ' }, session)).body.message).toBe('name is required');
    expect((await post(auth, '/update-user', { name: 'z'.repeat(USER_NAME_MAX + 1) }, session)).status).toBe(400);
    expect(db.user[0]?.name).toBe('Ada');
    expect((await post(auth, '/update-user', { name: ' Grace ' }, session)).status).toBe(200);
    expect(db.user[0]?.name).toBe('Grace');
    expect((await post(auth, '/update-user', { image: null }, session)).status).toBe(200);
    expect(db.user[0]?.name).toBe('Grace');
  });
});
