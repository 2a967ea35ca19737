import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { RegistryDB } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';

/** Additional data bound to a workflow API key's ciphertext: it only decrypts in its own row. */
function context(workflowId: string): string {
  return `workflow-api-key:${workflowId}`;
}

/** The columns that store a workflow's API key encrypted. */
export interface SealedApiKey {
  api_key: string;
  api_key_key_id: string;
}

/** A new workflow API key (sent as x-api-key to the workflow's API endpoint). */
export function newWorkflowApiKey(): string {
  return `wf_${randomBytes(24).toString('base64url')}`;
}

/** Encrypts `plain` for the workflow's row. */
export function sealApiKey(cipher: Cipher, workflowId: string, plain: string): SealedApiKey {
  const sealed = cipher.encrypt(plain, context(workflowId));
  return { api_key: sealed.value, api_key_key_id: sealed.keyId };
}

/** The row's API key in clear, or null before the first deploy. */
export function openApiKey(cipher: Cipher, row: { id: string; api_key: string | null; api_key_key_id: string | null }): string | null {
  if (row.api_key === null || row.api_key_key_id === null) return null;
  return cipher.decrypt(row.api_key, row.api_key_key_id, context(row.id));
}

/**
 * Re-encrypts API keys sealed with another key than the current one, and seals keys stored in clear
 * (rows written before keys were encrypted, whose key id is null); answers how many it rewrote.
 */
export async function rotateApiKeys(db: Kysely<RegistryDB>, cipher: Cipher): Promise<number> {
  const stale = await db
    .selectFrom('workflows')
    .select(['id', 'api_key', 'api_key_key_id'])
    .where('api_key', 'is not', null)
    .where((eb) => eb.or([eb('api_key_key_id', 'is', null), eb('api_key_key_id', '!=', cipher.currentKeyId)]))
    .execute();
  let rewritten = 0;
  for (const row of stale) {
    if (row.api_key === null) continue;
    const plain = row.api_key_key_id === null ? row.api_key : openApiKey(cipher, row);
    if (plain === null) continue;
    const res = await db
      .updateTable('workflows')
      .set(sealApiKey(cipher, row.id, plain))
      .where('id', '=', row.id)
      .where('api_key', '=', row.api_key)
      .executeTakeFirst();
    rewritten += Number(res.numUpdatedRows);
  }
  return rewritten;
}
