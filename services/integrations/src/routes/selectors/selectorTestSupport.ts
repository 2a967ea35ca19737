import { AppError, createLogger, loadConfig, type Database } from '@weft/platform';
import {
  createFakeCrm,
  createFakeGmail,
  createFakeGoogle,
  createFakeJira,
  createFakeLinear,
  createFakeMicrosoft,
  createFakeSlack,
  createTestDatabase,
  withConfluence,
  type FakeServer,
} from '@weft/testkit';
import type { CallContext } from '@weft/contracts';
import { migrations } from '../../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../../runtime.js';
import type { RegistryPort } from '../../adapters/registry.js';
import type { IntegrationsDB } from '../../db.js';
import type { RouteAnswer } from '../../tools/runtime/types.js';

/** The caller of the selector tests: user1 editing workflow wf-sel. */
export const CALLER: CallContext = { workspaceId: 'ws1', workflowId: 'wf-sel', actorId: 'user1' };

/** The token the registry stand-in answers for a credential (credentials named `mine-…` are user1's). */
export const tokenOf = (credentialId: string) => `tok-${credentialId}-secret`;

export interface SelectorHarness {
  fakes: { slack: FakeServer; gmail: FakeServer; google: FakeServer; atlassian: FakeServer; linear: FakeServer; microsoft: FakeServer; crm: FakeServer };
  /** Credentials the registry stand-in was asked for, in order. */
  tokenRequests: Array<{ userId: string; credentialId: string }>;
  /** The errors of the stored-choice lookups the route logged as failed (`selector lookup failed`), in order. */
  lookupFailures: string[];
  /** POST /api/tools/selectors/list as CALLER (the body gets workflowId wf-sel unless it names one). */
  list(body: unknown, opts?: { envVars?: Record<string, string>; context?: CallContext; strict?: boolean }): Promise<RouteAnswer>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The integrations runtime against the service fakes of every selector's provider, with a registry
 * stand-in that, like the registry, answers only the acting user's own credentials (another's is
 * `Credential … not found`). A second runtime (`strict`) refuses private addresses, the fakes' included.
 */
export async function createSelectorHarness(): Promise<SelectorHarness> {
  const database: Database<IntegrationsDB> & { drop(): Promise<void> } = await createTestDatabase<IntegrationsDB>('integrations_selectors', migrations);
  const [slack, gmail, google, atlassian, linear, microsoft, crm] = await Promise.all([
    createFakeSlack(),
    createFakeGmail(),
    createFakeGoogle(),
    createFakeJira().then(withConfluence),
    createFakeLinear(),
    createFakeMicrosoft(),
    createFakeCrm(),
  ]);
  const tokenRequests: SelectorHarness['tokenRequests'] = [];
  const registry: RegistryPort = {
    getOAuthToken: ({ actor, credentialId }) => {
      tokenRequests.push({ userId: actor.userId, credentialId });
      if (actor.userId === 'user1' && credentialId.startsWith('mine-')) return Promise.resolve({ accessToken: tokenOf(credentialId) });
      return Promise.reject(new AppError('not_found', `Credential ${credentialId} not found`));
    },
    listCustomTools: () => Promise.resolve({ toolsJson: '[]' }),
  };
  const env = {
    WEFT_SLACK_BASE_URL: slack.url,
    WEFT_GMAIL_BASE_URL: `${gmail.url}/gmail/v1/users/me`,
    WEFT_GOOGLE_DRIVE_BASE_URL: `${google.url}/drive/v3`,
    WEFT_GOOGLE_CALENDAR_BASE_URL: `${google.url}/calendar/v3`,
    WEFT_ATLASSIAN_BASE_URL: atlassian.url,
    WEFT_LINEAR_BASE_URL: `${linear.url}/graphql`,
    WEFT_MICROSOFT_GRAPH_BASE_URL: microsoft.url,
    WEFT_WEALTHBOX_BASE_URL: `${crm.url}/wealthbox`,
  };
  const config = loadConfig({ ...process.env, WEFT_INSTANCE: 'tselectors' });
  const lookupFailures: string[] = [];
  const logger = createLogger('integrations', 'warn', {
    write(line: string) {
      const entry = JSON.parse(line) as { msg?: string; error?: string };
      if (entry.msg === 'selector lookup failed') lookupFailures.push(String(entry.error));
    },
  });
  const runtime = (allow: string[]): ToolRuntime => createToolRuntime({ db: database.db, logger, config, env, registry, policy: { allowPrivateNetwork: false, allowlist: allow }, docsDir: null });
  const rt = runtime(['127.0.0.1']);
  const strict = runtime([]);
  const fakes = { slack, gmail, google, atlassian, linear, microsoft, crm };
  return {
    fakes,
    tokenRequests,
    lookupFailures,
    list(body, opts = {}) {
      const withWorkflow = typeof body === 'object' && body !== null && !Array.isArray(body) && !('workflowId' in body) ? { workflowId: CALLER.workflowId, ...body } : body;
      return (opts.strict ? strict : rt).routes.handle({ method: 'POST', path: '/tools/selectors/list', query: {}, body: withWorkflow, context: opts.context ?? CALLER, envVars: opts.envVars ?? {} });
    },
    reset() {
      // Requests only: reset() would drop the fakes' default routes too.
      for (const f of Object.values(fakes)) f.requests.length = 0;
      tokenRequests.length = 0;
      lookupFailures.length = 0;
    },
    async close() {
      await rt.close();
      await strict.close();
      await Promise.all(Object.values(fakes).map((f) => f.close()));
      await database.drop();
    },
  };
}
