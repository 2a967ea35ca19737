import { execFileSync } from 'node:child_process';

/** Addresses of the backing services an integration test talks to. */
export interface BackingEnv {
  databaseUrl: string;
  natsUrl: string;
  temporalAddress: string;
}

let resolved: Promise<BackingEnv> | undefined;

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** The dev server's flags as infra/scripts/lib/backing.mjs gives them (TEMPORAL_DEV_SERVER_FLAGS, whose comment says why). */
const DEV_SERVER_FLAGS = [
  '--dynamic-config-value',
  'system.enableActivityEagerExecution=true',
  ...['transfer', 'visibility', 'timer'].flatMap((queue) => ['--dynamic-config-value', `history.${queue}ProcessorMaxPollRPS=1000`]),
];

/**
 * The services named by DATABASE_URL, NATS_URL and TEMPORAL_ADDRESS (npm test sets all three).
 * Only when they are unset and a Docker engine answers does it start containers instead.
 */
export function backingEnv(): Promise<BackingEnv> {
  resolved ??= resolve();
  return resolved;
}

async function resolve(): Promise<BackingEnv> {
  const { DATABASE_URL, NATS_URL, TEMPORAL_ADDRESS } = process.env;
  if (DATABASE_URL && NATS_URL && TEMPORAL_ADDRESS) return { databaseUrl: DATABASE_URL, natsUrl: NATS_URL, temporalAddress: TEMPORAL_ADDRESS };
  if (!dockerAnswers()) {
    throw new Error('Integration tests need DATABASE_URL, NATS_URL and TEMPORAL_ADDRESS (run them through `npm test`, which sets them), or a Docker engine for testcontainers.');
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  const pg = DATABASE_URL
    ? undefined
    : await new GenericContainer('postgres:16').withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' }).withExposedPorts(5432).withWaitStrategy(Wait.forListeningPorts()).start();
  const nats = NATS_URL ? undefined : await new GenericContainer('nats:2.10').withCommand(['-js']).withExposedPorts(4222).start();
  const temporal = TEMPORAL_ADDRESS
    ? undefined
    : await new GenericContainer('temporalio/temporal:1.5.1').withCommand(['server', 'start-dev', '--ip', '0.0.0.0', '--headless', ...DEV_SERVER_FLAGS]).withExposedPorts(7233).withWaitStrategy(Wait.forListeningPorts()).start();
  return {
    databaseUrl: DATABASE_URL ?? `postgres://postgres@${pg?.getHost()}:${pg?.getMappedPort(5432)}/postgres`,
    natsUrl: NATS_URL ?? `nats://${nats?.getHost()}:${nats?.getMappedPort(4222)}`,
    temporalAddress: TEMPORAL_ADDRESS ?? `${temporal?.getHost()}:${temporal?.getMappedPort(7233)}`,
  };
}
