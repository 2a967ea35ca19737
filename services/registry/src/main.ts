import { bootService } from '@weft/platform';
import { registry } from '@weft/contracts';
import type { RegistryDB } from './db.js';
import { migrations } from './migrations/index.js';
import { registryHandlers } from './adapters/grpc.js';

/** Composition root of the registry service. */
const rt = await bootService<RegistryDB>({ name: 'registry', migrations });
rt.grpc.add(registry.RegistryServiceService, registryHandlers(rt.db, rt.config.WEFT_INSTANCE, () => rt.relay.kick()));
await rt.listen();
