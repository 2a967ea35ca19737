/**
 * Encryption of Temporal payloads (workflow and activity inputs and results, local-activity
 * markers, signals): a run's environment variables and every value derived from
 * them reach Temporal's history only as AES-256-GCM ciphertext. Every process that talks to Temporal
 * for Weft (runner, integrations, copilot; their clients and workers) uses the same codec and key.
 * Payloads written without it (older histories, another tool's) are read as they are.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import type { NatsConnection } from 'nats';
import type { Config } from './config.js';
import { natsPayloadStore, PayloadClaimCheck, type PayloadStore } from './payloadStore.js';

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const text = (s: string) => new TextEncoder().encode(s);
const decodeText = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : '');
const b64 = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('base64');

/** A payload as bytes to seal: its metadata and data, base64 in JSON. */
function serialize(p: Payload): Buffer {
  const metadata = Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)]));
  return Buffer.from(JSON.stringify({ metadata, data: b64(p.data) }));
}

function deserialize(plain: Buffer): Payload {
  const o = JSON.parse(plain.toString('utf8')) as { metadata: Record<string, string>; data: string };
  return { metadata: Object.fromEntries(Object.entries(o.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])), data: Buffer.from(o.data, 'base64') };
}

/** Encrypts each payload whole (metadata and data) with AES-256-GCM: iv | tag | ciphertext. */
export class PayloadCipher implements PayloadCodec {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A payload key has 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
        const iv = randomBytes(IV_BYTES);
        const cipher = createCipheriv('aes-256-gcm', this.key, iv);
        const plain = serialize(p);
        const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
        return {
          metadata: { encoding: text(ENCRYPTED_ENCODING), [KEY_ID]: text(this.keyId) },
          data: Buffer.concat([iv, cipher.getAuthTag(), sealed]),
        };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((p) => {
        if (decodeText(p.metadata?.encoding) !== ENCRYPTED_ENCODING) return p;
        const keyId = decodeText(p.metadata?.[KEY_ID]);
        if (keyId !== this.keyId) throw new Error(`A Temporal payload is encrypted with key ${keyId}, not with this process's key ${this.keyId} (WEFT_PAYLOAD_KEY)`);
        const data = Buffer.from(p.data ?? new Uint8Array());
        const decipher = createDecipheriv('aes-256-gcm', this.key, data.subarray(0, IV_BYTES));
        decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
        return deserialize(plain);
    });
  }
}

const defaultDataDir = () => fileURLToPath(new URL('../../../.data', import.meta.url));

/**
 * The payload key: WEFT_PAYLOAD_KEY (32 bytes in base64, or any other text, hashed to 32 bytes),
 * else a key generated once in the data directory (WEFT_DATA_DIR, default `.data` of the checkout),
 * which every process started from the same checkout shares.
 */
export function payloadKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const configured = env.WEFT_PAYLOAD_KEY?.trim();
  if (configured) {
    const raw = Buffer.from(configured, 'base64');
    return raw.length === 32 && raw.toString('base64') === configured ? raw : createHash('sha256').update(configured).digest();
  }
  const dir = env.WEFT_DATA_DIR ?? defaultDataDir();
  const file = path.join(dir, 'temporal-payload.key');
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process wrote the key first; use theirs.
    if ((err as { code?: string }).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * The data converter of every Weft Temporal client and worker: payloads encrypted with the payload
 * key, then (given a store) those over 128 KB claim-checked into it. Codecs encode first to last and
 * decode last to first, so the store only ever holds ciphertext.
 */
export function weftDataConverter(env: NodeJS.ProcessEnv = process.env, opts: { store?: PayloadStore } = {}): DataConverter {
  const cipher = new PayloadCipher(payloadKey(env));
  return { payloadCodecs: opts.store ? [cipher, new PayloadClaimCheck(opts.store)] : [cipher] };
}

/** The data converter of a service process: the payload key, and the instance's payload store on its NATS connection. */
export function serviceDataConverter(rt: { bus: { nc: NatsConnection }; config: Pick<Config, 'WEFT_INSTANCE' | 'WEFT_PAYLOAD_TTL_DAYS'> }, env: NodeJS.ProcessEnv = process.env): DataConverter {
  const store = natsPayloadStore(rt.bus.nc, rt.config.WEFT_INSTANCE, { ttlMs: rt.config.WEFT_PAYLOAD_TTL_DAYS * 86_400_000 });
  return weftDataConverter(env, { store });
}
