import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backingEnv, createTestInstance } from '@weft/testkit';
import type { Payload } from '@temporalio/common';
import { PayloadCipher } from './payloadCodec.js';
import { CLAIM_CHECK_ENCODING, PayloadClaimCheck, natsPayloadStore, packPayload, payloadBucket, unpackPayload, type PayloadStore } from './payloadStore.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null | undefined) => new TextDecoder().decode(b ?? new Uint8Array());
const json = (value: unknown): Payload => ({ metadata: { encoding: enc('json/plain') }, data: enc(JSON.stringify(value)) });

/** A store in memory that counts its writes. */
function memoryStore(): PayloadStore & { objects: Map<string, Uint8Array>; puts: number } {
  const objects = new Map<string, Uint8Array>();
  return {
    objects,
    puts: 0,
    put(key, bytes) {
      this.puts++;
      objects.set(key, bytes);
      return Promise.resolve();
    },
    get: (key) => Promise.resolve(objects.get(key) ?? null),
  };
}

describe('claim checks for large Temporal payloads', () => {
  it('packs a payload into bytes and back (metadata and data)', () => {
    const p: Payload = { metadata: { encoding: enc('json/plain'), other: new Uint8Array([0, 255]) }, data: enc('{"a":1}') };
    const back = unpackPayload(packPayload(p));
    expect(dec(back.metadata?.encoding)).toBe('json/plain');
    expect([...(back.metadata?.other ?? [])]).toEqual([0, 255]);
    expect(dec(back.data)).toBe('{"a":1}');
  });

  it('leaves payloads up to the threshold as they are; stores larger ones and keeps a small reference', async () => {
    const store = memoryStore();
    const codec = new PayloadClaimCheck(store, 1000);
    const small = json('x'.repeat(900));
    const large = json('y'.repeat(5000));
    const [keptSmall, ticket] = await codec.encode([small, large]);
    expect(keptSmall).toBe(small);
    expect(dec(ticket?.metadata?.encoding)).toBe(CLAIM_CHECK_ENCODING);
    expect(ticket?.data?.byteLength).toBeLessThan(200);
    expect(store.objects.size).toBe(1);
    const [a, b] = await codec.decode([keptSmall as Payload, ticket as Payload]);
    expect(dec(a?.data)).toBe(dec(small.data));
    expect(dec(b?.metadata?.encoding)).toBe('json/plain');
    expect(dec(b?.data)).toBe(dec(large.data));
  });

  it('names objects by their content: the same value stored twice is one object', async () => {
    const store = memoryStore();
    const codec = new PayloadClaimCheck(store, 10);
    const [t1] = await codec.encode([json('same value, long enough')]);
    const [t2] = await codec.encode([json('same value, long enough')]);
    expect(dec(t1?.data)).toBe(dec(t2?.data));
    expect(store.objects.size).toBe(1);
  });

  it('fails decoding with a clear message when the object is missing or does not match its name', async () => {
    const store = memoryStore();
    const codec = new PayloadClaimCheck(store, 10);
    const [ticket] = await codec.encode([json('a value over ten bytes')]);
    if (!ticket) throw new Error('no ticket');
    const [key] = [...store.objects.keys()];
    store.objects.set(key as string, enc('something else'));
    await expect(codec.decode([ticket])).rejects.toThrow(/read from the payload store does not match its name/);
    store.objects.clear();
    await expect(codec.decode([ticket])).rejects.toThrow(/is missing from the payload store/);
  });

  describe('in the instance’s NATS object store', () => {
    let nc: NatsConnection;
    let instance: Awaited<ReturnType<typeof createTestInstance>>;

    beforeAll(async () => {
      nc = await connect({ servers: (await backingEnv()).natsUrl });
      instance = await createTestInstance();
    });

    afterAll(async () => {
      await nc?.close();
      await instance?.cleanup();
    });

    it('round-trips a 1 MB payload through a second connection, and holds only ciphertext behind the cipher', async () => {
      const cipher = new PayloadCipher(Buffer.alloc(32, 5));
      const writer = new PayloadClaimCheck(natsPayloadStore(nc, instance.instance));
      const secret = `sk-live-${'z'.repeat(1024 * 1024)}`;
      // Encoding runs the cipher first, then the claim check (weftDataConverter's order).
      const [ticket] = await writer.encode(await cipher.encode([json({ secret })]));
      if (!ticket) throw new Error('no ticket');
      expect(dec(ticket.metadata?.encoding)).toBe(CLAIM_CHECK_ENCODING);

      const other = await connect({ servers: (await backingEnv()).natsUrl });
      try {
        const store = natsPayloadStore(other, instance.instance);
        const { key } = JSON.parse(dec(ticket.data)) as { key: string };
        const raw = await store.get(key);
        expect(raw?.byteLength).toBeGreaterThan(1024 * 1024);
        expect(Buffer.from(raw ?? []).toString('latin1')).not.toContain('sk-live-');
        const reader = new PayloadClaimCheck(store);
        const [opened] = await cipher.decode(await reader.decode([ticket]));
        expect(JSON.parse(dec(opened?.data))).toEqual({ secret });
      } finally {
        await other.close();
      }
    });

    it('creates the bucket with the age limit it is given (WEFT_PAYLOAD_TTL_DAYS), or none', async () => {
      const aged = await createTestInstance();
      try {
        await natsPayloadStore(nc, aged.instance, { ttlMs: 2 * 86_400_000 }).put('k', new Uint8Array([1]));
        const jsm = await nc.jetstreamManager();
        expect((await jsm.streams.info(`OBJ_${payloadBucket(aged.instance)}`)).config.max_age).toBe(2 * 86_400_000 * 1_000_000);
        expect((await jsm.streams.info(`OBJ_${payloadBucket(instance.instance)}`)).config.max_age).toBe(0);
      } finally {
        await aged.cleanup();
      }
    });
  });
});
