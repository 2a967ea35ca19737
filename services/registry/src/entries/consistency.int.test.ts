import { describe, expect, it } from 'vitest';
import { createTestRegistry } from '../testSupport.js';
import { createWorkspace, deleteWorkspace } from '../workspaces/workspaces.js';
import { checkWorkflows, createWorkflow, deleteWorkflow, existingWorkflows } from './workflows.js';
import { duplicateWorkflow } from './duplicate.js';
import type { ExecuteCommandsOptions } from '../ports.js';

/** A test registry whose fake editor records what it was told to drop (and can be made to fail a copy). */
async function registryWithEditor(opts: { failCopy?: boolean } = {}) {
  const dropped: string[][] = [];
  const told: Array<{ id: string; commands: unknown[]; options: ExecuteCommandsOptions | undefined }> = [];
  const created = await createTestRegistry();
  const { registry } = created;
  const base = registry.editor;
  registry.editor = {
    getState: (id, waitMs) => base.getState(id, waitMs),
    executeCommands: (id, commands, actor, options) => {
      told.push({ id, commands, options });
      return opts.failCopy ? Promise.reject(new Error('editor down')) : base.executeCommands(id, commands, actor, options);
    },
    dropWorkflows: (ids) => {
      dropped.push(ids);
      return Promise.resolve();
    },
  };
  return { registry, dropped, told, drop: created.drop };
}

describe('what the registry tells the editor before it answers (real Postgres)', () => {
  it('answers which workflows exist, for the editor to catch up only those', async () => {
    const { registry, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const a = await createWorkflow(registry, 'u1', ws.id, {});
      const b = await createWorkflow(registry, 'u1', ws.id, {});
      expect((await existingWorkflows(registry.db, [a.id, 'nope', b.id, a.id, ''])).sort()).toEqual([a.id, b.id].sort());
      expect(await existingWorkflows(registry.db, [])).toEqual([]);
      await deleteWorkflow(registry, 'u1', a.id);
      expect(await existingWorkflows(registry.db, [a.id, b.id])).toEqual([b.id]);
    } finally {
      await drop();
    }
  });

  it('drops a deleted workflow in the editor before answering, and a second delete answers 404 without telling it again', async () => {
    const { registry, dropped, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const wf = await createWorkflow(registry, 'u1', ws.id, {});
      await deleteWorkflow(registry, 'u1', wf.id);
      expect(dropped).toEqual([[wf.id]]);
      await expect(deleteWorkflow(registry, 'u1', wf.id)).rejects.toMatchObject({ code: 'not_found', message: `Workflow ${wf.id} not found` });
      expect(dropped).toEqual([[wf.id]]);
    } finally {
      await drop();
    }
  });

  it('drops every workflow of a deleted workspace in the editor in one call', async () => {
    const { registry, dropped, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await createWorkflow(registry, 'u1', ws.id, {})).id);
      await deleteWorkspace(registry, 'u1', ws.id);
      expect(dropped.map((d) => [...d].sort())).toEqual([[...ids].sort()]);
    } finally {
      await drop();
    }
  });

  it("fills a copy with the source's state saying whose it is, so the editor lets it keep the source's starters (issue 14)", async () => {
    const { registry, told, drop } = await registryWithEditor();
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const source = await createWorkflow(registry, 'u1', ws.id, {});
      const { workflow: copy } = await duplicateWorkflow(registry, 'u1', source.id, {});
      expect(told).toEqual([{ id: copy.id, commands: [expect.objectContaining({ type: 'replaceState' }), expect.objectContaining({ type: 'replaceVariables' })], options: { copyOf: { workflowId: source.id, version: 1 } } }]);
      // What the editor asks before it takes the claim: the copy is recorded as the source's, the source as no copy.
      const checked = await checkWorkflows(registry.db, [copy.id, source.id]);
      expect(checked.existingIds.sort()).toEqual([copy.id, source.id].sort());
      expect(checked.copiedFrom).toEqual({ [copy.id]: source.id });
    } finally {
      await drop();
    }
  });

  it('drops a copy the editor could not fill, so no stream of it survives the refused duplicate', async () => {
    const { registry, dropped, drop } = await registryWithEditor({ failCopy: true });
    try {
      const ws = await createWorkspace(registry, 'u1', 'W');
      const source = await createWorkflow(registry, 'u1', ws.id, {});
      await expect(duplicateWorkflow(registry, 'u1', source.id, {})).rejects.toMatchObject({ code: 'internal' });
      expect(dropped).toHaveLength(1);
      const [copyId] = dropped[0] ?? [];
      expect(copyId).not.toBe(source.id);
      expect(await existingWorkflows(registry.db, [source.id, copyId ?? ''])).toEqual([source.id]);
    } finally {
      await drop();
    }
  });
});
