import { expect } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { openSignedIn } from './browser.js';
import { expectedCanvas, readCanvas, type WorkflowAnswer } from './canvas.js';

/** Opens a workflow in a page of its own, signed in with `cookie`, once its canvas is drawn and live. */
export async function openWorkflow(browser: Browser, cookie: string, workflowId: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await openSignedIn(browser, cookie, `/?workflow=${workflowId}`);
  // A first page of a file pays the stack's cold start; on a loaded machine two fresh pages took 13.6 s.
  await opened.page.locator('.react-flow__node.block-starter').waitFor({ timeout: 60_000 });
  await opened.page.getByText('live', { exact: true }).waitFor();
  return opened;
}

/**
 * A typed field sends its text after a pause in typing (800 ms), on leaving it and on Enter. A test that proves
 * leaving (or Escape) is what sends makes the pause longer than itself, so a loaded machine's gap between two keys
 * cannot send first. Holds for the page until it is reloaded.
 */
export async function sendOnlyOnLeave(page: Page): Promise<void> {
  await page.evaluate(() => {
    (globalThis as unknown as { weftDraftPauseMs: number }).weftDraftPauseMs = 3_600_000;
  });
}

/** Drags a node by an offset with the mouse, as a user would. */
export async function drag(page: Page, node: Locator, by: { x: number; y: number }): Promise<void> {
  const box = await node.boundingBox();
  if (!box) throw new Error('the node is not on screen');
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 12 });
  await page.mouse.up();
}

/**
 * Clicks Fit view and waits until the view stops moving (its transform read the same twice, 100 ms
 * apart): the fit animates, and a click on a block while the view still moves under the pointer may
 * land beside it on a loaded machine.
 */
export async function fitView(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Fit view', exact: true }).click();
  const viewport = page.locator('.react-flow__viewport');
  let last: string | null = null;
  await expect
    .poll(
      async () => {
        const now = await viewport.getAttribute('style');
        const steady = now === last;
        last = now;
        return steady;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(true);
}

/** A locator's box once it has stopped moving (the view may be panning or zooming after an action). */
export async function stableBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = '';
  let box: { x: number; y: number; width: number; height: number } | null = null;
  await expect
    .poll(async () => {
      box = await locator.boundingBox();
      const now = JSON.stringify(box);
      const same = now === last && box !== null;
      last = now;
      return same;
    }, { interval: 150 })
    .toBe(true);
  if (!box) throw new Error('not on screen');
  return box;
}

/** Adds a block by clicking its palette entry (it lands right of the selected or right-most block, on no other block, panned into view) and answers its id. */
export async function addFromPalette(page: Page, name: string, type: string): Promise<string> {
  const before = new Set(await page.locator(`.react-flow__node.block-${type}`).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id'))));
  await page.getByRole('complementary', { name: 'Block palette' }).getByRole('button', { name: `Add ${name}`, exact: true }).click();
  let id = '';
  await expect
    .poll(async () => {
      const ids = await page.locator(`.react-flow__node.block-${type}`).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')));
      id = ids.find((x) => x && !before.has(x)) ?? '';
      return id;
    }, { timeout: 30_000 })
    .not.toBe('');
  return id;
}

/** Adds an agent block from the palette and answers its id. */
export function addAgent(page: Page): Promise<string> {
  return addFromPalette(page, 'Agent', 'agent');
}

/** Waits until every page's canvas shows exactly what `read` (GET /api/workflows/{id}) answers, and answers that. */
export async function converged(pages: Page[], read: () => Promise<WorkflowAnswer>): Promise<WorkflowAnswer> {
  const last: { server?: WorkflowAnswer } = {};
  await expect
    .poll(
      async () => {
        const server = await read();
        last.server = server;
        const want = JSON.stringify(expectedCanvas(server));
        return Promise.all(pages.map(async (page) => JSON.stringify(await readCanvas(page)) === want));
      },
      { timeout: 30_000, interval: 250 },
    )
    .toEqual(pages.map(() => true));
  if (!last.server) throw new Error('the server was never read');
  return last.server;
}
