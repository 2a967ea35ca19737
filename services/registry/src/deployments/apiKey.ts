import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import { INVALID_API_KEY } from '@weft/contracts';
import type { RegistryDB } from '../db.js';
import type { Cipher } from '../secrets/cipher.js';
import { activeDeployment } from './triggers.js';

/** Additional data bound to a workflow API key's ciphertext: it only decrypts in its own row. */
function context(workflowId: string): string {
  return `workflow-api-key:${workflowId}`;
}

/** The columns that store a workflow's API key encrypted. */
export interface SealedApiKey {
  api_key: string;
  api_key_key_id: string;
  /** SHA-256 of the key (hex): what a caller's x-api-key is checked against without decrypting. */
  api_key_hash: string;
}

/** The hash stored beside a workflow API key (the key is 24 random bytes: a plain hash is enough). */
export function hashApiKey(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex');
}

/** A new workflow API key (sent as x-api-key to the workflow's API endpoint). */
export function newWorkflowApiKey(): string {
  return `wf_${randomBytes(24).toString('base64url')}`;
}

/** Encrypts `plain` for the workflow's row. */
export function sealApiKey(cipher: Cipher, workflowId: string, plain: string): SealedApiKey {
  const sealed = cipher.encrypt(plain, context(workflowId));
  return { api_key: sealed.value, api_key_key_id: sealed.keyId, api_key_hash: hashApiKey(plain) };
}

/** The row's API key in clear, or null before the first deploy. */
export function openApiKey(cipher: Cipher, row: { id: string; api_key: string | null; api_key_key_id: string | null }): string | null {
  if (row.api_key === null || row.api_key_key_id === null) return null;
  return cipher.decrypt(row.api_key, row.api_key_key_id, context(row.id));
}

/** The sealed columns, without the hash for schemas before migration 0006 (which adds that column). */
function withoutHashUnless(hash: boolean, sealed: SealedApiKey): Partial<SealedApiKey> {
  if (hash) return sealed;
  const { api_key_hash: _hash, ...rest } = sealed;
  return rest;
}

/**
 * Re-encrypts API keys sealed with another key than the current one, and seals keys stored in clear
 * (rows written before keys were encrypted, whose key id is null); answers how many it rewrote.
 */
export async function rotateApiKeys(db: Kysely<RegistryDB>, cipher: Cipher, opts: { hash?: boolean } = {}): Promise<number> {
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
      .set(withoutHashUnless(opts.hash ?? true, sealApiKey(cipher, row.id, plain)))
      .where('id', '=', row.id)
      .where('api_key', '=', row.api_key)
      .executeTakeFirst();
    rewritten += Number(res.numUpdatedRows);
  }
  return rewritten;
}

/**
 * Fills the hash of keys stored before hashes were (migration 0006); answers how many it wrote.
 * Keys still in clear are sealed (and hashed) by `rotateApiKeys`.
 */
export async function hashStoredApiKeys(db: Kysely<RegistryDB>, cipher: Cipher): Promise<number> {
  const rows = await db.selectFrom('workflows').select(['id', 'api_key', 'api_key_key_id']).where('api_key', 'is not', null).where('api_key_hash', 'is', null).execute();
  let written = 0;
  for (const row of rows) {
    const plain = row.api_key_key_id === null ? row.api_key : openApiKey(cipher, row);
    if (plain === null) continue;
    await db.updateTable('workflows').set({ api_key_hash: hashApiKey(plain) }).where('id', '=', row.id).execute();
    written += 1;
  }
  return written;
}

/** What a caller holding a workflow's deployment API key runs: the active deployed version. */
export interface DeploymentKeyGrant {
  workflowId: string;
  workspaceId: string;
  version: number;
  state: unknown;
  deployedBy: string;
  /** The user the run acts as (the deployer while they may still deploy there, else the owner: `deployedRows`). */
  actorId: string;
  deployedAt: Date;
}

/**
 * Checks `apiKey` against the workflow's deployment API key and answers its active deployment.
 * An unknown (or deleted) workflow is not_found; a wrong key unauthenticated ('Invalid API key');
 * a workflow not deployed now forbidden ('Workflow is not deployed').
 */
export async function resolveDeploymentKey(db: Kysely<RegistryDB>, workflowId: string, apiKey: string): Promise<DeploymentKeyGrant> {
  const row = await db.selectFrom('workflows').select(['id', 'workspace_id', 'is_deployed', 'api_key_hash']).where('id', '=', workflowId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Workflow ${workflowId} not found`);
  const given = Buffer.from(hashApiKey(apiKey), 'hex');
  const stored = row.api_key_hash ? Buffer.from(row.api_key_hash, 'hex') : null;
  if (!apiKey || !stored || stored.length !== given.length || !timingSafeEqual(stored, given)) throw new AppError('unauthenticated', INVALID_API_KEY);
  if (!row.is_deployed) throw new AppError('forbidden', 'Workflow is not deployed');
  const active = await activeDeployment(db, workflowId);
  if (!active) throw new AppError('forbidden', 'Workflow is not deployed');
  return { workflowId, workspaceId: row.workspace_id, version: active.deploymentVersion, state: active.state, deployedBy: active.deployedBy, actorId: active.actorId, deployedAt: active.deployedAt };
}

/**
 * The workflow a deployment API key belongs to, looked up by the key's hash (indexed, migration
 * 0009), deployed now or not; unauthenticated ('Invalid API key') for a key of no workflow.
 */
export async function workflowOfDeploymentKey(db: Kysely<RegistryDB>, apiKey: string): Promise<string> {
  const row = apiKey ? await db.selectFrom('workflows').select('id').where('api_key_hash', '=', hashApiKey(apiKey)).executeTakeFirst() : undefined;
  if (!row) throw new AppError('unauthenticated', INVALID_API_KEY);
  return row.id;
}
