import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createEnvelope } from '@weft/platform';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow } from '../entries/workflows.js';
import type { Registry } from '../ports.js';
import { applyEditorEvents } from './editorEvents.js';

const editorEvent = (workflowId: string, version: number, type: string, data: Record<string, unknown> = {}, fingerprint?: string) =>
  createEnvelope(`test.editor.workflow.${workflowId}`, type, { workflowId, version, type, data, occurredAt: new Date().toISOString(), ...(fingerprint === undefined ? {} : { fingerprint }) });

/** Runs `use` on a fresh registry with two workflows, the first deployed at editor version 5 (with `fingerprint` when given). */
async function withTwoWorkflows(use: (registry: Registry, first: string, second: string) => Promise<void>, fingerprint?: string): Promise<void> {
  const { registry, drop } = await createTestRegistry();
  try {
    const ws = await createWorkspace(registry, 'u1', 'W');
    const first = await createWorkflow(registry, 'u1', ws.id, {});
    const second = await createWorkflow(registry, 'u1', ws.id, {});
    await registry.db.updateTable('workflows').set({ baseline_version: 5, needs_redeployment: false, deployed_fingerprint: fingerprint ?? null }).where('id', '=', first.id).execute();
    await use(registry, first.id, second.id);
  } finally {
    await drop();
  }
}

describe('editor events → deployment flags (real Postgres)', () => {
  it('applies a batch in order and writes only the events that change a flag', async () => {
    await withTwoWorkflows(async (registry, deployedId, draftId) => {
      const deployed = { id: deployedId };
      const draft = { id: draftId };
      const batch = [
        editorEvent(deployed.id, 4, 'blockMoved'), // before the deployment: no change
        editorEvent(deployed.id, 6, 'blockMoved'), // first edit after it: flags
        editorEvent(deployed.id, 7, 'blockMoved'), // already flagged
        editorEvent(draft.id, 1, 'blockAdded'), // never deployed
        editorEvent(deployed.id, 8, 'variableAdded'), // a variable counts too, but the flag is set already
        editorEvent(deployed.id, 9, 'revertedToDeployed', { hasActiveWebhook: true }), // clears
        editorEvent(deployed.id, 10, 'blockMoved'), // flags again
      ];
      expect(await applyEditorEvents(registry, batch)).toBe(3);
      const row = await registry.db.selectFrom('workflows').select(['needs_redeployment', 'baseline_version', 'has_active_webhook']).where('id', '=', deployed.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ needs_redeployment: true, baseline_version: 9, has_active_webhook: true });
      const draftRow = await registry.db.selectFrom('workflows').select(['needs_redeployment']).where('id', '=', draft.id).executeTakeFirstOrThrow();
      expect(draftRow.needs_redeployment).toBe(false);
      // Only the three writes left inbox rows; the rest were answered by the shared read.
      const inbox = await sql<{ event_id: string }>`select event_id from inbox order by processed_at`.execute(registry.db);
      expect(inbox.rows.map((r) => r.event_id).sort()).toEqual([batch[1]?.id, batch[5]?.id, batch[6]?.id].sort());
      const flagged = await sql<{ v: number }>`select (envelope->'data'->>'editorVersion')::int as v from outbox where envelope->>'type' = 'needsRedeploymentSet' order by seq`.execute(registry.db);
      expect(flagged.rows.map((r) => r.v)).toEqual([6, 10]);
      // A redelivered batch changes nothing more.
      expect(await applyEditorEvents(registry, batch)).toBe(0);
    });
  });

  it('sets needsRedeployment to whether the fingerprint differs from the deployed one, publishing each flip once', async () => {
    await withTwoWorkflows(async (registry, wfId, legacyId) => {
      const wf = { id: wfId };
      const legacy = { id: legacyId };
      // `wf` deployed with fingerprint D; `legacy` deployed at version 5 too, before fingerprints.
      await registry.db.updateTable('workflows').set({ baseline_version: 5, needs_redeployment: false }).where('id', '=', legacy.id).execute();
      const flags = async (id: string) => (await registry.db.selectFrom('workflows').select('needs_redeployment').where('id', '=', id).executeTakeFirstOrThrow()).needs_redeployment;
      const flips = async () =>
        (await sql<{ v: number; needs: boolean }>`select (envelope->'data'->>'editorVersion')::int as v, (envelope->'data'->>'needsRedeployment')::boolean as needs from outbox where envelope->>'type' = 'needsRedeploymentSet' and envelope->'data'->>'workflowId' = ${wf.id} order by seq`.execute(registry.db)).rows;

      const moved = editorEvent(wf.id, 6, 'blockMoved', {}, 'D'); // layout only: the same fingerprint
      expect(await applyEditorEvents(registry, [moved, editorEvent(legacy.id, 6, 'blockMoved', {}, 'D')])).toBe(1);
      expect(await flags(wf.id)).toBe(false);
      expect(await flags(legacy.id)).toBe(true); // no deployed fingerprint: any change after the deployment

      const late = editorEvent(wf.id, 4, 'subBlockValueSet', {}, 'X'); // before the deployment: ignored
      const edited = editorEvent(wf.id, 7, 'subBlockValueSet', {}, 'E');
      expect(await applyEditorEvents(registry, [late, edited])).toBe(1);
      expect(await flags(wf.id)).toBe(true);

      const undone = editorEvent(wf.id, 8, 'undone', {}, 'D');
      expect(await applyEditorEvents(registry, [undone])).toBe(1);
      expect(await flags(wf.id)).toBe(false);
      expect(await flips()).toEqual([{ v: 7, needs: true }, { v: 8, needs: false }]);

      // Within one batch the last event decides: an edit and its undo flip nothing, published nothing.
      const batch = [editorEvent(wf.id, 10, 'subBlockValueSet', {}, 'F'), editorEvent(wf.id, 9, 'variableAdded', {}, 'D'), editorEvent(wf.id, 11, 'undone', {}, 'D')];
      expect(await applyEditorEvents(registry, batch)).toBe(0);
      expect(await flags(wf.id)).toBe(false);
      // A renamed variable that rewrote a reference changes what runs, whatever its type.
      expect(await applyEditorEvents(registry, [editorEvent(wf.id, 12, 'variableUpdated', {}, 'G')])).toBe(1);
      expect(await flags(wf.id)).toBe(true);
      // An event without a fingerprint (an older editor) keeps the old rule: it never clears.
      expect(await applyEditorEvents(registry, [editorEvent(wf.id, 13, 'undone')])).toBe(0);
      expect(await flags(wf.id)).toBe(true);
      expect(await flips()).toEqual([{ v: 7, needs: true }, { v: 8, needs: false }, { v: 12, needs: true }]);

      const inbox = await sql<{ event_id: string }>`select event_id from inbox`.execute(registry.db);
      expect(inbox.rows).toHaveLength(4); // the legacy flag and the three flips
      // A redelivered batch changes nothing more, nor does a late copy of an event that changed nothing.
      expect(await applyEditorEvents(registry, [edited, undone])).toBe(0);
      expect(await applyEditorEvents(registry, [moved])).toBe(0);
      expect(await flags(wf.id)).toBe(true);
      expect(await flips()).toHaveLength(3);
    }, 'D');
  });
});
