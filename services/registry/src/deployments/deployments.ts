import { z } from 'zod';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@weft/platform';
import { graphFingerprint } from '@weft/workflow';
import type { RegistryDB } from '../db.js';
import type { EditorState, Registry } from '../ports.js';
import { emit } from '../events.js';
import { getWorkflow } from '../entries/workflows.js';
import { toStatus, type DeploymentStatusView } from './status.js';
import { newWorkflowApiKey, sealApiKey, type SealedApiKey } from './apiKey.js';
import { assertDeployable, registerWebhook, startsByWebhook, unregisterWebhook } from './triggers.js';

const deployedStateSchema = z.object({
  blocks: z.record(z.string(), z.looseObject({})),
  edges: z.array(z.looseObject({})),
  loops: z.record(z.string(), z.looseObject({})).default({}),
  parallels: z.record(z.string(), z.looseObject({})).default({}),
  /**
   * The workflow variables (`<variable.x>` reads them in a deployed run). A deployment saved before
   * they were kept has none: its runs have no variables, and its fingerprint (which never counted
   * them) differs from a draft's that has some, so needsRedeployment tells the user to deploy again.
   */
  variables: z.record(z.string(), z.looseObject({ id: z.string(), name: z.string(), type: z.string(), value: z.unknown() })).optional(),
});

/** The frozen state of one deployment version. */
export type DeployedState = z.infer<typeof deployedStateSchema>;

export interface DeploymentVersionView {
  version: number;
  isActive: boolean;
  deployedAt: string;
  createdBy: string;
  blocksCount: number;
  edgesCount: number;
}

/** A new sealed API key for a workflow deployed for the first time; nothing (the key is kept) otherwise. */
function issuedApiKey(r: Registry, current: { id: string; api_key: string | null }): SealedApiKey | Record<string, never> {
  return current.api_key === null ? sealApiKey(r.cipher, current.id, newWorkflowApiKey()) : {};
}

async function lockWorkflow(trx: Transaction<RegistryDB>, workflowId: string) {
  return trx.selectFrom('workflows').selectAll().where('id', '=', workflowId).forUpdate().executeTakeFirstOrThrow();
}

/** What a deployment freezes of the editor's state: what a run reads (blocks, edges, subflows, variables). */
function runnableGraph(state: EditorState): DeployedState {
  const variables = Object.fromEntries(Object.entries(state.variables).map(([id, v]) => [id, { id, name: v.name, type: v.type, value: v.value }]));
  return { blocks: state.blocks, edges: state.edges, loops: state.loops, parallels: state.parallels, variables };
}

/**
 * Edits that reached the registry while a deployment was being written were judged against the one
 * before it. Once the deployment is committed the draft is read again: when the editor has moved
 * past `baseline`, needsRedeployment becomes whether that draft would run differently from
 * `fingerprint` (a flip publishes needsRedeploymentSet). Later edits are the consumer's again.
 */
async function settleDraft(r: Registry, workflowId: string, baseline: number, fingerprint: string): Promise<void> {
  const { version, state } = await r.editor.getState(workflowId);
  if (version <= baseline) return;
  const needs = graphFingerprint(runnableGraph(state)) !== fingerprint;
  const flipped = await r.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('workflows')
      .set({ needs_redeployment: needs, baseline_version: version })
      .where('id', '=', workflowId)
      .where('deployed_fingerprint', '=', fingerprint)
      // The same draft version judged against the same fingerprint answers the same, so an equal
      // baseline (a legacy deployment judged again, see getDeployment) may be written too.
      .where('baseline_version', '<=', version)
      .where('needs_redeployment', '<>', needs)
      .returning('id')
      .executeTakeFirst();
    if (res) await emit(trx, r.instance, 'workflow', workflowId, 'needsRedeploymentSet', { workflowId, needsRedeployment: needs, editorVersion: version });
    return res !== undefined;
  });
  if (flipped) r.kick();
}

/** The deployment status as stored now. */
async function currentStatus(r: Registry, workflowId: string): Promise<DeploymentStatusView> {
  return toStatus(await r.db.selectFrom('workflows').selectAll().where('id', '=', workflowId).executeTakeFirstOrThrow(), r.cipher);
}

/**
 * Freezes the editor's current state as a new active deployment version with its fingerprint,
 * stamps deployedAt (now unless given), issues the API key on first deploy and clears needsRedeployment.
 */
export async function deploy(r: Registry, userId: string, workflowId: string, deployedAt?: string): Promise<DeploymentStatusView> {
  await getWorkflow(r, userId, workflowId, 'write');
  const at = deployedAt ? new Date(deployedAt) : r.now();
  if (Number.isNaN(at.getTime())) throw new AppError('validation', 'deployedAt must be an ISO date');
  const { version: editorVersion, state } = await r.editor.getState(workflowId);
  assertDeployable(state, r.now());
  const frozen: DeployedState = runnableGraph(state);
  const fingerprint = graphFingerprint(frozen);
  await r.db.transaction().execute(async (trx) => {
    const current = await lockWorkflow(trx, workflowId);
    const hasActiveWebhook = await registerWebhook(trx, workflowId, frozen.blocks);
    const { last } = await trx
      .selectFrom('deployment_versions')
      .select((eb) => eb.fn.coalesce(eb.fn.max('version'), eb.val(0)).as('last'))
      .where('workflow_id', '=', workflowId)
      .executeTakeFirstOrThrow();
    const version = Number(last) + 1;
    await trx.updateTable('deployment_versions').set({ is_active: false }).where('workflow_id', '=', workflowId).where('is_active', '=', true).execute();
    await trx
      .insertInto('deployment_versions')
      .values({ workflow_id: workflowId, version, state: JSON.stringify(frozen), editor_version: editorVersion, fingerprint, is_active: true, deployed_at: at, created_by: userId })
      .execute();
    await trx
      .updateTable('workflows')
      .set({ is_deployed: true, deployed_at: at, ...issuedApiKey(r, current), needs_redeployment: false, has_active_webhook: hasActiveWebhook, baseline_version: editorVersion, deployed_fingerprint: fingerprint, updated_at: r.now() })
      .where('id', '=', workflowId)
      .execute();
    await emit(trx, r.instance, 'workflow', workflowId, 'workflowDeployed', { workflowId, version, deployedAt: at.toISOString(), editorVersion, deployedBy: userId });
  });
  r.kick();
  await settleDraft(r, workflowId, editorVersion, fingerprint);
  return currentStatus(r, workflowId);
}

/** Whether the active deployment was saved before deployments kept the workflow's variables. */
async function activeLacksVariables(db: Kysely<RegistryDB>, workflowId: string): Promise<boolean> {
  const row = await db
    .selectFrom('deployment_versions')
    .select('version')
    .where('workflow_id', '=', workflowId)
    .where('is_active', '=', true)
    .where(sql<boolean>`not (state ? 'variables')`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deployments saved before variables were kept whose draft, judged at the deployment's baseline
 * editor version, ran the same (no variables): by registry and workflow, `baseline:fingerprint`.
 * A later draft version is past the baseline and judged by settleDraft as any other, so that one
 * judgement need not be made again on every status read (a query, a fingerprint and a write each).
 */
const legacyJudged = new WeakMap<Registry, Map<string, string>>();
/** How many workflows' judgements a registry keeps (the oldest forgotten first; forgotten is only judged again). */
const LEGACY_JUDGED_MOST = 10_000;

function judgedLegacy(r: Registry): Map<string, string> {
  let judged = legacyJudged.get(r);
  if (!judged) {
    judged = new Map();
    legacyJudged.set(r, judged);
  }
  return judged;
}

/**
 * The deployment status of a workflow. needsRedeployment is settled against the editor's draft
 * first (the editor's events reach the registry a few milliseconds after an edit has answered), so a
 * status read right after an edit already reflects it.
 */
export async function getDeployment(r: Registry, userId: string, workflowId: string): Promise<DeploymentStatusView> {
  await getWorkflow(r, userId, workflowId, 'read');
  const row = await r.db.selectFrom('workflows').selectAll().where('id', '=', workflowId).executeTakeFirstOrThrow();
  if (!row.is_deployed || row.deployed_fingerprint === null || row.baseline_version === null) return toStatus(row, r.cipher);
  // A deployment saved before variables were kept runs without them: its draft is judged again even
  // unedited since (a baseline one below), so a draft with variables shows needsRedeployment at once.
  // Once that draft was found the same it is not judged again at this baseline (judgedLegacy).
  const judged = judgedLegacy(r);
  const mark = `${row.baseline_version}:${row.deployed_fingerprint}`;
  const legacy = !row.needs_redeployment && judged.get(workflowId) !== mark && (await activeLacksVariables(r.db, workflowId));
  await settleDraft(r, workflowId, row.baseline_version - (legacy ? 1 : 0), row.deployed_fingerprint);
  const status = await currentStatus(r, workflowId);
  if (legacy && !status.needsRedeployment) {
    judged.delete(workflowId);
    judged.set(workflowId, mark);
    const oldest = judged.keys().next();
    if (judged.size > LEGACY_JUDGED_MOST && !oldest.done) judged.delete(oldest.value);
  }
  return status;
}

/** Undeploys; needsRedeployment keeps its value (spec 000 §4), versions are kept for a later activation. */
export async function undeploy(r: Registry, userId: string, workflowId: string): Promise<DeploymentStatusView> {
  await getWorkflow(r, userId, workflowId, 'write');
  const row = await r.db.transaction().execute(async (trx) => {
    await unregisterWebhook(trx, workflowId);
    const saved = await trx.updateTable('workflows').set({ is_deployed: false, deployed_at: null, has_active_webhook: false, updated_at: r.now() }).where('id', '=', workflowId).returningAll().executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'workflow', workflowId, 'workflowUndeployed', { workflowId, undeployedBy: userId });
    return saved;
  });
  r.kick();
  return toStatus(row, r.cipher);
}

/** A deployment version's frozen state (the active one when `version` is absent) and its fingerprint. */
export async function getDeployedState(
  db: Kysely<RegistryDB>,
  workflowId: string,
  version?: number,
): Promise<{ state: DeployedState; deployedAt: Date; version: number; fingerprint: string }> {
  let q = db.selectFrom('deployment_versions').selectAll().where('workflow_id', '=', workflowId);
  q = version === undefined ? q.where('is_active', '=', true) : q.where('version', '=', version);
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('not_found', version === undefined ? 'No deployed state found' : `Deployment version ${version} not found`);
  const state = deployedStateSchema.parse(row.state);
  return { state, deployedAt: row.deployed_at, version: row.version, fingerprint: row.fingerprint ?? graphFingerprint(state) };
}

/**
 * Makes the editor take the deployed state (its revertToDeployed command, given the state), then
 * clears needsRedeployment from the editor version the revert produced, against the deployed fingerprint.
 */
export async function revertToDeployed(r: Registry, userId: string, workflowId: string): Promise<{ version: number }> {
  await getWorkflow(r, userId, workflowId, 'write');
  const deployed = await getDeployedState(r.db, workflowId);
  const { blocks, edges, variables } = deployed.state;
  const payload = { blocks, edges, ...(variables ? { variables } : {}), deployedAt: deployed.deployedAt.getTime() };
  const { version } = await r.editor.executeCommands(workflowId, [{ type: 'revertToDeployed' }], userId, { deployedState: payload });
  await r.db.transaction().execute(async (trx) => {
    const current = await lockWorkflow(trx, workflowId);
    await trx
      .updateTable('workflows')
      .set({
        needs_redeployment: false,
        baseline_version: Math.max(current.baseline_version ?? 0, version),
        deployed_fingerprint: deployed.fingerprint,
        // Spec 000 §4: after a revert the webhook is active only when the deployed starter's
        // startWorkflow is webhook (a webhook block's path listens regardless: resolveWebhook).
        has_active_webhook: startsByWebhook(deployed.state.blocks),
        updated_at: r.now(),
      })
      .where('id', '=', workflowId)
      .execute();
    await emit(trx, r.instance, 'workflow', workflowId, 'workflowReverted', { workflowId, deploymentVersion: deployed.version, editorVersion: version, revertedBy: userId });
  });
  r.kick();
  await settleDraft(r, workflowId, version, deployed.fingerprint);
  return { version };
}

/** Every deployment version, newest first. */
export async function listDeploymentVersions(r: Registry, userId: string, workflowId: string): Promise<DeploymentVersionView[]> {
  await getWorkflow(r, userId, workflowId, 'read');
  const rows = await r.db.selectFrom('deployment_versions').selectAll().where('workflow_id', '=', workflowId).orderBy('version', 'desc').execute();
  return rows.map((row) => {
    const state = deployedStateSchema.parse(row.state);
    return {
      version: row.version,
      isActive: row.is_active,
      deployedAt: row.deployed_at.toISOString(),
      createdBy: row.created_by,
      blocksCount: Object.keys(state.blocks).length,
      edgesCount: state.edges.length,
    };
  });
}

/**
 * Makes an earlier version the active deployment again. needsRedeployment is whether the editor's
 * draft would run differently from that version (their fingerprints differ).
 */
export async function activateDeploymentVersion(r: Registry, userId: string, workflowId: string, version: number): Promise<DeploymentStatusView> {
  await getWorkflow(r, userId, workflowId, 'write');
  const target = await getDeployedState(r.db, workflowId, version);
  const { version: editorVersion, state: draft } = await r.editor.getState(workflowId);
  const needsRedeployment = graphFingerprint(draft) !== target.fingerprint;
  await r.db.transaction().execute(async (trx) => {
    const current = await lockWorkflow(trx, workflowId);
    const hasActiveWebhook = await registerWebhook(trx, workflowId, target.state.blocks);
    await trx.updateTable('deployment_versions').set({ is_active: false }).where('workflow_id', '=', workflowId).where('is_active', '=', true).execute();
    await trx.updateTable('deployment_versions').set({ is_active: true }).where('workflow_id', '=', workflowId).where('version', '=', version).execute();
    const at = r.now();
    await trx
      .updateTable('workflows')
      .set({
        is_deployed: true,
        deployed_at: at,
        ...issuedApiKey(r, current),
        needs_redeployment: needsRedeployment,
        has_active_webhook: hasActiveWebhook,
        baseline_version: editorVersion,
        deployed_fingerprint: target.fingerprint,
        updated_at: at,
      })
      .where('id', '=', workflowId)
      .execute();
    await emit(trx, r.instance, 'workflow', workflowId, 'deploymentActivated', { workflowId, version: target.version, deployedAt: at.toISOString(), activatedBy: userId });
  });
  r.kick();
  await settleDraft(r, workflowId, editorVersion, target.fingerprint);
  return currentStatus(r, workflowId);
}

/** Sets hasActiveWebhook on its own (spec 000 §4). */
export async function setWebhookActive(r: Registry, userId: string, workflowId: string, active: boolean): Promise<DeploymentStatusView> {
  await getWorkflow(r, userId, workflowId, 'write');
  const row = await r.db.transaction().execute(async (trx) => {
    const saved = await trx.updateTable('workflows').set({ has_active_webhook: active, updated_at: r.now() }).where('id', '=', workflowId).returningAll().executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'workflow', workflowId, 'webhookActiveSet', { workflowId, hasActiveWebhook: active });
    return saved;
  });
  r.kick();
  return toStatus(row, r.cipher);
}
