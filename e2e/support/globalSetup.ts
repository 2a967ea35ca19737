import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { backingEnv, createTestInstance, uniqueSuffix } from '@weft/testkit';
import { startStack } from '../../infra/scripts/lib/stack.mjs';
import { startModelFake } from './modelFake.js';
import { serveAnthropic } from './anthropicFake.js';
import { startServiceFakes, type ServiceFakeName } from './serviceFakes.js';
import { dropDatabase } from './databases.js';

declare module 'vitest' {
  export interface ProvidedContext {
    weftUrl: string;
    weftEnv: Record<string, string>;
    modelFakeUrl: string;
    serviceFakeUrls: Record<ServiceFakeName, string>;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Starts one whole Weft stack (own database and bus instance) for every end-to-end test file. */
export default async function setup(project: TestProject) {
  const env = await backingEnv();
  const database = new URL(env.databaseUrl);
  database.pathname = `/weft_e2e_${uniqueSuffix()}`;
  const { instance, cleanup } = await createTestInstance();
  // Model providers answer from a local fake (e2e/models.test.ts).
  const models = await startModelFake();
  // It speaks Anthropic's messages API too (WEFT_ANTHROPIC_BASE_URL names it; e2e/toolRoutes.test.ts).
  serveAnthropic(models.fake.server);
  // Integration tools and OAuth token exchanges answer from protocol fakes (e2e/integrations.test.ts).
  const services = await startServiceFakes();
  const stackEnv = {
    DATABASE_URL: database.toString(),
    NATS_URL: env.natsUrl,
    TEMPORAL_ADDRESS: env.temporalAddress,
    WEFT_INSTANCE: instance,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Tools may reach the tests' local fake servers; every other private or metadata address stays refused.
    WEFT_OUTBOUND_ALLOWLIST: '127.0.0.1',
    ...models.env,
    ...services.env,
  };
  const stack = await startStack({ root, env: stackEnv, randomPorts: true });
  project.provide('weftUrl', stack.url);
  project.provide('weftEnv', { ...stackEnv, ...stack.addresses });
  project.provide('modelFakeUrl', models.fake.url);
  project.provide('serviceFakeUrls', services.urls);
  return async () => {
    await stack.stop();
    await models.fake.close();
    await services.close();
    await cleanup();
    await dropDatabase(database.toString());
  };
}
