import type { Kysely } from 'kysely';
import type { Logger } from '@weft/platform';
import type { AddressPolicy } from '../net/addressPolicy.js';
import type { BaseUrls } from '../tools/runtime/baseUrls.js';
import type { CredentialSource, InternalRoutes } from '../tools/runtime/types.js';
import type { IntegrationsDB } from '../db.js';
import { createRouter, type Route } from './router.js';
import { memoryRoutes } from './memory.routes.js';
import { fileRoutes } from './files.routes.js';
import { emailRoutes } from './email.routes.js';
import { proxyRoutes } from './proxy.routes.js';
import { docsRoutes, findDocsDir } from './docs.routes.js';
import { firecrawlRoutes } from './firecrawl.routes.js';
import { confluenceRoutes } from './confluence.routes.js';
import { knowledgeRoutes, type Embed } from './knowledge.routes.js';
import { selectorRoutes } from './selectors/selectors.routes.js';

export interface InternalRouteDeps {
  db: Kysely<IntegrationsDB>;
  policy: AddressPolicy;
  baseUrls: BaseUrls;
  logger: Logger;
  docsDir?: string | null;
  /** Embeddings for knowledge bases: the model layer's, with the operator's model config. */
  embed: Embed;
  /** OAuth tokens for the resource selectors' lists (the tool runtime's registry source); without it they are not served. */
  credentials?: CredentialSource;
  /** Routes added by other parts (knowledge, runner-backed tools), so this list stays easy to extend. */
  extra?: Route[];
}

/** Every internal tool route of the integrations service. */
export function createInternalRoutes(deps: InternalRouteDeps): InternalRoutes {
  return createRouter(
    [
      ...memoryRoutes(deps.db, deps.logger),
      ...fileRoutes(deps.policy),
      ...emailRoutes(deps.policy),
      ...proxyRoutes(deps.policy, deps.baseUrls),
      ...firecrawlRoutes(deps.policy, deps.baseUrls),
      ...confluenceRoutes(deps.policy, deps.baseUrls),
      ...(deps.credentials ? selectorRoutes({ policy: deps.policy, baseUrls: deps.baseUrls, credentials: deps.credentials, logger: deps.logger }) : []),
      ...knowledgeRoutes({ db: deps.db, policy: deps.policy, embed: deps.embed }),
      ...docsRoutes(deps.docsDir === undefined ? findDocsDir() : deps.docsDir),
      ...(deps.extra ?? []),
    ],
    deps.logger,
  );
}
