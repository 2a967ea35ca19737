import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_ENCODING, PayloadCipher, payloadKey } from './payloadCodec.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null | undefined) => new TextDecoder().decode(b ?? new Uint8Array());

describe('Temporal payload encryption', () => {
  const cipher = new PayloadCipher(Buffer.alloc(32, 7));
  const payload = { metadata: { encoding: enc('json/plain') }, data: enc('{"SECRET":"sk-live-123"}') };

  it('seals metadata and data; decoding gives the payload back', async () => {
    const [sealed] = await cipher.encode([payload]);
    expect(dec(sealed?.metadata?.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(sealed?.data ?? []).toString('latin1')).not.toContain('sk-live-123');
    expect(Buffer.from(sealed?.data ?? []).toString('latin1')).not.toContain('json/plain');
    const [opened] = await cipher.decode(sealed ? [sealed] : []);
    expect(dec(opened?.metadata?.encoding)).toBe('json/plain');
    expect(dec(opened?.data)).toBe('{"SECRET":"sk-live-123"}');
  });

  it('reads payloads written without encryption as they are (stored histories)', async () => {
    expect(await cipher.decode([payload])).toEqual([payload]);
  });

  it('refuses a payload of another key, and a tampered one', async () => {
    const [sealed] = await cipher.encode([payload]);
    if (!sealed) throw new Error('nothing sealed');
    await expect(new PayloadCipher(Buffer.alloc(32, 8)).decode([sealed])).rejects.toThrow(/encrypted with key \w+, not with this process's key/);
    const data = Buffer.from(sealed.data ?? []);
    data[data.length - 1] = (data[data.length - 1] ?? 0) ^ 1;
    await expect(cipher.decode([{ ...sealed, data }])).rejects.toThrow();
  });

  it('takes WEFT_PAYLOAD_KEY (base64 of 32 bytes, or text hashed), else one key file shared by the processes of a data directory', () => {
    const raw = Buffer.alloc(32, 3);
    expect(payloadKey({ WEFT_PAYLOAD_KEY: raw.toString('base64') })).toEqual(raw);
    expect(payloadKey({ WEFT_PAYLOAD_KEY: 'a passphrase' })).toHaveLength(32);
    const dir = mkdtempSync(join(tmpdir(), 'weft-key-'));
    try {
      const first = payloadKey({ WEFT_DATA_DIR: dir });
      expect(first).toHaveLength(32);
      expect(payloadKey({ WEFT_DATA_DIR: dir })).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
