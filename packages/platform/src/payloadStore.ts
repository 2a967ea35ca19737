/**
 * Claim checks for large Temporal payloads: a payload over the threshold (a block's 1 MB output, a
 * large tool result, the input that carries it to the next block) is written to a blob store and only
 * a small reference reaches Temporal's history. Without this every large value sits in the history
 * once per hop (activity result, next activity's input), and a 50 × 50 loop of large outputs runs
 * into Temporal's history size limit.
 *
 * The claim check runs after the cipher (`weftDataConverter`), so the store holds ciphertext only.
 * Objects are content-addressed (SHA-256 of the stored bytes): the same value stored twice is one
 * object, and a reader checks what it read against its name.
 */
import { createHash } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { StorageType, type NatsConnection, type ObjectStore } from 'nats';

/** The `encoding` metadata of a payload that is a reference into the payload store. */
export const CLAIM_CHECK_ENCODING = 'binary/claim-check';
/** Payloads whose data is larger than this go to the store (history keeps a ~100-byte reference). */
export const CLAIM_CHECK_THRESHOLD_BYTES = 128 * 1024;

/** Where claim-checked payloads live. `put` of an existing key may skip the write. */
export interface PayloadStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
}

interface ClaimTicket {
  key: string;
  bytes: number;
}

const text = (s: string) => new TextEncoder().encode(s);
const decodeText = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : '');

/** A payload as one byte string: 4-byte length, its metadata (base64 values in JSON), its data. */
export function packPayload(p: Payload): Buffer {
  const metadata = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]))));
  const head = Buffer.alloc(4);
  head.writeUInt32BE(metadata.length);
  return Buffer.concat([head, metadata, Buffer.from(p.data ?? new Uint8Array())]);
}

export function unpackPayload(packed: Uint8Array): Payload {
  const b = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
  const length = b.readUInt32BE(0);
  const metadata = JSON.parse(b.subarray(4, 4 + length).toString('utf8')) as Record<string, string>;
  return {
    metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: b.subarray(4 + length),
  };
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export class PayloadClaimCheck implements PayloadCodec {
  constructor(
    private readonly store: PayloadStore,
    private readonly thresholdBytes = CLAIM_CHECK_THRESHOLD_BYTES,
  ) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (p) => {
        if ((p.data?.byteLength ?? 0) <= this.thresholdBytes) return p;
        const packed = packPayload(p);
        const ticket: ClaimTicket = { key: sha256(packed), bytes: packed.length };
        await this.store.put(ticket.key, packed);
        return { metadata: { encoding: text(CLAIM_CHECK_ENCODING) }, data: text(JSON.stringify(ticket)) };
      }),
    );
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (p) => {
        if (decodeText(p.metadata?.encoding) !== CLAIM_CHECK_ENCODING) return p;
        const ticket = JSON.parse(decodeText(p.data)) as ClaimTicket;
        const packed = await this.store.get(ticket.key);
        if (!packed) throw new Error(`Temporal payload ${ticket.key} (${ticket.bytes} bytes) is missing from the payload store`);
        if (sha256(packed) !== ticket.key) throw new Error(`Temporal payload ${ticket.key} read from the payload store does not match its name`);
        return unpackPayload(packed);
      }),
    );
  }
}

/** NATS object-store bucket of an instance's claim-checked payloads. */
export const payloadBucket = (instance: string) => `${instance}_payloads`;

/**
 * A PayloadStore in a JetStream object store (file storage, shared by every process of the
 * instance). The bucket is created on first use with `ttlMs` (0 or none: objects are kept); an
 * existing bucket keeps the age limit it was created with.
 */
export function natsPayloadStore(nc: NatsConnection, instance: string, opts: { ttlMs?: number } = {}): PayloadStore {
  let bucket: Promise<ObjectStore> | undefined;
  const open = () => {
    bucket ??= nc
      .jetstream()
      .views.os(payloadBucket(instance), { storage: StorageType.File, ...(opts.ttlMs ? { ttl: opts.ttlMs * 1_000_000 } : {}) })
      .catch((err: unknown) => {
        bucket = undefined;
        throw err;
      });
    return bucket;
  };
  return {
    async put(key, bytes) {
      const os = await open();
      if (await os.info(key)) return;
      await os.putBlob({ name: key }, bytes);
    },
    async get(key) {
      return (await open()).getBlob(key);
    },
  };
}
