/**
 * A wart of a walkthrough in Chromium (issue 14): click-to-add puts a block right of the selected
 * (or right-most) block on its row, not above the starter; with a loop, or a block inside one,
 * selected, into that loop. The other two (a failed run's console without
 * "Workflow output"; the deploy dialog reading a deployment with no schedule as none) are in
 * e2e/webLeftovers.test.ts beside the tests of the same screens.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, fitView } from './support/editing.js';
import { openNewWorkflow } from './support/workflows.js';

type Placed = { blocks: Record<string, { type: string; position: { x: number; y: number }; data: { parentId?: string; width?: number } }> };

describe('walkthrough warts in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('click-to-add puts a block right of the starter on its row, the next right of that one, and right of a selected block', async () => {
    const { page, errors, state, starter } = await openNewWorkflow<Placed>(chromium(), 'Click adder');
    const at = async (id: string) => (await state()).blocks[id]?.position ?? { x: NaN, y: NaN };
    const start = await at(starter);
    const first = await addFromPalette(page, 'Agent', 'agent');
    await expect.poll(() => at(first)).toEqual({ x: start.x + 360, y: start.y });
    // Panned into view when the view did not show it (at zoom 1 the canvas beside the panels is 480 px wide).
    const inPane = async (id: string) => {
      const [pane, card] = await Promise.all([page.locator('.react-flow').boundingBox(), page.locator(`.react-flow__node[data-id="${id}"]`).boundingBox()]);
      return Boolean(pane && card && card.x >= pane.x && card.x + card.width <= pane.x + pane.width);
    };
    await expect.poll(() => inPane(first)).toBe(true);
    // Nothing selected: right of the right-most block.
    const second = await addFromPalette(page, 'Function', 'function');
    await expect.poll(() => at(second)).toEqual({ x: start.x + 720, y: start.y });
    // The starter selected: right of it is taken, and so is the row that far; the next free spot on the way.
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${starter}"]`).click({ position: { x: 8, y: 8 } });
    const third = await addFromPalette(page, 'Condition', 'condition');
    // Right of the starter is taken (the agent), and so is the row that far: below the taken spot.
    await expect.poll(() => at(third)).toEqual({ x: start.x + 360, y: start.y + 130 });
    expect(errors).toEqual([]);
  });

  it('click-to-add with a loop selected puts the block inside it, with a block in the loop selected puts the next right of it in the loop (grown to hold it), and a trigger beside the loop', async () => {
    const { page, errors, state } = await openNewWorkflow<Placed>(chromium(), 'Loop adder');
    const block = async (id: string) => (await state()).blocks[id];
    const select = async (selector: string) => {
      await fitView(page);
      await page.locator(selector).click({ position: { x: 8, y: 8 } });
    };
    const loop = await addFromPalette(page, 'Loop', 'loop');
    await expect.poll(async () => (await block(loop))?.data.parentId ?? 'top').toBe('top');

    // The loop selected (by its title): the agent goes inside it, at its first free spot.
    await select(`.react-flow__node[data-id="${loop}"] .container-head`);
    const agent = await addFromPalette(page, 'Agent', 'agent');
    await expect.poll(async () => (await block(agent))?.data.parentId).toBe(loop);
    expect((await block(agent))?.position).toEqual({ x: 110, y: 60 });

    // The agent in the loop selected: the function goes into the same loop, right of the agent, and
    // the loop (500 wide) grows to hold it.
    await select(`.react-flow__node[data-id="${agent}"]`);
    const fn = await addFromPalette(page, 'Function', 'function');
    await expect.poll(async () => (await block(fn))?.data.parentId).toBe(loop);
    expect((await block(fn))?.position).toEqual({ x: 110 + 360, y: 60 });
    await expect.poll(async () => (await block(loop))?.data.width).toBe(110 + 360 + 260);
    // One Undo takes the function away and the loop back to 500 wide (the grow and the add are one edit); Redo brings both back.
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(async () => (await block(fn))?.type ?? 'gone').toBe('gone');
    expect((await block(loop))?.data.width).toBe(500);
    expect((await block(agent))?.data.parentId).toBe(loop);
    await page.getByRole('button', { name: 'Redo', exact: true }).click();
    await expect.poll(async () => (await block(fn))?.data.parentId).toBe(loop);
    expect((await block(loop))?.data.width).toBe(110 + 360 + 260);

    // A trigger never goes into a loop: with the function in the loop selected, the webhook lands beside it.
    await select(`.react-flow__node[data-id="${fn}"]`);
    const webhook = await addFromPalette(page, 'Webhook', 'webhook');
    await expect.poll(async () => (await block(webhook))?.type).toBe('webhook');
    expect((await block(webhook))?.data.parentId).toBeUndefined();
    await fitView(page);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-click-add-loop.png') });
    expect(errors).toEqual([]);
  });
});
