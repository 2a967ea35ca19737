import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import type { WorkflowAnswer } from './support/canvas.js';
import { converged, openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';

describe('clearing the workflow from the canvas (spec 000 §2, §4)', () => {
  const chromium = chromiumPerSuite();

  it('asks first, takes every block and connection away on every open page, and Undo brings them back', async () => {
    const owner = await signUp('Clear workflow');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const read = async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
    const typed = (await asOwner<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${workflowId}`)).body.data;
    const starter = Object.values(typed.state.blocks).find((b) => b.type === 'starter')?.id ?? '';
    const commands = [
      { type: 'addBlock', id: 'writer', blockType: 'agent', position: { x: 420, y: 80 } },
      { type: 'addEdge', source: starter, target: 'writer' },
    ];
    expect((await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands })).status).toBe(200);
    const a = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const b = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const pages = [a.page, b.page];
    const clear = a.page.getByRole('toolbar', { name: 'Editing tools' }).getByRole('button', { name: 'Clear workflow', exact: true });
    const dialog = a.page.getByRole('alertdialog', { name: 'Clear the workflow?' });

    // Cancelled: nothing changes.
    await clear.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(Object.keys((await read()).state.blocks).sort()).toEqual([starter, 'writer'].sort());

    // Confirmed: the canvas is empty here and on the other page, and there is nothing left to clear.
    await clear.click();
    await dialog.getByRole('button', { name: 'Clear workflow' }).click();
    const cleared = await converged(pages, read);
    expect(cleared.state.blocks).toEqual({});
    expect(cleared.state.edges).toEqual([]);
    await expect.poll(() => b.page.locator('.react-flow__node').count()).toBe(0);
    await expect.poll(() => clear.isDisabled()).toBe(true);

    // One Undo brings the blocks and the connection back, everywhere.
    await a.page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(async () => Object.keys((await read()).state.blocks).sort()).toEqual([starter, 'writer'].sort());
    const back = await converged(pages, read);
    expect(back.state.edges.map((e) => [e.source, e.target])).toEqual([[starter, 'writer']]);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
