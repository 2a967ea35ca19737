import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createEnvelope } from '@weft/platform';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace } from '../workspaces/workspaces.js';
import { createWorkflow } from '../entries/workflows.js';
import { applyEditorEvents } from './editorEvents.js';

const editorEvent = (workflowId: string, version: number, type: string, data: Record<string, unknown> = {}) =>
  createEnvelope(`test.editor.workflow.${workflowId}`, type, { workflowId, version, type, data, occurredAt: new Date().toISOString() });

describe('editor events → deployment flags (real Postgres)', () => {
  it('applies a batch in order and writes only the events that change a flag', async () => {
    const { registry, drop } = await createTestRegistry();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const deployed = await createWorkflow(registry, 'u1', ws.id, {});
      const draft = await createWorkflow(registry, 'u1', ws.id, {});
      // Deployed at editor version 5.
      await registry.db.updateTable('workflows').set({ baseline_version: 5, needs_redeployment: false }).where('id', '=', deployed.id).execute();
      const batch = [
        editorEvent(deployed.id, 4, 'blockMoved'), // before the deployment: no change
        editorEvent(deployed.id, 6, 'blockMoved'), // first edit after it: flags
        editorEvent(deployed.id, 7, 'blockMoved'), // already flagged
        editorEvent(draft.id, 1, 'blockAdded'), // never deployed
        editorEvent(deployed.id, 8, 'variableAdded'), // not part of a deployment
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
    } finally {
      await drop();
    }
  });
});
