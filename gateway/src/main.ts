import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect } from 'nats';
import { TEMPORAL_HEALTH_SERVICE, checkGrpcHealth, createDatabase, createLogger, loadConfig, migrate, onShutdown, serviceAddress, type ServiceName } from '@weft/platform';
import { createClients } from './clients.js';
import { SESSION_CACHE_MS, createAccounts } from './session.js';
import { accountRoutes } from './routes/registryAccounts.js';
import { createApp } from './app.js';
import { startGatewayPeers } from './peers.js';
import { ACCESS_CACHE_MS, createAccessChecker } from './access.js';
import type { HealthCheck } from './routes/health.js';
import { createRunLimiters, runRateRulesFromEnv } from './rateLimit.js';
import { gatewayMigrations } from './rateLimitStore.js';

/** A duration in milliseconds from the environment, or `fallback`; anything else stops start-up naming the variable. */
function msFromEnv(name: string, fallback: number): number {
  const given = process.env[name];
  if (given === undefined || given === '') return fallback;
  const ms = Number(given);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`${name} must be a whole number of milliseconds, got "${given}"`);
  return ms;
}

/** Composition root of the gateway. */
const config = loadConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);
const clients = createClients(config);
const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2, connectionTimeoutMillis: 1_000 });
pool.on('error', (err) => logger.warn({ err }, 'postgres pool error'));
const nats = await connect({ servers: config.NATS_URL, waitOnFirstConnect: true, maxReconnectAttempts: -1, name: 'weft-gateway' });

const services: ServiceName[] = ['registry', 'editor', 'runner', 'integrations', 'copilot'];
const health: Record<string, HealthCheck> = {
  ...Object.fromEntries(services.map((s) => [s, () => checkGrpcHealth(serviceAddress(config, s))])),
  postgres: async () => (await pool.query('select 1')).rowCount === 1,
  nats: async () => {
    if (nats.isClosed()) return false;
    await Promise.race([nats.flush(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000))]);
    return true;
  },
  temporal: () => checkGrpcHealth(config.TEMPORAL_ADDRESS, TEMPORAL_HEALTH_SERVICE),
};

const accounts = await createAccounts({
  databaseUrl: config.DATABASE_URL,
  secret: process.env.WEFT_AUTH_SECRET,
  dataDir: process.env.WEFT_DATA_DIR ?? fileURLToPath(new URL('../../.data', import.meta.url)),
  trustedOrigins: (process.env.WEFT_TRUSTED_ORIGINS ?? '').split(',').filter((o) => o.length > 0),
  clients,
  logger,
  sessionCacheMs: msFromEnv('WEFT_SESSION_CACHE_MS', SESSION_CACHE_MS),
});
// The gateway's own counters (rate limits), shared by every gateway on this database.
const gatewayDb = await createDatabase<unknown>(config.DATABASE_URL, 'gateway', { max: 4 });
await migrate(gatewayDb, gatewayMigrations);
const runLimiters = createRunLimiters(gatewayDb.db, runRateRulesFromEnv(process.env), { logger });
const access = createAccessChecker(clients.registry, { ttlMs: msFromEnv('WEFT_ACCESS_CACHE_MS', ACCESS_CACHE_MS) });
// Other gateways' changes to membership and workflows reach this one as registry events.
const registryEvents = nats.subscribe(`${config.WEFT_INSTANCE}.registry.>`, {
  callback: (err, msg) => {
    if (err) return logger.warn({ err }, 'registry event subscription failed');
    try {
      const envelope = JSON.parse(msg.string()) as { type?: unknown };
      if (typeof envelope.type === 'string') access.forgetOnRegistryEvent(envelope.type);
    } catch {
      access.forget();
    }
  },
});
// A change to access, sessions or keys through any gateway is forgotten by every gateway before it answers.
const peers = startGatewayPeers({
  nats,
  instance: config.WEFT_INSTANCE,
  logger,
  forget: (what) => (what === 'access' ? access.forget() : accounts.forgetSessions()),
});
const webDist = config.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
const app = createApp({ clients, auth: accounts.authenticator, access, forgetSessions: accounts.forgetSessions, forgetEverywhere: (what) => peers.forgetEverywhere(what), accountRoutes: accountRoutes(clients, accounts), users: accounts.users, logger, health, webDist, executionLive: { nats, instance: config.WEFT_INSTANCE }, runLimiters });
const server = app.listen(config.PORT, '0.0.0.0', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port }, `gateway listening on http://localhost:${port}`);
});
onShutdown(logger, [
  () => pool.end(),
  () => gatewayDb.close(),
  () => accounts.close(),
  () => {
    registryEvents.unsubscribe();
    peers.close();
    return nats.drain();
  },
  async () => Object.values(clients).forEach((c) => c.close()),
  () => new Promise<void>((resolve) => server.close(() => resolve())),
  // First of all (closers run last to first): tell the other gateways this one is going.
  async () => peers.close(),
]);
