import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { openNewWorkflow } from './support/workflows.js';

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
});
