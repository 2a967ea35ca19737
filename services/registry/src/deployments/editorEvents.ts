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

type EditorEvent = z.infer<typeof editorEvent>;
type Flags = { needs_redeployment: boolean; baseline_version: number | null };

/** The deployment flags of these workflows, by id. */
async function readFlags(r: Registry, workflowIds: string[]): Promise<Map<string, Flags>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await r.db.selectFrom('workflows').select(['id', 'needs_redeployment', 'baseline_version']).where('id', 'in', workflowIds).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Whether the event may change the flags, judged on what they were. A graph change at `version`
 * can only set needsRedeployment when the workflow is deployed, is not flagged yet, and was deployed
 * before that version. Most edits fail that test (the first edit after a deployment flags it), so
 * they are answered by a read shared with the other events of their batch, with no transaction and
 * no inbox row: they would change nothing, so there is nothing to remember about them.
 */
function mayChange(e: EditorEvent, flags: Flags | undefined): boolean {
  if (e.type === 'revertedToDeployed' || e.type === 'webhookActiveSet') return true;
  if (NOT_A_CHANGE.has(e.type)) return false;
  return flags !== undefined && !flags.needs_redeployment && flags.baseline_version !== null && flags.baseline_version < e.version;
}

/**
 * Applies one editor event to the deployment flags (in a transaction with its inbox row): a change
 * after the deployed (or reverted) version sets needsRedeployment; revertedToDeployed clears it;
 * webhookActiveSet mirrors the flag. Answers true when the entry changed.
 */
async function applyEvent(r: Registry, envelopeId: string, e: EditorEvent): Promise<boolean> {
  let changed = false;
  await handleOnce(r.db, CONSUMER, envelopeId, async (trx) => {
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

/**
 * Applies a batch of editor events in order with one read of the flags of the workflows they name;
 * only events that may change a flag are written, each re-reading its workflow's flags after.
 * Answers how many entries changed.
 */
export async function applyEditorEvents(r: Registry, envelopes: EventEnvelope[]): Promise<number> {
  const events = envelopes.flatMap((envelope) => {
    const parsed = editorEvent.safeParse(envelope.data);
    return parsed.success ? [{ id: envelope.id, e: parsed.data }] : [];
  });
  const flags = await readFlags(r, [...new Set(events.map(({ e }) => e.workflowId))]);
  let changed = 0;
  for (const { id, e } of events) {
    if (!mayChange(e, flags.get(e.workflowId))) continue;
    if (await applyEvent(r, id, e)) changed++;
    const now = (await readFlags(r, [e.workflowId])).get(e.workflowId);
    if (now) flags.set(e.workflowId, now);
    else flags.delete(e.workflowId);
  }
  return changed;
}

/** Consumes `<instance>.editor.workflow.>` to keep needsRedeployment and hasActiveWebhook current. */
export function consumeEditorEvents(r: Registry, bus: Bus, logger: Logger): Promise<RunningConsumer> {
  return startConsumer(bus, {
    source: 'editor',
    durable: CONSUMER,
    filterSubject: `${bus.instance}.editor.workflow.>`,
    logger,
    async handleBatch(envelopes) {
      await applyEditorEvents(r, envelopes);
    },
  });
}
