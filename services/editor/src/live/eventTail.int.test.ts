import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backingEnv, createTestInstance } from '@weft/testkit';
import { connectBus, createLogger, createOutboxRelay, type Bus } from '@weft/platform';
import { editorTestStore } from '../testSupport.js';
import { startEventTail, type EventTail } from './eventTail.js';

const logger = createLogger('test', 'silent');
const move = (x: number) => [{ type: 'moveBlock' as const, id: 'fn', position: { x, y: 0 } }];

describe('live event tail (real Postgres and NATS)', () => {
  let env: Awaited<ReturnType<typeof editorTestStore>>;
  let bus: Bus;
  let tail: EventTail;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await createTestInstance();
    cleanup = created.cleanup;
    env = await editorTestStore(created.instance);
    bus = await connectBus((await backingEnv()).natsUrl, created.instance);
    tail = await startEventTail({ bus, store: env.store, logger });
  });

  afterAll(async () => {
    await tail?.stop();
    await bus?.close();
    await cleanup?.();
    await env?.database.drop();
  });

  it('wakes a waiting reader when an event of its workflow is published, and only then', async () => {
    const relay = createOutboxRelay({ db: env.db, js: bus.js, logger });
    await env.start('watched');
    await env.start('other');
    await env.store.execute('watched', [{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 0, y: 0 } }]);
    await env.store.execute('other', [{ type: 'addBlock', id: 'fn', blockType: 'function', position: { x: 0, y: 0 } }]);
    await relay.relayOnce();
    const head = (await env.store.eventsAfter('watched', 0, 1_000))?.head ?? 0;

    const started = Date.now();
    // A long wait, so the bound below tells a wake-up from a timeout even on a loaded machine.
    const waiting = tail.read('watched', head, 60_000, 100);
    await new Promise((r) => setTimeout(r, 100));
    // Another workflow's event does not answer the reader.
    await env.store.execute('other', move(5));
    await relay.relayOnce();
    await new Promise((r) => setTimeout(r, 200));
    await env.store.execute('watched', move(7));
    await relay.relayOnce();
    const page = await waiting;
    expect(page.events.map((e) => e.version)).toEqual([head + 1]);
    expect(page.events[0]?.type).toBe('blockMoved');
    expect(Date.now() - started).toBeLessThan(30_000);

    // A reader that is behind gets the stored events at once; one at the head waits out its time.
    expect((await tail.read('watched', head, 5_000, 100)).events).toHaveLength(1);
    const idle = Date.now();
    expect((await tail.read('watched', head + 1, 300, 100)).events).toEqual([]);
    expect(Date.now() - idle).toBeGreaterThanOrEqual(250);
  });
});
