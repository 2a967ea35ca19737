import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { createLogger, ensureDatabase, type Logger } from '@weft/platform';
import { afterAll, beforeAll } from 'vitest';
import { backingEnv, createOpenAIFake, uniqueSuffix, type OpenAIFake } from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import type { IntegrationsDB } from '../db.js';
import type { InternalRoutes, RouteAnswer } from '../tools/runtime/types.js';
import { createRouter } from '../routes/router.js';
import { knowledgeRoutes, type Embed } from '../routes/knowledge.routes.js';
import { createEmbeddings } from '../models/embeddings.js';
import { DEFAULT_BASE_URLS } from '../models/config.js';

/*
 * What the vector store tests share: this machine's Postgres, whether it has pgvector (optional:
 * infra/scripts/pgvector.sh installs it), the knowledge routes over a database, and the fixture texts.
 */
export const { databaseUrl } = await backingEnv();
// A fresh server has no test database yet: created before asking it about pgvector.
await ensureDatabase(databaseUrl);
/** Whether the server lists pgvector; the tests named for it say so and check the exact fallback when not. */
export const PGVECTOR = await (async () => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount === 1;
  } finally {
    await client.end();
  }
})();
export const WITHOUT = 'pgvector is not installed on this Postgres (infra/scripts/pgvector.sh): ';

export const ws: CallContext = { workspaceId: 'ws-vectors', workflowId: 'wf-vectors', actorId: 'user-1' };
const ENV = { OPENAI_API_KEY: 'sk-vectors' };
export const silent = createLogger('integrations', 'silent');
const policy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };

/** Embeddings from the OpenAI fake (it embeds a text by its first 8 characters). */
export const fakeEmbedOf =
  (openai: () => OpenAIFake): Embed =>
  (input) =>
    createEmbeddings({ baseUrls: { ...DEFAULT_BASE_URLS, openai: openai().baseUrl }, keys: {}, azureApiVersion: '2024-07-01-preview' }, input);
/** The OpenAI fake, started before the file's tests and closed after them, and the knowledge routes over a database embedding with it. */
export function useOpenAIFake(): { routesOn(db: Kysely<IntegrationsDB>): InternalRoutes } {
  let openai: OpenAIFake | undefined;
  beforeAll(async () => {
    openai = await createOpenAIFake();
  });
  afterAll(async () => {
    await openai?.close();
  });
  const embed = fakeEmbedOf(() => {
    if (!openai) throw new Error('the OpenAI fake is not started yet');
    return openai;
  });
  return { routesOn: (db) => routesWith(db, embed) };
}
/** The knowledge routes over `db` (each router detects the vector store afresh). */
export const routesWith = (db: Kysely<IntegrationsDB>, embed: Embed) => createRouter(knowledgeRoutes({ db, policy, embed }), silent);

export async function call(routes: InternalRoutes, method: string, path: string, body?: unknown): Promise<RouteAnswer> {
  return routes.handle({ method, path, query: {}, body, context: ws, envVars: ENV });
}
export function ok<T>(a: RouteAnswer): T {
  if (a.status >= 400) throw new Error(`status ${a.status}: ${JSON.stringify(a.body)}`);
  return a.body as T;
}

export type Result = { id: string; content: string; documentName: string; knowledgeBaseId: string; similarity: number; metadata: Record<string, string> };
export type Search = { results: Result[]; totalResults: number };
export const search = async (routes: InternalRoutes, body: Record<string, unknown>) => ok<Search>(await call(routes, 'POST', '/knowledge/search', body));

export const QUERY = 'Apples are tasty';
/** Seven documents, the n-th tagged `tag<n>: 'yes'` and every other tag 'no'; 1-4 in one base, 5-7 in another. */
export const TEXTS = [
  'Apples grow on trees in the orchard.',
  'Apricots ripen early in the summer.',
  'Bananas are yellow and grow in bunches.',
  'Cherries are small, red and sweet.',
  'Dates come from palm trees in the desert.',
  'Elderberries make a dark purple syrup.',
  'Figs are soft and full of tiny seeds.',
];
/** Its first 8 characters are 0 modulo 17 ('f', 'U'): the fake embeds it as the zero vector. */
export const ZERO_TEXT = 'fUUUUUUU has no direction';

/** The embedding column's type as Postgres names it ('vector', 'vectors.vector', 'double precision[]'). */
export async function embeddingType(db: Kysely<IntegrationsDB>): Promise<string | undefined> {
  const column = await sql<{ type: string }>`SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = to_regclass('knowledge_chunks') AND attname = 'embedding'`.execute(db);
  return column.rows[0]?.type;
}

/** A pino logger at info whose lines the test reads. */
export function recordingLogger(): { logger: Logger; lines: Array<{ level: number; msg: string; err?: { message: string } }> } {
  const lines: Array<{ level: number; msg: string; err?: { message: string } }> = [];
  const logger = createLogger('integrations', 'info', { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, lines };
}

/** A database of its own on the same server (the extension is per database), dropped afterwards. */
export async function scratchDatabase(): Promise<{ name: string; url: string; admin(statement: string): Promise<void>; server(statement: string): Promise<void>; drop(): Promise<void> }> {
  const name = `weft_vectors_${uniqueSuffix()}`;
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const run = async <R extends pg.QueryResultRow = pg.QueryResultRow>(target: string, statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      return (await client.query<R>(statement, values)).rows;
    } finally {
      await client.end();
    }
  };
  const server = new URL(databaseUrl);
  server.pathname = '/postgres';
  await run(server.toString(), `CREATE DATABASE "${name}"`);
  return {
    name,
    url: url.toString(),
    admin: async (statement) => void (await run(url.toString(), statement)),
    server: async (statement) => void (await run(server.toString(), statement)),
    drop: async () => {
      // A closed pool ends its clients without waiting for their sockets to close; FORCE would terminate the backends
      // still saying goodbye, and their clients would raise the FATAL as an uncaught error. Wait for them to leave first.
      const deadline = Date.now() + 10_000;
      const left = async () => Number((await run<{ n: string }>(server.toString(), 'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]))[0]?.n ?? 0);
      while ((await left()) > 0) {
        if (Date.now() > deadline) throw new Error(`${await left()} connection(s) to ${name} still open 10 s after the test closed its pools: a pool was left open`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await run(server.toString(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
