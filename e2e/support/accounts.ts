import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

/** A new account signed up through /api/auth/sign-up/email: its id, email and session cookie. */
export async function createAccount(name = 'Test User'): Promise<{ userId: string; email: string; cookie: string }> {
  const email = `${randomUUID()}@example.test`;
  const res = await fetch(`${inject('weftUrl')}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name }),
  });
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { userId: body.user.id, email, cookie };
}
