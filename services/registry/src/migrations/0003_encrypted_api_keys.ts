import type { Kysely, Migration } from 'kysely';
import type { RegistryDB } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';
import { rotateApiKeys } from '../deployments/apiKey.js';

/** Workflow API keys at rest: a key id column, and every key stored so far encrypted with `cipher`. */
export function encryptedApiKeys(cipher: Cipher): Migration {
  return {
    async up(db: Kysely<RegistryDB>) {
      await db.schema.alterTable('workflows').addColumn('api_key_key_id', 'text').execute();
      // The hash column comes with migration 0006 (which hashes the keys sealed here).
      await rotateApiKeys(db, cipher, { hash: false });
    },
  };
}
