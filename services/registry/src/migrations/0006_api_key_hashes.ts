import type { Kysely, Migration } from 'kysely';
import type { RegistryDB } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';
import { hashStoredApiKeys } from '../deployments/apiKey.js';

/** A hash of each workflow API key beside its ciphertext, so a deployed run checks a key without decrypting any. */
export function apiKeyHashes(cipher: Cipher): Migration {
  return {
    async up(db: Kysely<RegistryDB>) {
      await db.schema.alterTable('workflows').addColumn('api_key_hash', 'text').execute();
      await hashStoredApiKeys(db, cipher);
    },
  };
}
