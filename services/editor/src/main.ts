import { bootService, createServiceClient, serviceAddress } from '@weft/platform';
import { editor, registry } from '@weft/contracts';
import type { EditorDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createEventStore } from './store/eventStore.js';
import { productionContext } from './context.js';
import { editorHandlers } from './adapters/grpc.js';
import { consumeRegistryEvents } from './adapters/registryEvents.js';
import { startEventTail } from './live/eventTail.js';
import { createStreamLifecycle } from './lifecycle/streamLifecycle.js';
import { grpcRegistryPort } from './adapters/registryClient.js';

/** Composition root of the editor service. */
const rt = await bootService<EditorDB>({ name: 'editor', migrations });
const kick = () => rt.relay.kick();
const store = createEventStore({
  db: rt.db,
  instance: rt.config.WEFT_INSTANCE,
  context: productionContext,
  afterCommit: kick,
  onBackgroundError: (err) => rt.logger.warn({ err }, 'snapshot failed; loads replay more events until the next one'),
  onUnknownEvent: (event) => rt.logger.error(event, 'stored event of a type this editor does not know (a newer Weft wrote it); refusing to load the workflow'),
});
rt.onClose(() => store.close());
const tail = await startEventTail({ bus: rt.bus, store, logger: rt.logger });
rt.onClose(() => tail.stop());
const registryClient = createServiceClient(registry.RegistryServiceService, serviceAddress(rt.config, 'registry'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => registryClient.close());
// A workflow the registry has answered but whose event has not arrived yet is caught up on demand.
const registryPort = grpcRegistryPort(registryClient);
const streams = createStreamLifecycle({ db: rt.db, store, registry: registryPort, afterCommit: kick });
rt.grpc.add(editor.EditorServiceService, editorHandlers(store, tail, rt.logger, streams, registryPort));
const consumer = await consumeRegistryEvents({ bus: rt.bus, db: rt.db, store, logger: rt.logger, afterCommit: kick });
rt.onClose(() => consumer.stop());
await rt.listen();
