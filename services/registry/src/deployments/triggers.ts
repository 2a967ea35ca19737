import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@weft/platform';
import { checkDeployable, readStateBlocks, webhookTriggers, type DeployProblem } from '@weft/catalog';
import type { RegistryDB } from '../db.js';
import type { EditorState } from '../ports.js';

/** A deployed workflow's webhook path (unique). */
export type WebhookTable = {
  path: string;
  workflow_id: string;
  provider: string;
  created_at: Date | undefined;
};

/** A webhook delivery already started, by the provider's delivery id. */
export type WebhookDeliveryTable = {
  workflow_id: string;
  delivery_id: string;
  execution_id: string;
  /** When the claim was made, taken over or last renewed (its lease runs from here). */
  created_at: Date | undefined;
};

/** The tables of migration 0007 (kept beside the code that uses them). */
export type TriggerTables = {
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
};

type Db = Kysely<RegistryDB> | Transaction<RegistryDB>;

function tables(db: Db) {
  return db.withTables<TriggerTables>();
}

/** How long a delivery id is remembered. */
export const DELIVERY_RETENTION_DAYS = 7;

/**
 * How long a delivery's claim holds without a renewal. The claimer renews it (renewDelivery, a third
 * of this apart) from its claim until its run's start has answered, so a start that is slow is never
 * taken over while its claimer lives; a claim left behind (the gateway died between claim and start,
 * or giving it back failed) is no longer renewed, and once this has passed a repeat may take it over
 * instead of the provider's retries waiting on it until the retention cleanup. A claim's created_at
 * (and the claimedAtMs it answers) is thus when it was last renewed or taken over. Was 30 s without
 * renewals: gateways deploy before the registry (docs/triggers.md, Rollout).
 */
export const CLAIM_LEASE_MS = 15_000;

/** Whether a claim's lease has lapsed: not renewed for `leaseMs`, by the database's clock (the gateways' may differ). */
function lapsed(leaseMs: number) {
  return sql<boolean>`created_at < now() - ${leaseMs} * interval '1 millisecond'`;
}

/**
 * Refuses a deploy of a workflow that would not run as drawn: every problem of `checkDeployable`
 * (block, field, message; no block for one of the whole workflow), as a validation error whose body
 * lists them all. The loop and parallel lists go with the blocks: the check places blocks in
 * containers as the runner does.
 */
export function assertDeployable(state: EditorState, now: Date): void {
  const problems: DeployProblem[] = checkDeployable({ blocks: state.blocks, edges: state.edges, variables: state.variables, loops: state.loops, parallels: state.parallels }, now);
  if (problems.length === 0) return;
  const first = problems[0];
  // A problem of the whole workflow names no block (no blockId/blockName in `problems`): "Workflow" in the message.
  const head = first ? `${first.blockName ?? 'Workflow'} (${first.field}): ${first.message}` : '';
  const more = problems.length > 1 ? ` and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''}` : '';
  throw new AppError('validation', `The workflow cannot be deployed: ${head}${more}`, { problems });
}

/**
 * Makes the webhook table follow the deployment now active (inside its transaction): every webhook of
 * the state (the starter in webhook mode, each webhook block) has its path registered for this
 * workflow, and no other path is. A path another workflow holds is a conflict naming the block, its
 * field and the path. Answers hasActiveWebhook for it: whether its starter starts it by webhook.
 */
export async function registerWebhook(trx: Transaction<RegistryDB>, workflowId: string, blocks: Record<string, unknown>): Promise<boolean> {
  const webhooks = webhookTriggers(blocks).filter((w) => w.path !== '');
  const db = tables(trx);
  const paths = webhooks.map((w) => w.path);
  let stale = db.deleteFrom('webhooks').where('workflow_id', '=', workflowId);
  if (paths.length > 0) stale = stale.where('path', 'not in', paths);
  await stale.execute();
  const names = readStateBlocks(blocks);
  for (const webhook of webhooks) {
    // One statement: a path another workflow holds (even one inserted by a deploy still running) is
    // left as it is and nothing comes back.
    const held = await db
      .insertInto('webhooks')
      .values({ path: webhook.path, workflow_id: workflowId, provider: webhook.provider, created_at: undefined })
      .onConflict((oc) => oc.column('path').doUpdateSet({ provider: webhook.provider }).where('webhooks.workflow_id', '=', workflowId))
      .returning('path')
      .executeTakeFirst();
    if (!held) {
      const block = names[webhook.blockId];
      const field = block?.type === 'starter' ? 'webhookPath' : 'webhookConfig';
      const blockName = block?.name ?? webhook.blockId;
      throw new AppError('conflict', `${blockName} (${field}): Webhook path "${webhook.path}" is already used by another workflow`, { field, path: webhook.path, blockId: webhook.blockId, blockName });
    }
  }
  return startsByWebhook(blocks);
}

/**
 * hasActiveWebhook as spec 000 §4 gives it: the starter's startWorkflow is webhook (the editor's rule
 * for a revert, read the same on deploy and activation). A webhook block does not set it: its path
 * listens while the workflow is deployed, whatever the flag (see resolveWebhook).
 */
export function startsByWebhook(blocks: Record<string, unknown>): boolean {
  return Object.values(readStateBlocks(blocks)).some((b) => b.type === 'starter' && b.subBlocks?.['startWorkflow']?.value === 'webhook');
}

/** Drops the workflow's webhook path (undeploy). */
export async function unregisterWebhook(trx: Transaction<RegistryDB>, workflowId: string): Promise<void> {
  await tables(trx).deleteFrom('webhooks').where('workflow_id', '=', workflowId).execute();
}

/**
 * Deployed workflows with their active deployment, owner and acting user (filtered by the caller).
 * Every run of a deployed version (API key, webhook, schedule) acts as one user, so its `{{KEY}}`
 * values and permissions do not depend on how it was started: the user who deployed that version
 * (the deployment is their act) while they may still deploy in its workspace (write or admin); the
 * workspace owner once they may not (removed from the workspace, or made read-only).
 */
function deployedRows(db: Db) {
  return tables(db)
    .selectFrom('workflows as w')
    .innerJoin('deployment_versions as d', (j) => j.onRef('d.workflow_id', '=', 'w.id').on('d.is_active', '=', true))
    .innerJoin('workspaces as s', 's.id', 'w.workspace_id')
    .leftJoin('workspace_members as m', (j) => j.onRef('m.workspace_id', '=', 'w.workspace_id').onRef('m.user_id', '=', 'd.created_by').on('m.permission', 'in', ['write', 'admin']))
    .select((eb) => ['w.id', 'w.workspace_id', 's.owner_id', 'd.version', 'd.state', 'd.created_by', 'd.deployed_at', eb.fn.coalesce('m.user_id', 's.owner_id').as('actor_id')])
    .where('w.is_deployed', '=', true);
}

type DeployedRow = Awaited<ReturnType<ReturnType<typeof deployedRows>['executeTakeFirst']>>;

function toActive(row: DeployedRow) {
  if (!row) return undefined;
  return {
    workflowId: row.id,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    actorId: row.actor_id,
    deployedBy: row.created_by,
    deployedAt: row.deployed_at,
    deploymentVersion: row.version,
    state: row.state,
    stateJson: JSON.stringify(row.state),
  };
}

/** The active deployment of a deployed workflow, as a trigger runs it; undefined when there is none. */
export async function activeDeployment(db: Kysely<RegistryDB>, workflowId: string) {
  return toActive(await deployedRows(db).where('w.id', '=', workflowId).executeTakeFirst());
}

/** Ids of the deployed workflows of a workspace, or of every workspace when none is given. */
export async function deployedWorkflowIds(db: Kysely<RegistryDB>, workspaceId?: string): Promise<string[]> {
  let query = db.selectFrom('workflows').select('id').where('is_deployed', '=', true);
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => r.id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `path` is the deployed starter's webhook path (not a webhook block's). */
function isStarterPath(state: unknown, path: string): boolean {
  const blocks = isRecord(state) && isRecord(state.blocks) ? state.blocks : {};
  const starter = Object.values(readStateBlocks(blocks)).find((b) => b.type === 'starter');
  return starter !== undefined && webhookTriggers(blocks).some((w) => w.path === path && w.blockId === starter.id);
}

/**
 * The deployed workflow listening on `path` (one query: every webhook call asks); not_found when none
 * is: an unknown path, an undeployed workflow, or the starter's path while its webhook is switched off
 * (hasActiveWebhook false, spec 000 §4) — from outside the three look the same. A webhook block's
 * path listens while the workflow is deployed: the flag is the starter's.
 */
export async function resolveWebhook(db: Kysely<RegistryDB>, path: string) {
  const row = await deployedRows(db).innerJoin('webhooks as h', 'h.workflow_id', 'w.id').select('w.has_active_webhook').where('h.path', '=', path).executeTakeFirst();
  const switchedOff = row !== undefined && !row.has_active_webhook && isStarterPath(row.state, path);
  const deployment = switchedOff ? undefined : toActive(row);
  if (!deployment) throw new AppError('not_found', `No deployed workflow listens on webhook path "${path}"`);
  return deployment;
}

/**
 * Records a delivery id once. The first claim keeps `executionId`; any later one answers it with
 * duplicate set. One statement: a conflicting claim is locked and read back by the same upsert (its
 * no-op update keeps it as it is), so a claim given back between an insert and a read can no longer
 * leave a repeat with nothing to answer; if it is given back while this one waits, this one inserts.
 * Deliveries older than DELIVERY_RETENTION_DAYS are forgotten now and then.
 */
export async function claimDelivery(db: Kysely<RegistryDB>, workflowId: string, deliveryId: string, executionId: string) {
  if (!deliveryId) throw new AppError('validation', 'deliveryId is required');
  if (!executionId) throw new AppError('validation', 'executionId is required');
  const t = tables(db);
  const claim = await t
    .insertInto('webhook_deliveries')
    .values({ workflow_id: workflowId, delivery_id: deliveryId.slice(0, 300), execution_id: executionId, created_at: undefined })
    .onConflict((oc) => oc.columns(['workflow_id', 'delivery_id']).doUpdateSet({ execution_id: sql.ref('webhook_deliveries.execution_id') }))
    .returning(['execution_id', 'created_at'])
    .executeTakeFirstOrThrow();
  // Every claim brings a new execution id, so the row keeps this one only when this call inserted it.
  const duplicate = claim.execution_id !== executionId;
  if (!duplicate && Math.random() < 0.01) {
    await t.deleteFrom('webhook_deliveries').where('created_at', '<', new Date(Date.now() - DELIVERY_RETENTION_DAYS * 86_400_000)).execute();
  }
  return { executionId: claim.execution_id, duplicate, claimedAtMs: (claim.created_at ?? new Date()).getTime(), leaseMs: CLAIM_LEASE_MS };
}

/**
 * Renews the lease of the claim that keeps `executionId` (one statement): its claimer is still
 * starting the run. Answers renewed false when the claim is no longer that one (given back, or taken
 * over after its lease lapsed: the claimer's renewals stopped reaching the registry for that long).
 */
export async function renewDelivery(db: Kysely<RegistryDB>, workflowId: string, deliveryId: string, executionId: string) {
  if (!deliveryId) throw new AppError('validation', 'deliveryId is required');
  if (!executionId) throw new AppError('validation', 'executionId is required');
  const renewed = await tables(db)
    .updateTable('webhook_deliveries')
    .set({ created_at: sql<Date>`now()` })
    .where('workflow_id', '=', workflowId)
    .where('delivery_id', '=', deliveryId.slice(0, 300))
    .where('execution_id', '=', executionId)
    .executeTakeFirst();
  return { renewed: Number(renewed.numUpdatedRows) > 0 };
}

/**
 * A delivery's claim as it stands, read without a lock or a write: what a repeat waiting for the
 * first delivery's start polls (a claim would lock and rewrite the row each time). `stale`: its lease
 * (`leaseMs`, CLAIM_LEASE_MS but in tests) has lapsed.
 */
export async function readDelivery(db: Kysely<RegistryDB>, workflowId: string, deliveryId: string, leaseMs = CLAIM_LEASE_MS) {
  if (!deliveryId) throw new AppError('validation', 'deliveryId is required');
  const row = await tables(db)
    .selectFrom('webhook_deliveries')
    .select(['execution_id', lapsed(leaseMs).as('stale')])
    .where('workflow_id', '=', workflowId)
    .where('delivery_id', '=', deliveryId.slice(0, 300))
    .executeTakeFirst();
  return row ? { executionId: row.execution_id, stale: row.stale } : { stale: false };
}

/**
 * Takes over a stale claim for `executionId`: one statement that moves the claim only while it still
 * keeps `staleExecutionId` and its lease is still lapsed (a renewal meanwhile keeps it its claimer's),
 * so of two repeats that found it stale one takes it (its lease starting now, the new claimer renewing
 * it) and the other is told no. The caller has checked that the stale claim's run did not start.
 */
export async function takeOverDelivery(db: Kysely<RegistryDB>, workflowId: string, deliveryId: string, staleExecutionId: string, executionId: string, leaseMs = CLAIM_LEASE_MS) {
  if (!deliveryId) throw new AppError('validation', 'deliveryId is required');
  if (!staleExecutionId) throw new AppError('validation', 'staleExecutionId is required');
  if (!executionId) throw new AppError('validation', 'executionId is required');
  const moved = await tables(db)
    .updateTable('webhook_deliveries')
    .set({ execution_id: executionId, created_at: sql<Date>`now()` })
    .where('workflow_id', '=', workflowId)
    .where('delivery_id', '=', deliveryId.slice(0, 300))
    .where('execution_id', '=', staleExecutionId)
    .where(lapsed(leaseMs))
    .executeTakeFirst();
  return { taken: Number(moved.numUpdatedRows) > 0 };
}

/** Forgets a claim that kept `executionId` (its run could not start), so a retry of the delivery runs. */
export async function releaseDelivery(db: Kysely<RegistryDB>, workflowId: string, deliveryId: string, executionId: string) {
  if (!deliveryId) throw new AppError('validation', 'deliveryId is required');
  if (!executionId) throw new AppError('validation', 'executionId is required');
  const removed = await tables(db)
    .deleteFrom('webhook_deliveries')
    .where('workflow_id', '=', workflowId)
    .where('delivery_id', '=', deliveryId.slice(0, 300))
    .where('execution_id', '=', executionId)
    .executeTakeFirst();
  return { released: Number(removed.numDeletedRows) > 0 };
}
