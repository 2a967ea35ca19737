import type { Kysely, Migration } from 'kysely';
import { loadConfig, serviceAddress, type Config, type ServiceName } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createDatabase, ensureDatabase, migrate, type Database } from './db.js';
import { connectBus, type Bus } from './bus.js';
import { createOutboxRelay, platformMigrations, type OutboxRelay } from './outbox.js';
import { createGrpcServer, setCallingService, type GrpcServer } from './grpc.js';
import { onShutdown } from './shutdown.js';

/** What a service's composition root gets to wire its adapters with. */
export interface ServiceRuntime<DB> {
  name: ServiceName;
  config: Config;
  logger: Logger;
  database: Database<DB>;
  db: Kysely<DB>;
  bus: Bus;
  relay: OutboxRelay;
  grpc: GrpcServer;
  /** Registers a resource to close on shutdown (closed in reverse order of registration). */
  onClose(close: () => Promise<void>): void;
  /** Binds the gRPC server at the service's address, starts the relay and installs signal handling. */
  listen(): Promise<number>;
}

export interface BootOptions {
  name: ServiceName;
  /** The service's own Postgres schema (defaults to its name). */
  schema?: string;
  /** The service's migrations; the outbox and inbox tables are added to them. */
  migrations: Record<string, Migration>;
  env?: NodeJS.ProcessEnv;
}

/** The full migration set of a service: the platform's tables plus its own. */
export function serviceMigrations(own: Record<string, Migration>): Record<string, Migration> {
  return { ...platformMigrations, ...own };
}

/** Connects a service to Postgres (its schema, migrated) and NATS, and prepares its gRPC server. */
export async function bootService<DB>(opts: BootOptions): Promise<ServiceRuntime<DB>> {
  const config = loadConfig(opts.env);
  // Every call this service makes names it, so a service can tell which one asks (CALLER_HEADER).
  setCallingService(opts.name);
  const logger = createLogger(opts.name, config.LOG_LEVEL);
  const closers: Array<() => Promise<void>> = [];
  await ensureDatabase(config.DATABASE_URL);
  const database = await createDatabase<DB>(config.DATABASE_URL, opts.schema ?? opts.name);
  closers.push(() => database.close());
  await migrate(database, serviceMigrations(opts.migrations));
  const bus = await connectBus(config.NATS_URL, config.WEFT_INSTANCE);
  closers.push(() => bus.close());
  const relay = createOutboxRelay({ db: database.db, js: bus.js, logger });
  closers.push(() => relay.stop());
  const grpc = createGrpcServer(logger);
  closers.push(() => grpc.shutdown());
  return {
    name: opts.name,
    config,
    logger,
    database,
    db: database.db,
    bus,
    relay,
    grpc,
    onClose(close) {
      closers.push(close);
    },
    async listen() {
      const port = await grpc.listen(config.GRPC_LISTEN ?? serviceAddress(config, opts.name));
      relay.start();
      onShutdown(logger, closers);
      logger.info({ port }, `${opts.name} listening`);
      return port;
    },
  };
}
