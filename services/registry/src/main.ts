import { fileURLToPath } from 'node:url';
import { bootService, createServiceClient, serviceAddress } from '@weft/platform';
import { editor, registry, registryTriggers } from '@weft/contracts';
import type { RegistryDB } from './db.js';
import { registryMigrations } from './migrations/index.js';
import { loadRegistryConfig } from './config.js';
import { createCipher, loadKeys } from './secrets/cipher.js';
import type { Registry } from './ports.js';
import { registryHandlers } from './adapters/grpc.js';
import { grpcEditorPort } from './adapters/editorClient.js';
import { consumeEditorEvents } from './deployments/editorEvents.js';
import { rotateEnvironment } from './environment/environment.js';
import { rotateCredentials } from './oauth/credentials.js';
import { rotateApiKeys } from './deployments/apiKey.js';
import { triggerHandlers } from './deployments/triggersGrpc.js';

/** Composition root of the registry service. */
const config = loadRegistryConfig();
const dataDir = config.WEFT_DATA_DIR ?? fileURLToPath(new URL('../../../.data', import.meta.url));
// Before the migrations: one of them encrypts the workflow API keys stored in clear.
const cipher = createCipher(loadKeys(config.WEFT_ENCRYPTION_KEYS, dataDir));
const rt = await bootService<RegistryDB>({ name: 'registry', migrations: registryMigrations(cipher) });
const editorClient = createServiceClient(editor.EditorServiceService, serviceAddress(rt.config, 'editor'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => editorClient.close());
const r: Registry = {
  db: rt.db,
  instance: rt.config.WEFT_INSTANCE,
  editor: grpcEditorPort(editorClient),
  cipher,
  workflowLimit: config.WEFT_WORKFLOW_LIMIT,
  oauth: { providers: config.WEFT_OAUTH_PROVIDERS, refreshSkewS: config.WEFT_OAUTH_REFRESH_SKEW_S, fetch },
  now: () => new Date(),
  random: Math.random,
  kick: () => rt.relay.kick(),
};
const rotated = (await rotateEnvironment(r)) + (await rotateCredentials(r)) + (await rotateApiKeys(r.db, r.cipher));
if (rotated > 0) rt.logger.info({ rotated }, 're-encrypted secrets with the current key');
rt.grpc.add(registry.RegistryServiceService, registryHandlers(r));
rt.grpc.add(registryTriggers.TriggerServiceService, triggerHandlers(r));
const consumer = await consumeEditorEvents(r, rt.bus, rt.logger);
rt.onClose(() => consumer.stop());
await rt.listen();
