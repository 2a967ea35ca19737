import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, openSignedIn } from './support/browser.js';
import { expectedCanvas, readCanvas, type WorkflowAnswer } from './support/canvas.js';
import { as, signUp } from './support/session.js';

/** Drags a node by an offset with the mouse, as a user would. */
async function drag(page: Page, node: Locator, by: { x: number; y: number }): Promise<void> {
  const box = await node.boundingBox();
  if (!box) throw new Error('the node is not on screen');
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 12 });
  await page.mouse.up();
}

describe('two browsers editing one workflow', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('converge on the state the server answers', async () => {
    // Two accounts: the owner, and a member of the owner's workspace with write permission.
    const owner = await signUp('Owner');
    const member = await signUp('Member');
    const asOwner = as(owner);
    expect((await asOwner('POST', `/api/workspaces/${owner.workspaceId}/members`, { email: member.email, permission: 'write' })).status).toBe(201);
    const created = await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Shared' });
    const workflowId = created.body.id;

    const a = await openSignedIn(browser, owner.headers.cookie ?? '', `/?workflow=${workflowId}`);
    const b = await openSignedIn(browser, member.headers.cookie ?? '', `/?workflow=${workflowId}`);
    for (const { page } of [a, b]) {
      await page.locator('.react-flow__node.block-starter').waitFor({ timeout: 15_000 });
      await page.getByText('live', { exact: true }).waitFor();
    }

    // A adds an agent block; B sees it arrive live.
    await a.page.getByRole('combobox', { name: 'Block type' }).selectOption('agent');
    await a.page.getByRole('button', { name: 'Add block' }).click();
    const addedInA = a.page.locator('.react-flow__node.block-agent');
    await addedInA.waitFor();
    const blockId = (await addedInA.getAttribute('data-id')) ?? '';
    const addedInB = b.page.locator(`.react-flow__node[data-id="${blockId}"]`);
    await addedInB.waitFor();
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
    let server: WorkflowAnswer | undefined;
    await expect
      .poll(
        async () => {
          server = (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
          const want = expectedCanvas(server);
          return [await readCanvas(a.page), await readCanvas(b.page)].map((seen) => JSON.stringify(seen) === JSON.stringify(want));
        },
        { timeout: 15_000, interval: 250 },
      )
      .toEqual([true, true]);

    // And the edits all landed: the block moved, renamed and connected.
    const block = server?.state.blocks[blockId];
    expect(block?.name).toBe('Summariser');
    expect((block?.position.x ?? 0) - (placed?.x ?? 0)).toBeGreaterThan(100);
    expect(server?.state.edges.map((e) => [server?.state.blocks[e.source]?.name, e.target])).toEqual([['Start', blockId]]);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
});
