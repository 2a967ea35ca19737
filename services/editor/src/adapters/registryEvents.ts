import { z } from 'zod';
import type { Kysely } from 'kysely';
import { handleOnce, startConsumer, type Bus, type Logger, type RunningConsumer } from '@weft/platform';
import type { EditorDB } from '../db.js';
import type { EventStore } from '../store/eventStore.js';

const CONSUMER = 'editor-registry';
const workflowEvent = z.object({ workflow: z.object({ id: z.string().min(1) }) });

/** Projects the registry's workflow lifecycle into event streams: created → started, deleted → dropped. */
export function consumeRegistryEvents(deps: { bus: Bus; db: Kysely<EditorDB>; store: EventStore; logger: Logger; afterCommit: () => void }): Promise<RunningConsumer> {
  return startConsumer(deps.bus, {
    source: 'registry',
    durable: CONSUMER,
    filterSubject: `${deps.bus.instance}.registry.workflow.>`,
    logger: deps.logger,
    async handle(envelope) {
      switch (envelope.type) {
        case 'workflowCreated': {
          const { workflow } = workflowEvent.parse(envelope.data);
          const ran = await handleOnce(deps.db, CONSUMER, envelope.id, async (trx) => {
            await deps.store.startStream(trx, workflow.id);
          });
          if (ran) deps.afterCommit();
          return;
        }
        case 'workflowDeleted': {
          const { workflow } = workflowEvent.parse(envelope.data);
          await handleOnce(deps.db, CONSUMER, envelope.id, (trx) => deps.store.dropStream(trx, workflow.id));
          return;
        }
        default:
          return;
      }
    },
  });
}
