import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from 'nats';
import { backingEnv, uniqueSuffix } from '@weft/testkit';
import { createLogger } from '@weft/platform';
import { startGatewayPeers, type Forgettable, type GatewayPeers } from './peers.js';

/** A gateway's peer side on its own connection, with a forget that only records when it ran. */
function gateway(nats: NatsConnection, instance: string, opts: { ackWaitMs?: number; slowForgetMs?: number } = {}) {
  const forgotten: Forgettable[] = [];
  const peers = startGatewayPeers({
    nats,
    instance,
    logger: createLogger('test', 'silent'),
    ackWaitMs: opts.ackWaitMs ?? 10_000,
    forget: (what) => {
      if (opts.slowForgetMs) {
        // A busy event loop: the forget message is handled this long after it arrived.
        const until = Date.now() + opts.slowForgetMs;
        while (Date.now() < until);
      }
      forgotten.push(what);
    },
  });
  return { peers, forgotten };
}

describe('gateway peers', () => {
  const connections: NatsConnection[] = [];
  const started: GatewayPeers[] = [];
  let instance: string;
  const open = async () => {
    const nats = await connect({ servers: (await backingEnv()).natsUrl });
    connections.push(nats);
    return nats;
  };

  beforeAll(() => {
    instance = `peers${uniqueSuffix()}`;
  });

  afterAll(async () => {
    for (const p of started) p.close();
    await Promise.all(connections.map((c) => c.close()));
  });

  it('learns of each other and resolves forgetEverywhere only after every other gateway has forgotten', async () => {
    const a = gateway(await open(), instance);
    const b = gateway(await open(), instance, { slowForgetMs: 200 });
    const c = gateway(await open(), instance);
    started.push(a.peers, b.peers, c.peers);
    await expect.poll(() => a.peers.peers().length, { timeout: 10_000 }).toBe(2);

    await a.peers.forgetEverywhere('access');
    // Nothing is awaited after the call: each gateway had forgotten before it resolved.
    expect(a.forgotten).toContain('access');
    expect(b.forgotten).toContain('access');
    expect(c.forgotten).toContain('access');

    await c.peers.forgetEverywhere('sessions');
    expect(a.forgotten).toContain('sessions');
    expect(b.forgotten).toContain('sessions');
  });

  it('does not wait for a gateway that said goodbye', async () => {
    const other = `peers${uniqueSuffix()}`;
    const a = gateway(await open(), other, { ackWaitMs: 20_000 });
    const leaving = gateway(await open(), other);
    started.push(a.peers);
    await expect.poll(() => a.peers.peers().length, { timeout: 10_000 }).toBe(1);
    leaving.peers.close();
    await expect.poll(() => a.peers.peers().length, { timeout: 10_000 }).toBe(0);
    // Resolves without the 20 s acknowledgement wait.
    const at = Date.now();
    await a.peers.forgetEverywhere('access');
    expect(Date.now() - at).toBeLessThan(10_000);
    expect(a.forgotten).toContain('access');
  });

  it('stops waiting for a gateway that has gone without a word, after the acknowledgement wait', async () => {
    const other = `peers${uniqueSuffix()}`;
    const a = gateway(await open(), other, { ackWaitMs: 300 });
    const goneConnection = await open();
    const gone = gateway(goneConnection, other);
    started.push(a.peers);
    await expect.poll(() => a.peers.peers().length, { timeout: 10_000 }).toBe(1);
    // Gone without a goodbye: its connection ends first (a crash), then its timers stop.
    await goneConnection.close();
    gone.peers.close();
    const at = Date.now();
    await a.peers.forgetEverywhere('access');
    expect(Date.now() - at).toBeGreaterThanOrEqual(250);
    expect(a.forgotten).toContain('access');
  });
});
