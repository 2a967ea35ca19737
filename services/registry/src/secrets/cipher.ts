import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One AES-256 key with the id stored beside every value it encrypted. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

/** AES-256-GCM with key ids: the first key encrypts, every key decrypts (rotation). */
export interface Cipher {
  readonly currentKeyId: string;
  /** `context` is bound as additional data, so a value cannot be moved to another row. */
  encrypt(plain: string, context: string): { value: string; keyId: string };
  decrypt(value: string, keyId: string, context: string): string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A cipher over `keys` (at least one; the first is current). */
export function createCipher(keys: readonly EncryptionKey[]): Cipher {
  const current = keys[0];
  if (!current) throw new Error('At least one encryption key is needed');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    currentKeyId: current.id,
    encrypt(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { value: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64'), keyId: current.id };
    },
    decrypt(value, keyId, context) {
      const key = byId.get(keyId);
      if (!key) throw new Error(`Encryption key ${keyId} is not configured`);
      const raw = Buffer.from(value, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** Parses `id:base64,id:base64`; each key must be 32 bytes. */
export function parseKeys(text: string): EncryptionKey[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const at = part.indexOf(':');
      const id = part.slice(0, at);
      const key = Buffer.from(part.slice(at + 1), 'base64');
      if (at <= 0 || key.length !== 32) throw new Error(`Encryption key '${id || part.slice(0, 8)}' must be written id:base64 of 32 bytes`);
      return { id, key };
    });
}

/** A new key in the `id:base64` form. */
export function generateKey(id = `k${Date.now().toString(36)}`): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

/** Keys from configuration, or the local key file under `dataDir`, created on first use. */
export function loadKeys(configured: string | undefined, dataDir: string): EncryptionKey[] {
  if (configured) return parseKeys(configured);
  const file = path.join(dataDir, 'registry-encryption.keys');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${generateKey()}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process wrote the key first; use theirs.
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
  }
  return parseKeys(readFileSync(file, 'utf8'));
}
