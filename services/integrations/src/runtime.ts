import type { Kysely } from 'kysely';
import type { Config, Logger } from '@weft/platform';
import { SandboxPool } from './function/sandbox.js';
import { createToolExecutor, type ToolExecutor } from './tools/runtime/executeTool.js';
import { createBaseUrls, overridesFromEnv, type BaseUrls } from './tools/runtime/baseUrls.js';
import { policyFromEnv, type AddressPolicy } from './net/addressPolicy.js';
import { serviceTools } from './tools/services/index.js';
import { createInternalRoutes } from './routes/index.js';
import { createRegistryClient, registryCredentials, registryCustomTools, type RegistryPort } from './adapters/registry.js';
import type { InternalRoutes } from './tools/runtime/types.js';
import type { IntegrationsDB } from './db.js';
import type { Route } from './routes/router.js';
import type { Client } from '@temporalio/client';
import { createToolIO } from './tools/runtime/executeTool.js';
import { TOOL_JOBS } from './jobs/definitions.js';
import { createToolJobActivities } from './jobs/activities.js';
import { createToolJobRunner } from './jobs/runner.js';
import type { ToolJobActivities } from './jobs/types.js';
import { modelConfigFromEnv } from './models/config.js';
import { createEmbeddings } from './models/embeddings.js';
import type { CreateEmbeddingsInput } from '@weft/contracts';
import { modelRoutes } from './models/routes.js';
import { stagehandRoutes } from './routes/stagehand.routes.js';
import { browserFromEnv } from './routes/stagehandBrowser.js';
import { createWorkflowSource, workflowRoutes, type WorkflowSource } from './routes/workflow.routes.js';

/** Everything the tool runtime is made of, built once per process (main.ts) or per test. */
export interface ToolRuntime {
  sandbox: SandboxPool;
  tools: ToolExecutor;
  routes: InternalRoutes;
  policy: AddressPolicy;
  baseUrls: BaseUrls;
  /** The polling workflow's activities (served beside the tool activities). */
  jobActivities: ToolJobActivities;
  close(): Promise<void>;
}

export interface ToolRuntimeOptions {
  db: Kysely<IntegrationsDB>;
  logger: Logger;
  config: Config;
  env?: NodeJS.ProcessEnv;
  /** A registry other than the configured one (tests). */
  registry?: RegistryPort;
  policy?: AddressPolicy;
  docsDir?: string | null;
  sandbox?: SandboxPool;
  extraRoutes?: Route[];
  /** Where get-user-workflow reads workflows (default: the registry's and editor's gRPC clients). */
  workflows?: WorkflowSource;
  /** Where polling-job tools run as workflows; without it they make their start request only. */
  jobs?: { client: Client; taskQueue: string; polling?: { intervalMs: number; timeoutMs: number } };
}

export function createToolRuntime(opts: ToolRuntimeOptions): ToolRuntime {
  const env = opts.env ?? process.env;
  const policy = opts.policy ?? policyFromEnv(env);
  const baseUrls = createBaseUrls(overridesFromEnv(env), env);
  const client = opts.registry ? null : createRegistryClient(opts.config);
  const registry: RegistryPort = opts.registry ?? (client as RegistryPort);
  const sandbox = opts.sandbox ?? new SandboxPool({ policy });
  const modelConfig = modelConfigFromEnv(env, policy);
  const workflowClients = opts.workflows ? null : createWorkflowSource(opts.config);
  const workflows: WorkflowSource = opts.workflows ?? (workflowClients as WorkflowSource);
  const extra = [...modelRoutes(modelConfig), ...stagehandRoutes({ policy, browser: browserFromEnv(env), models: { config: modelConfig, logger: opts.logger } }), ...workflowRoutes(workflows), ...(opts.extraRoutes ?? [])];
  const embed = (input: CreateEmbeddingsInput) => createEmbeddings(modelConfig, input);
  const credentials = registryCredentials(registry);
  const routes = createInternalRoutes({ db: opts.db, policy, baseUrls, logger: opts.logger, ...(opts.docsDir !== undefined ? { docsDir: opts.docsDir } : {}), embed, credentials, extra });
  const jobRunner = opts.jobs
    ? createToolJobRunner({
        client: opts.jobs.client,
        taskQueue: opts.jobs.taskQueue,
        jobs: TOOL_JOBS,
        ...(opts.jobs.polling ? { polling: opts.jobs.polling } : {}),
        startDirect: (input) => {
          const def = TOOL_JOBS[input.toolId];
          if (!def) throw new Error(`Tool not found: ${input.toolId}`);
          return def.start(input.params, createToolIO({ policy, baseUrls }, input, input.toolId));
        },
      })
    : undefined;
  const tools = createToolExecutor({
    policy,
    baseUrls,
    credentials,
    customTools: registryCustomTools(registry),
    internal: routes,
    serviceTools,
    logger: opts.logger,
    runCode: (run) => sandbox.run(run),
    ...(jobRunner ? { jobs: jobRunner } : {}),
  });
  return {
    sandbox,
    tools,
    routes,
    policy,
    baseUrls,
    jobActivities: createToolJobActivities({ policy, baseUrls, jobs: TOOL_JOBS }),
    async close() {
      client?.close();
      workflowClients?.close();
      await sandbox.close();
    },
  };
}
