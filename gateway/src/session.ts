import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { fromNodeHeaders } from 'better-auth/node';
import { createDatabase, migrate, type Logger } from '@weft/platform';
import type { Clients } from './clients.js';
import type { Authenticator } from './auth.js';
import { accountMigrations, type AuthDB } from './accounts/schema.js';
import { createApiKeys, type ApiKeys } from './accounts/apiKeys.js';
import { createUserDirectory, type UserDirectory } from './accounts/users.js';
import { userNameHooks } from './accounts/userName.js';
import { createUserSettings } from './accounts/settings.js';
import { TtlCache } from './ttlCache.js';

/** The header scripts send a personal API key in. */
export const API_KEY_HEADER = 'x-api-key';

export interface AccountOptions {
  databaseUrl: string;
  /** Signs session cookies; generated under `dataDir` when not configured. */
  secret?: string | undefined;
  dataDir: string;
  /** Extra origins allowed to post with cookies (a dev server in front of the gateway). */
  trustedOrigins: string[];
  clients: Clients;
  logger: Logger;
  /** How long a resolved session or API key is remembered (SESSION_CACHE_MS when absent). */
  sessionCacheMs?: number;
}

/** How long the gateway remembers whom a session cookie or API key belongs to. */
export const SESSION_CACHE_MS = 10_000;

/** The local session secret, created once under `dataDir`. */
function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'gateway-auth.secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** The name of a user's first workspace ("Ada's Workspace"). */
export function initialWorkspaceName(name: string): string {
  const first = name.trim().split(/\s+/)[0];
  return first ? `${first}'s Workspace` : 'My Workspace';
}

/**
 * Accounts and sessions (schema `auth`): better-auth for email + password and session cookies,
 * personal API keys, and the authenticator every route uses. Sign-up creates the first workspace
 * (or, when the registry fails then, the first list of workspaces does).
 */
export async function createAccounts(opts: AccountOptions) {
  const database = await createDatabase<AuthDB>(opts.databaseUrl, 'auth', { max: 5 });
  await migrate(database, accountMigrations);
  const auth = betterAuth({
    database: { db: database.db, type: 'postgres' },
    secret: opts.secret ?? localSecret(opts.dataDir),
    emailAndPassword: { enabled: true, autoSignIn: true },
    // A blank or overlong name is refused at sign-up and on a profile update (400 naming the field).
    hooks: userNameHooks,
    telemetry: { enabled: false },
    trustedOrigins: (request) => {
      const host = request?.headers.get('host');
      const proto = request?.headers.get('x-forwarded-proto') ?? 'http';
      return [...opts.trustedOrigins, ...(host ? [`${proto}://${host}`] : [])];
    },
    logger: { disabled: false, level: 'error', log: (level, message) => opts.logger[level]({ auth: true }, message) },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            // The normal path of the first workspace. Should the registry fail here, the account
            // still signs up: the first GET /api/workspaces creates the workspace (once per user).
            try {
              await opts.clients.registry.ensureInitialWorkspace({ actor: { userId: user.id }, name: initialWorkspaceName(user.name) });
            } catch (err) {
              opts.logger.warn({ err, userId: user.id }, 'first workspace not created at sign-up; it is created when the user lists workspaces');
            }
          },
        },
      },
    },
  });
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
  const apiKeys: ApiKeys = createApiKeys(database.db);
  const users: UserDirectory = createUserDirectory(database.db);
  const settings = createUserSettings(database.db);

  // Who a session cookie or API key belongs to, remembered briefly: resolving one costs a database
  // query and an HMAC check, and an editor sends a command per drag. Only answers that name a user
  // are kept; `forget` runs after every request that can end a session or revoke a key.
  const known = new TtlCache<string, string>(opts.sessionCacheMs ?? SESSION_CACHE_MS, 10_000);
  async function resolve(req: Request): Promise<string | undefined> {
    const key = req.header(API_KEY_HEADER);
    if (key) return apiKeys.resolve(key);
    if (!req.headers.cookie) return undefined;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(req.headers) });
    return session?.user.id;
  }
  const authenticator: Authenticator = {
    async authenticate(req: Request) {
      const credential = req.header(API_KEY_HEADER) ? `key\u0000${req.header(API_KEY_HEADER)}` : `cookie\u0000${req.headers.cookie ?? ''}`;
      const userId = await known.remember(credential, () => resolve(req));
      return userId === undefined ? null : { userId };
    },
  };
  function forgetSessions() {
    known.clear();
  }

  return { auth, authenticator, apiKeys, users, settings, forgetSessions, close: () => database.close() };
}

export type Accounts = Awaited<ReturnType<typeof createAccounts>>;
