import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { readCanvas, type WorkflowAnswer } from './support/canvas.js';
import { addAgent, converged, drag, fitView, openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';

/** One workflow opened in two pages, each signed in with its cookie, once both are live. */
function openTwice(browser: Browser, workflowId: string, cookies: [string, string]) {
  return Promise.all([openWorkflow(browser, cookies[0], workflowId), openWorkflow(browser, cookies[1], workflowId)]);
}

describe('two browsers editing one workflow', () => {
  const chromium = chromiumPerSuite();

  it('converge on the state the server answers', async () => {
    // Two accounts: the owner, and a member of the owner's workspace with write permission.
    const owner = await signUp('Owner');
    const member = await signUp('Member');
    const asOwner = as(owner);
    expect((await asOwner('POST', `/api/workspaces/${owner.workspaceId}/members`, { email: member.email, permission: 'write' })).status).toBe(201);
    const created = await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Shared' });
    const workflowId = created.body.id;

    const [a, b] = await openTwice(chromium(), workflowId, [owner.headers.cookie ?? '', member.headers.cookie ?? '']);

    // A adds an agent block; B sees it arrive live.
    const blockId = await addAgent(a.page);
    const addedInA = a.page.locator(`.react-flow__node[data-id="${blockId}"]`);
    const addedInB = b.page.locator(`.react-flow__node[data-id="${blockId}"]`);
    await addedInB.waitFor();
    // Click-to-add puts it right of the starter, outside B's view as opened: B fits the view to reach it.
    await fitView(b.page);
    const placed = (await readCanvas(a.page)).blocks.find((x) => x.id === blockId);

    // At the same time: A moves the block, B renames it and connects the starter to it.
    await Promise.all([
      drag(a.page, addedInA, { x: 160, y: 60 }),
      (async () => {
        await addedInB.click();
        await b.page.getByRole('textbox', { name: 'Block name' }).fill('Summariser');
        await b.page.getByRole('button', { name: 'Rename' }).click();
        await b.page.locator('.react-flow__node.block-starter .react-flow__handle.source').click();
        await addedInB.locator('.react-flow__handle.target').click();
      })(),
    ]);

    // Both canvases settle on exactly what the server answers.
    const server = await converged([a.page, b.page], async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data);

    // And the edits all landed: the block moved, renamed and connected.
    const block = server.state.blocks[blockId];
    expect(block?.name).toBe('Summariser');
    expect((block?.position.x ?? 0) - (placed?.x ?? 0)).toBeGreaterThan(100);
    expect(server.state.edges.map((e) => [server.state.blocks[e.source]?.name, e.target])).toEqual([['Start', blockId]]);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  it('deletes, undoes and redoes through the shared history on either page', async () => {
    const owner = await signUp('Undoer');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const read = async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
    const cookie = owner.headers.cookie ?? '';
    const [a, b] = await openTwice(chromium(), workflowId, [cookie, cookie]);

    const blockId = await addAgent(a.page);
    const inB = b.page.locator(`.react-flow__node[data-id="${blockId}"]`);
    await inB.waitFor();
    await fitView(b.page);
    await inB.click();
    await b.page.getByRole('button', { name: 'Delete selected' }).click();
    expect((await converged([a.page, b.page], read)).state.blocks[blockId]).toBeUndefined();
    await a.page.getByRole('button', { name: 'Undo' }).click();
    expect((await converged([a.page, b.page], read)).state.blocks[blockId]?.name).toBe('Agent 1');

    await b.page.getByRole('button', { name: 'Redo' }).click();
    expect((await converged([a.page, b.page], read)).state.blocks[blockId]).toBeUndefined();
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('takes back an edit the server refuses and shows its message', async () => {
    // A member edits while the owner takes their write access away: the page was opened with
    // write access and still shows the palette, but the server now refuses the edit.
    const owner = await signUp('Owner of a share');
    const member = await signUp('Demoted member');
    const asOwner = as(owner);
    expect((await asOwner('POST', `/api/workspaces/${owner.workspaceId}/members`, { email: member.email, permission: 'write' })).status).toBe(201);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const read = async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
    const [{ page }] = await openTwice(chromium(), workflowId, [member.headers.cookie ?? '', owner.headers.cookie ?? '']);
    const palette = page.getByRole('complementary', { name: 'Block palette' });
    await palette.waitFor();

    expect((await asOwner('PATCH', `/api/workspaces/${owner.workspaceId}/members/${member.userId}`, { permission: 'read' })).status).toBe(200);
    await palette.getByRole('button', { name: 'Add Agent', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toMatch(/permission/i);
    const server = await converged([page], read);
    expect(Object.values(server.state.blocks).map((b) => b.name)).toEqual(['Start']);
    expect(await page.locator('.react-flow__node.block-agent').count()).toBe(0);
  });
});
