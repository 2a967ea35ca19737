import { bootService } from '@weft/platform';
import { editor } from '@weft/contracts';
import type { EditorDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createEventStore } from './store/eventStore.js';
import { productionContext } from './context.js';
import { editorHandlers } from './adapters/grpc.js';
import { consumeRegistryEvents } from './adapters/registryEvents.js';
import { startEventTail } from './live/eventTail.js';

/** Composition root of the editor service. */
const rt = await bootService<EditorDB>({ name: 'editor', migrations });
const kick = () => rt.relay.kick();
const store = createEventStore({
  db: rt.db,
  instance: rt.config.WEFT_INSTANCE,
  context: productionContext,
  afterCommit: kick,
  onBackgroundError: (err) => rt.logger.warn({ err }, 'snapshot failed; loads replay more events until the next one'),
});
rt.onClose(() => store.close());
const tail = await startEventTail({ bus: rt.bus, store, logger: rt.logger });
rt.onClose(() => tail.stop());
rt.grpc.add(editor.EditorServiceService, editorHandlers(store, tail, rt.logger));
const consumer = await consumeRegistryEvents({ bus: rt.bus, db: rt.db, store, logger: rt.logger, afterCommit: kick });
rt.onClose(() => consumer.stop());
await rt.listen();
