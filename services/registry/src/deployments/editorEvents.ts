import { z } from 'zod';
import { sql } from 'kysely';
import { handleOnce, startConsumer, type Bus, type EventEnvelope, type Logger, type RunningConsumer } from '@weft/platform';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';

const CONSUMER = 'registry-editor';

/** Editor events without a fingerprint that do not change what a deployment freezes (blocks, edges, subflows, variables). */
const NOT_A_CHANGE: ReadonlySet<string> = new Set([
  'workflowStarted',
  'deploymentStatusSet',
  'needsRedeploymentSet',
  'webhookActiveSet',
]);

const editorEvent = z.object({
  workflowId: z.string().min(1),
  version: z.number().int(),
  type: z.string(),
  data: z.object({ hasActiveWebhook: z.boolean().optional() }).loose(),
  /** graphFingerprint of the state after the event (editors that publish it). */
  fingerprint: z.string().optional(),
});

type EditorEvent = z.infer<typeof editorEvent>;
type Flags = { needs_redeployment: boolean; baseline_version: number | null; deployed_fingerprint: string | null };

/** The deployment flags of these workflows, by id. */
async function readFlags(r: Registry, workflowIds: string[]): Promise<Map<string, Flags>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await r.db.selectFrom('workflows').select(['id', 'needs_redeployment', 'baseline_version', 'deployed_fingerprint']).where('id', 'in', workflowIds).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Events whose own rule stands whatever fingerprint they carry. */
function hasOwnRule(e: EditorEvent): boolean {
  return e.type === 'revertedToDeployed' || e.type === 'webhookActiveSet';
}

/** The fingerprint that decides needsRedeployment for this event, when it and the deployment have one. */
function decidingFingerprint(e: EditorEvent, flags: Flags | undefined): string | undefined {
  if (hasOwnRule(e) || flags?.deployed_fingerprint === null || flags === undefined) return undefined;
  return e.fingerprint;
}

/**
 * Whether the event may change the flags, judged on what they were. An event after the deployed
 * (or reverted) version that carries a fingerprint, on a deployment with one, makes needsRedeployment
 * whether the two differ: it may change the flag only when that flips it. Without fingerprints, a
 * graph change can only set the flag when it is not set yet. Most edits fail these tests, so they are
 * answered by a read shared with the other events of their batch, with no transaction and no inbox
 * row: they would change nothing, so there is nothing to remember about them.
 */
function mayChange(e: EditorEvent, flags: Flags | undefined): boolean {
  if (hasOwnRule(e)) return true;
  if (flags === undefined || flags.baseline_version === null || flags.baseline_version >= e.version) return false;
  const fingerprint = decidingFingerprint(e, flags);
  if (fingerprint !== undefined) return (fingerprint !== flags.deployed_fingerprint) !== flags.needs_redeployment;
  return !NOT_A_CHANGE.has(e.type) && !flags.needs_redeployment;
}

/**
 * Applies one editor event to the deployment flags (in a transaction with its inbox row): after the
 * deployed (or reverted) version, an event's fingerprint sets needsRedeployment to whether it differs
 * from the deployed one (without fingerprints, a change sets it); revertedToDeployed clears it;
 * webhookActiveSet mirrors the flag. A flag that flips is published. Answers true when the entry changed.
 */
async function applyEvent(r: Registry, envelopeId: string, e: EditorEvent, fingerprint: string | undefined): Promise<boolean> {
  let changed = false;
  await handleOnce(r.db, CONSUMER, envelopeId, async (trx) => {
    if (e.type === 'revertedToDeployed') {
      const res = await trx
        .updateTable('workflows')
        .set({
          needs_redeployment: false,
          baseline_version: sql<number>`greatest(coalesce(baseline_version, 0), ${e.version})`,
          // The editor's flag follows the starter (spec 000 §4), as the registry's revert sets it; a
          // deployed webhook block's path listens whatever the flag (resolveWebhook).
          has_active_webhook: e.data.hasActiveWebhook ?? false,
        })
        .where('id', '=', e.workflowId)
        .where('baseline_version', 'is not', null)
        .executeTakeFirst();
      changed = Number(res.numUpdatedRows) > 0;
    } else if (e.type === 'webhookActiveSet' && e.data.hasActiveWebhook !== undefined) {
      const res = await trx.updateTable('workflows').set({ has_active_webhook: e.data.hasActiveWebhook }).where('id', '=', e.workflowId).executeTakeFirst();
      changed = Number(res.numUpdatedRows) > 0;
    } else if (fingerprint !== undefined) {
      const res = await trx
        .updateTable('workflows')
        // Raising the baseline makes a late copy of an older event (a no-op when it came, so with no
        // inbox row) unable to flip the flag back.
        .set({ needs_redeployment: sql<boolean>`deployed_fingerprint <> ${fingerprint}`, baseline_version: e.version })
        .where('id', '=', e.workflowId)
        .where('baseline_version', '<', e.version)
        .where(sql<boolean>`needs_redeployment = (deployed_fingerprint = ${fingerprint})`)
        .returning('needs_redeployment')
        .executeTakeFirst();
      changed = res !== undefined;
      if (res) await emit(trx, r.instance, 'workflow', e.workflowId, 'needsRedeploymentSet', { workflowId: e.workflowId, needsRedeployment: res.needs_redeployment, editorVersion: e.version });
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
 * only events that may change a flag are written, each re-reading its workflow's flags after. Of a
 * workflow's events that carry a fingerprint, only the one of the highest version is weighed: it
 * decides the flag whatever the earlier ones would have made it, so a flag flipped and flipped back
 * within a batch (a move, an edit and its undo) is neither written nor published.
 * Answers how many entries changed.
 */
export async function applyEditorEvents(r: Registry, envelopes: EventEnvelope[]): Promise<number> {
  const events = envelopes.flatMap((envelope) => {
    const parsed = editorEvent.safeParse(envelope.data);
    return parsed.success ? [{ id: envelope.id, e: parsed.data }] : [];
  });
  const flags = await readFlags(r, [...new Set(events.map(({ e }) => e.workflowId))]);
  const latest = new Map<string, number>();
  for (const { e } of events) {
    if (e.fingerprint !== undefined && !hasOwnRule(e)) latest.set(e.workflowId, Math.max(latest.get(e.workflowId) ?? -Infinity, e.version));
  }
  let changed = 0;
  for (const { id, e } of events) {
    const known = flags.get(e.workflowId);
    const fingerprint = decidingFingerprint(e, known);
    if (fingerprint !== undefined && (latest.get(e.workflowId) ?? -Infinity) > e.version) continue;
    if (!mayChange(e, known)) continue;
    if (await applyEvent(r, id, e, fingerprint)) changed++;
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
