import { z } from 'zod';
import { sql } from 'kysely';
import { handleOnce, startConsumer, type Bus, type EventEnvelope, type Logger, type RunningConsumer } from '@weft/platform';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';

const CONSUMER = 'registry-editor';

/** Editor events that do not change what a deployment freezes (blocks, edges, subflows). */
const NOT_A_CHANGE: ReadonlySet<string> = new Set([
  'workflowStarted',
  'variableAdded',
  'variableUpdated',
  'variableDeleted',
  'variableDuplicated',
  'variablesReplaced',
  'deploymentStatusSet',
  'needsRedeploymentSet',
  'webhookActiveSet',
]);

const editorEvent = z.object({
  workflowId: z.string().min(1),
  version: z.number().int(),
  type: z.string(),
  data: z.object({ hasActiveWebhook: z.boolean().optional() }).loose(),
});

/**
 * Whether a change at `version` can still set needsRedeployment: false when the workflow is not
 * deployed, already needs redeployment, or was deployed at or after that version. Most edits land
 * here (a deployed workflow being edited is flagged by its first edit), and answering them with one
 * read spares a transaction and an inbox row per edit; they would change nothing, so there is
 * nothing to remember about them.
 */
async function mayNeedRedeployment(r: Registry, workflowId: string, version: number): Promise<boolean> {
  const row = await r.db.selectFrom('workflows').select(['needs_redeployment', 'baseline_version']).where('id', '=', workflowId).executeTakeFirst();
  return row !== undefined && !row.needs_redeployment && row.baseline_version !== null && row.baseline_version < version;
}

/**
 * Applies one editor event to the deployment flags: a change after the deployed (or reverted)
 * version sets needsRedeployment; revertedToDeployed clears it; webhookActiveSet mirrors the flag.
 * Answers true when the entry changed.
 */
export async function applyEditorEvent(r: Registry, envelope: EventEnvelope): Promise<boolean> {
  const parsed = editorEvent.safeParse(envelope.data);
  if (!parsed.success) return false;
  const e = parsed.data;
  const flagEvent = e.type === 'revertedToDeployed' || e.type === 'webhookActiveSet';
  if (!flagEvent && (NOT_A_CHANGE.has(e.type) || !(await mayNeedRedeployment(r, e.workflowId, e.version)))) return false;
  let changed = false;
  await handleOnce(r.db, CONSUMER, envelope.id, async (trx) => {
    if (e.type === 'revertedToDeployed') {
      const res = await trx
        .updateTable('workflows')
        .set({ needs_redeployment: false, baseline_version: sql<number>`greatest(coalesce(baseline_version, 0), ${e.version})`, has_active_webhook: e.data.hasActiveWebhook ?? false })
        .where('id', '=', e.workflowId)
        .where('baseline_version', 'is not', null)
        .executeTakeFirst();
      changed = Number(res.numUpdatedRows) > 0;
    } else if (e.type === 'webhookActiveSet' && e.data.hasActiveWebhook !== undefined) {
      const res = await trx.updateTable('workflows').set({ has_active_webhook: e.data.hasActiveWebhook }).where('id', '=', e.workflowId).executeTakeFirst();
      changed = Number(res.numUpdatedRows) > 0;
    } else if (!NOT_A_CHANGE.has(e.type)) {
      const res = await trx
        .updateTable('workflows')
        .set({ needs_redeployment: true })
        .where('id', '=', e.workflowId)
        .where('needs_redeployment', '=', false)
        .where('baseline_version', '<', e.version)
        .executeTakeFirst();
      changed = Number(res.numUpdatedRows) > 0;
      if (changed) await emit(trx, r.instance, 'workflow', e.workflowId, 'needsRedeploymentSet', { workflowId: e.workflowId, needsRedeployment: true, editorVersion: e.version });
    }
  });
  if (changed) r.kick();
  return changed;
}

/** Consumes `<instance>.editor.workflow.>` to keep needsRedeployment and hasActiveWebhook current. */
export function consumeEditorEvents(r: Registry, bus: Bus, logger: Logger): Promise<RunningConsumer> {
  return startConsumer(bus, {
    source: 'editor',
    durable: CONSUMER,
    filterSubject: `${bus.instance}.editor.workflow.>`,
    logger,
    async handle(envelope) {
      await applyEditorEvent(r, envelope);
    },
  });
}
