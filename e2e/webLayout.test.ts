import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { openSignedIn } from './support/browser.js';
import { addAgent } from './support/editing.js';
import { newWorkflow, openNewWorkflow } from './support/workflows.js';

/** A locator's width on screen (0 when it is not drawn). */
async function widthOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())?.width ?? 0;
}

/** The parts of the editor's layout a test looks at. */
function parts(page: Page) {
  return {
    canvas: page.locator('.flow .react-flow'),
    sidebar: page.getByRole('complementary', { name: 'Sidebar', exact: true }),
    palette: page.getByRole('complementary', { name: 'Block palette', exact: true }),
    panel: page.getByRole('complementary', { name: 'Side panel', exact: true }),
    resizer: page.getByRole('separator', { name: 'Resize side panel' }),
    starter: page.locator('.react-flow__node.block-starter'),
  };
}

/** Clicks Fit view and answers how far the starter's centre is from the canvas's, once the view stops moving. */
async function starterOffCentre(page: Page): Promise<number> {
  const { canvas, starter } = parts(page);
  await page.getByRole('toolbar', { name: 'Editing tools' }).getByRole('button', { name: 'Fit view' }).click();
  let last = '';
  let off = Number.NaN;
  await expect
    .poll(async () => {
      const [c, s] = [await canvas.boundingBox(), await starter.boundingBox()];
      if (!c || !s) return false;
      const now = JSON.stringify(s);
      const settled = now === last;
      last = now;
      off = Math.abs(s.x + s.width / 2 - (c.x + c.width / 2));
      return settled;
    }, { interval: 150 })
    .toBe(true);
  return off;
}

describe('web: the editor layout at a laptop’s 1280 px', () => {
  const chromium = chromiumPerSuite();

  it('gives the canvas over 60% of the window, collapses and opens the sidebar and palette keeping search and selection, and keeps a resized side panel across a reload', async () => {
    const { page, errors } = await openNewWorkflow(chromium(), 'Layout Laptop');
    const { canvas, sidebar, palette, panel, resizer, starter } = parts(page);
    const windowWidth = await page.evaluate(() => (globalThis as unknown as { innerWidth: number }).innerWidth);
    expect(windowWidth).toBe(1280);

    // The defaults: the sidebar a rail, the palette and the side panel open, the canvas ≥ 60% of the width.
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    expect(await palette.isVisible()).toBe(true);
    expect(await panel.isVisible()).toBe(true);
    expect(await widthOf(canvas)).toBeGreaterThanOrEqual(0.6 * windowWidth);
    // The sidebar's rail keeps its most used actions.
    expect(await page.getByRole('button', { name: 'New workflow', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Settings', exact: true }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-layout-1280.png') });

    // Collapsing the palette keeps what was searched and the block selected on the canvas.
    await starter.click();
    await page.getByRole('region', { name: 'Block', exact: true }).waitFor();
    await palette.getByRole('searchbox', { name: 'Search blocks' }).fill('agent');
    const withPalette = await widthOf(canvas);
    await palette.getByRole('button', { name: 'Hide block palette' }).click();
    await expect.poll(() => palette.isVisible()).toBe(false);
    await expect.poll(() => widthOf(canvas)).toBeGreaterThan(withPalette + 100);
    expect(await starter.getAttribute('class')).toContain('selected');
    // React Flow measured the wider canvas: fitting the view centres the starter in it.
    expect(await starterOffCentre(page)).toBeLessThan(24);
    await page.getByRole('button', { name: 'Show block palette' }).click();
    await palette.waitFor();
    expect(await palette.getByRole('searchbox', { name: 'Search blocks' }).inputValue()).toBe('agent');
    expect(await palette.getByRole('button', { name: 'Add Agent', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Block', exact: true }).isVisible()).toBe(true);
    // Ctrl+B (away from a text field) collapses and opens it too.
    // (The palette's rail button that was clicked is gone, so the keys go to the page, not a text field.)
    await page.keyboard.press('Control+b');
    await expect.poll(() => palette.isVisible()).toBe(false);
    await page.keyboard.press('Control+b');
    await palette.waitFor();

    // The sidebar opens from its rail (narrowing the canvas) and collapses with Ctrl+\.
    const withoutSidebar = await widthOf(canvas);
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    await sidebar.getByRole('list', { name: 'Workflows' }).getByRole('button').first().waitFor();
    await expect.poll(() => widthOf(canvas)).toBeLessThan(withoutSidebar - 100);
    await page.keyboard.press('Control+\\');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    await expect.poll(() => widthOf(canvas)).toBe(withoutSidebar);

    // The side panel's left edge drags it wider, within its limits; the canvas gives way.
    const before = await widthOf(panel);
    const edge = await resizer.boundingBox();
    if (!edge) throw new Error('the side panel has no edge to drag');
    const from = { x: edge.x + edge.width / 2, y: edge.y + edge.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 120, from.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => widthOf(panel)).toBe(before + 120);
    expect(await resizer.getAttribute('aria-valuenow')).toBe(String(before + 120));
    await page.mouse.move(from.x - 120, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 1000, from.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => widthOf(panel)).toBe(windowWidth / 2);
    // Back to 120 px wider than the default, by the keyboard: ← and → move the edge 16 px.
    await resizer.focus();
    for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => widthOf(panel)).toBe(windowWidth / 2 - 15 * 16);
    const chosen = windowWidth / 2 - 15 * 16;

    // A reload keeps the panel's width and the palette's and sidebar's state (the user's choices win over the defaults).
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    await sidebar.waitFor();
    await page.reload();
    await starter.waitFor({ timeout: 60_000 });
    await expect.poll(() => widthOf(panel)).toBe(chosen);
    expect(await sidebar.isVisible()).toBe(true);
    expect(await palette.isVisible()).toBe(true);

    // The side panel closes and opens again from the header, as wide as it was.
    const withPanel = await widthOf(canvas);
    await page.getByRole('button', { name: 'Hide side panel' }).click();
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await resizer.count()).toBe(0);
    await expect.poll(() => widthOf(canvas)).toBe(withPanel + chosen);
    await page.getByRole('button', { name: 'Show side panel' }).click();
    await expect.poll(() => widthOf(panel)).toBe(chosen);
    await expect.poll(() => widthOf(canvas)).toBe(withPanel);
    // A double click on its edge gives the panel back the window's default width.
    await resizer.dblclick();
    await expect.poll(() => widthOf(panel)).toBe(before);
    expect(errors).toEqual([]);
  });

  it('starts with everything open at 1920 px, the canvas still the widest part', async () => {
    const { page, errors } = await openNewWorkflow(chromium(), 'Layout Desktop');
    await page.setViewportSize({ width: 1920, height: 1080 });
    const { canvas, sidebar, palette, panel } = parts(page);
    await sidebar.waitFor();
    expect(await palette.isVisible()).toBe(true);
    expect(await panel.isVisible()).toBe(true);
    await expect.poll(() => widthOf(canvas)).toBe(1920 - 256 - 224 - 320);
    // Back at 1280 with no choice made, the sidebar collapses again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    expect(await widthOf(canvas)).toBeGreaterThanOrEqual(0.6 * 1280);
    expect(errors).toEqual([]);
  });

  it('opens a closed side panel for now when a block is clicked or a deploy problem is shown, closes it again once nothing is selected, and keeps the choice', async () => {
    const { page, errors } = await openNewWorkflow(chromium(), 'Layout Panel');
    const { panel, starter } = parts(page);
    const form = panel.getByRole('region', { name: 'Block', exact: true });
    const agentId = await addAgent(page);
    const agent = page.locator(`.react-flow__node[data-id="${agentId}"]`);
    await agent.click();
    const agentName = (await form.getByRole('heading', { level: 2 }).textContent()) ?? '';
    expect(agentName).not.toBe('');

    await page.getByRole('button', { name: 'Hide side panel' }).click();
    await expect.poll(() => panel.isVisible()).toBe(false);
    // A click on empty canvas clears the selection; the panel stays closed.
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await expect.poll(() => page.locator('.react-flow__node.selected').count()).toBe(0);
    expect(await panel.isVisible()).toBe(false);

    // Selecting a block by hand shows its form.
    await starter.click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    await form.getByRole('heading', { name: 'Start', exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Hide side panel' }).getAttribute('aria-expanded')).toBe('true');
    // Nothing selected any more: the panel the user closed closes again.
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await expect.poll(() => panel.isVisible()).toBe(false);
    // Ctrl+click adds to a selection without opening it.
    await agent.click({ modifiers: ['Control'] });
    await expect.poll(() => agent.getAttribute('class')).toContain('selected');
    expect(await panel.isVisible()).toBe(false);
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });

    // A deploy problem shows its block's form.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy' });
    await dialog.getByRole('region', { name: 'Problems' }).getByRole('button', { name: agentName, exact: true }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    await form.getByRole('heading', { name: agentName, exact: true }).waitFor();
    expect(await agent.getAttribute('class')).toContain('selected');

    // Shown for now, not chosen: a reload has the panel closed, as the user left it.
    await page.reload();
    await starter.waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Show side panel' }).waitFor();
    expect(await panel.isVisible()).toBe(false);
    // Hiding a panel shown for now closes it; showing it by hand is a choice that a reload keeps.
    await starter.click();
    await expect.poll(() => panel.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Hide side panel' }).click();
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await starter.getAttribute('class')).toContain('selected');
    await page.getByRole('button', { name: 'Show side panel' }).click();
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await expect.poll(() => page.locator('.react-flow__node.selected').count()).toBe(0);
    expect(await panel.isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('starts the sidebar open with no workflow open (settings, the empty home), says where the workflows are when it is a rail, and leaves Ctrl+\\ to text fields while typing', async () => {
    const wf = await newWorkflow('Layout Home', { name: 'First flow' });
    const second = await wf.call<{ id: string }>('POST', '/api/workflows', { workspaceId: wf.owner.workspaceId, name: 'Second flow' });
    expect(second.status).toBe(201);
    const { page, errors } = await openSignedIn(chromium(), wf.cookie, '/settings/environment');
    const { sidebar } = parts(page);
    // 1280 px, nothing chosen: no canvas, so the sidebar is open.
    await sidebar.getByRole('list', { name: 'Workflows' }).getByRole('button', { name: 'First flow', exact: true }).waitFor();

    // A workflow opened from it keeps it open (nothing jumps under the pointer), for now: reloaded at
    // 1280 px the editor starts with the sidebar a rail, its default.
    await sidebar.getByRole('button', { name: 'First flow', exact: true }).click();
    await page.locator('.react-flow__node.block-starter').waitFor({ timeout: 60_000 });
    expect(await sidebar.isVisible()).toBe(true);
    await page.reload();
    await page.locator('.react-flow__node.block-starter').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Show sidebar', exact: true }).waitFor();
    expect(await sidebar.isVisible()).toBe(false);
    // The palette's search is a text field: Ctrl+\ there leaves the sidebar alone.
    const search = page.getByRole('searchbox', { name: 'Search blocks' });
    await search.focus();
    await page.keyboard.press('Control+\\');
    expect(await sidebar.isVisible()).toBe(false);
    // AltGr+\ (German and other layouts) reaches the page as Ctrl+Alt+\: it opens the sidebar.
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('Control+Alt+\\');
    await sidebar.waitFor();

    // Deleting the open workflow leaves none open: the home says to pick one in the open sidebar…
    await sidebar.getByRole('button', { name: 'Actions for First flow' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete workflow' }).click();
    await page.getByRole('heading', { name: 'No workflow open' }).waitFor();
    await page.getByText('Pick one in the sidebar, or start a new one.', { exact: true }).waitFor();
    // …and, the sidebar collapsed to its rail, where to find it.
    await page.keyboard.press('Control+\\');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    await page.getByText('Show the sidebar (the button at the top left, or Ctrl+\\) to pick one, or start a new one.', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});
