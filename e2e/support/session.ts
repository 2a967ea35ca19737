import { api } from './http.js';
import { createAccount } from './accounts.js';

/** A signed-up account: its session cookie as request headers, and its first workspace. */
export interface TestUser {
  userId: string;
  email: string;
  headers: Record<string, string>;
  workspaceId: string;
}

/** Signs a fresh account up and answers its session and the workspace sign-up created. */
export async function signUp(name = 'Test User'): Promise<TestUser> {
  const account = await createAccount(name);
  const headers = { cookie: account.cookie };
  const ws = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces', undefined, headers);
  const workspaceId = ws.body.workspaces[0]?.id;
  if (!workspaceId) throw new Error('sign-up did not create a workspace');
  return { userId: account.userId, email: account.email, headers, workspaceId };
}

/** `api` bound to one account's headers. */
export function as(user: { headers: Record<string, string> }) {
  return <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => api<T>(method, path, body, user.headers);
}

/** Headers of a caller without a session. */
export const ANONYMOUS = { cookie: '' };
