import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import express, { type Express, type Router } from 'express';
import type { Forgettable } from './peers.js';
import { REQUEST_ID_HEADER, withRequestContext, type Logger } from '@weft/platform';
import type { Clients } from './clients.js';
import { requireActor, type Authenticator } from './auth.js';
import type { AccessChecker } from './access.js';
import { errorHandler } from './errors.js';
import { catalogRoutes } from './routes/catalog.js';
import { healthRoutes, type HealthCheck } from './routes/health.js';
import { workflowRoutes } from './routes/workflows.js';
import { executionRoutes, type ExecutionLive } from './routes/executions.js';
import { workspaceRoutes } from './routes/workspaces.js';
import { editorRoutes } from './routes/editor.js';
import { eventRoutes } from './routes/events.js';
import type { UserDirectory } from './accounts/users.js';
import { deploymentRoutes } from './routes/registryDeployments.js';
import { folderRoutes } from './routes/registryFolders.js';
import { settingsRoutes } from './routes/registrySettings.js';
import { signInPage } from './routes/signInPage.js';
import { toolRoutes } from './routes/tools.js';
import { webhookRoutes } from './routes/webhooks.js';
import { scheduleRoutes } from './routes/schedules.js';
import { copilotRoutes } from './routes/copilot.js';
import { runRateLimits, type RunLimiters } from './rateLimit.js';
import { holdSuccessUntil } from './holdResponse.js';
import { routeTable, type ApiRoute } from './routeTable.js';
import { unroutedAnswer } from './methodNotAllowed.js';
import { BODY_LIMIT } from './validate.js';
import { webAppRoutes } from './webApp.js';
import { jsonBody, wellFormedUrl } from './wellFormedInput.js';

export interface AppDeps {
  clients: Clients;
  auth: Authenticator;
  access: AccessChecker;
  /** Drops remembered sessions and API keys (after sign-out, key revocation…). */
  forgetSessions: () => void;
  /**
   * Tells every other gateway to forget remembered grants or sessions and waits for them; a change
   * to membership, workflows, sessions or keys answers only after it (without it, other gateways
   * learn of the change from events).
   */
  forgetEverywhere?: ((what: Forgettable) => Promise<void>) | undefined;
  /** /api/auth (sign-up, sign-in, sign-out, API keys, OAuth); reads its own bodies. */
  accountRoutes: Router;
  users: UserDirectory;
  logger: Logger;
  health: Record<string, HealthCheck>;
  /** Folder of the built web app; served with a fallback to index.html for client routes. */
  webDist?: string | undefined;
  /** Core NATS for live run extras (model tokens relayed as stream:chunk); without it runs stream without tokens. */
  executionLive?: ExecutionLive | undefined;
  /** Run rate limits (deployment key, account), shared by every gateway on the database. */
  runLimiters: RunLimiters;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Requests that can change who may reach a workflow: membership, workspaces, a workflow's entry. */
const CHANGES_ACCESS = /^\/api\/(workspaces(\/|$)|workflows\/[^/]+$)/;
/** Requests that can end a session or revoke an API key. */
const CHANGES_SESSIONS = /^\/api\/auth\//;

/** The gateway's HTTP app: /api for browsers and scripts, and the built web app. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const given = req.header(REQUEST_ID_HEADER);
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    withRequestContext({ requestId }, () => next());
  });
  // Remembered grants and sessions are dropped once such a request has been answered (its change is
  // committed by then), before this client can send its next request.
  // A successful one is also held until every other gateway has forgotten too (`forgetEverywhere`).
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const kinds: Forgettable[] = [];
      if (CHANGES_ACCESS.test(req.path)) {
        kinds.push('access');
        res.once('finish', () => deps.access.forget());
      }
      if (CHANGES_SESSIONS.test(req.path)) {
        kinds.push('sessions');
        res.once('finish', () => deps.forgetSessions());
      }
      const everywhere = deps.forgetEverywhere;
      if (everywhere && kinds.length > 0) holdSuccessUntil(res, () => Promise.all(kinds.map((k) => everywhere(k))));
    }
    next();
  });
  // Read once the app is built (every route is registered by the first request).
  let routes: ApiRoute[] | undefined;
  const routesOf = (): ApiRoute[] => (routes ??= routeTable(app));
  // Text Postgres cannot store (NUL, a lone surrogate) in a path parameter or the query: a 400 naming it, before any route.
  app.use('/api', wellFormedUrl(routesOf));
  app.use('/api', deps.accountRoutes);
  const runLimiters = deps.runLimiters;
  // Webhooks read their raw bodies (signatures are over the bytes), so they come before the JSON parser.
  app.use('/api', webhookRoutes(deps.clients, runLimiters, deps.logger));
  // Bytes that are not UTF-8, text Postgres cannot store and nesting past MAX_BODY_DEPTH: a 400 naming the field.
  app.use('/api', jsonBody(BODY_LIMIT));
  app.use('/api', healthRoutes(deps.health));
  // The routes this gateway answers, read from its router (API clients, the bad-input e2e test);
  // signed in only (a session or an API key), as the API itself.
  app.get('/api/routes', async (req, res) => {
    await requireActor(deps.auth, req);
    res.json({ routes: routeTable(app) });
  });
  app.use('/api', catalogRoutes());
  app.use('/api', workspaceRoutes(deps.clients, deps.auth, deps.users));
  app.use('/api', workflowRoutes(deps.clients, deps.auth, deps.access));
  app.use('/api', runRateLimits(deps.auth, runLimiters, deps.clients.registry));
  app.use('/api', executionRoutes(deps.clients, deps.auth, deps.access, deps.executionLive));
  app.use('/api', folderRoutes(deps.clients, deps.auth));
  app.use('/api', deploymentRoutes(deps.clients, deps.auth));
  app.use('/api', settingsRoutes(deps.clients, deps.auth));
  app.use('/api', editorRoutes(deps.clients, deps.auth, deps.access));
  app.use('/api', eventRoutes(deps.clients, deps.auth, deps.access));
  app.use('/api', toolRoutes(deps.clients, deps.auth));
  app.use('/api', scheduleRoutes(deps.clients, deps.auth, deps.access));
  app.use('/api', copilotRoutes(deps.clients, deps.auth, deps.access, deps.executionLive));
  app.use('/api', (req, res) => {
    const answer = unroutedAnswer(routesOf(), req.method, `/api${req.path}`);
    if (answer.allow) res.setHeader('Allow', answer.allow);
    res.status(answer.status).json({ error: answer.error });
  });
  app.use(signInPage(deps.auth));
  if (deps.webDist && existsSync(path.join(deps.webDist, 'index.html'))) {
    app.use(webAppRoutes(deps.webDist));
  }
  app.use(errorHandler(deps.logger));
  return app;
}
