import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** Everything a Weft process reads from the environment, with defaults that work on a developer's machine. */
export const configSchema = z.object({
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/weft'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  // Prefixes stream names, subjects and task queues so several stacks can share one NATS and Temporal.
  WEFT_INSTANCE: z.string().regex(/^[a-z][a-z0-9_]*$/, 'lowercase letters, digits and _').default('weft'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  PORT: port.default(3000),
  REGISTRY_ADDR: z.string().default('127.0.0.1:50051'),
  EDITOR_ADDR: z.string().default('127.0.0.1:50052'),
  RUNNER_ADDR: z.string().default('127.0.0.1:50053'),
  INTEGRATIONS_ADDR: z.string().default('127.0.0.1:50054'),
  COPILOT_ADDR: z.string().default('127.0.0.1:50055'),
  // Where this process's gRPC server binds, when it differs from the address others dial (containers).
  GRPC_LISTEN: z.string().optional(),
  GRPC_DEADLINE_MS: z.coerce.number().int().positive().default(10_000),
  WEB_DIST: z.string().optional(),
  // Days a claim-checked Temporal payload (over 128 KB) is kept in the payload store; 0 keeps them.
  // Keep it above the longest a run stays open: replaying a history needs its payloads.
  WEFT_PAYLOAD_TTL_DAYS: z.coerce.number().min(0).default(30),
  // The Chromium the Stagehand agent drives (integrations; `off` keeps it reading pages as text), and how many at once.
  WEFT_BROWSER_PATH: z.string().optional(),
  WEFT_BROWSER_MAX: z.coerce.number().int('WEFT_BROWSER_MAX must be a whole number').positive('WEFT_BROWSER_MAX must be at least 1').optional(),
});

export type Config = z.infer<typeof configSchema>;

/** The listening address of each service, by name. */
export type ServiceName = 'registry' | 'editor' | 'runner' | 'integrations' | 'copilot';

/** Parses the environment; a bad value throws naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  return parsed.data;
}

/** The gRPC address a service listens on and clients dial. */
export function serviceAddress(config: Config, service: ServiceName): string {
  const byName: Record<ServiceName, string> = {
    registry: config.REGISTRY_ADDR,
    editor: config.EDITOR_ADDR,
    runner: config.RUNNER_ADDR,
    integrations: config.INTEGRATIONS_ADDR,
    copilot: config.COPILOT_ADDR,
  };
  return byName[service];
}
