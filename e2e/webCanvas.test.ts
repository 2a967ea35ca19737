import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, drag, fitView, stableBox } from './support/editing.js';
import { openNewWorkflow } from './support/workflows.js';

interface ServerBlock {
  id: string;
  type: string;
  name: string;
  position: { x: number; y: number };
  data: { parentId?: string; width?: number; height?: number; collection?: unknown };
}
interface ServerState {
  blocks: Record<string, ServerBlock>;
  edges: Array<{ id: string; source: string; target: string; sourceHandle?: string }>;
}

/** Room a block takes on the canvas (its drawn width and height). */
const BLOCK = { width: 240, height: 60 };

function overlapping(blocks: ServerBlock[]): string[] {
  const top = blocks.filter((b) => !b.data.parentId && b.type !== 'loop' && b.type !== 'parallel');
  const out: string[] = [];
  for (const a of top)
    for (const b of top)
      if (a.id < b.id && a.position.x < b.position.x + BLOCK.width && b.position.x < a.position.x + BLOCK.width && a.position.y < b.position.y + BLOCK.height && b.position.y < a.position.y + BLOCK.height)
        out.push(`${a.name} / ${b.name}`);
  return out;
}

/** Where a block is on the canvas: its position plus its containers'. */
function absolute(state: ServerState, id: string): { x: number; y: number } {
  const at = { x: 0, y: 0 };
  for (let block = state.blocks[id]; block; block = block.data.parentId ? state.blocks[block.data.parentId] : undefined) {
    at.x += block.position.x;
    at.y += block.position.y;
  }
  return at;
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
/** A handle of a block. */
const handle = (page: Page, blockId: string, selector: string) => node(page, blockId).locator(selector);

const clickConnecting = (h: Locator) => h.evaluate((el) => el.classList.contains('clickconnecting'));

/**
 * Connects two handles by clicking (React Flow's click-to-connect): the first click must have started
 * a connection (its handle marked `clickconnecting`) before the second ends it — a click that lands
 * while the view still settles would otherwise leave the next click to start one from the wrong handle.
 */
async function clickConnect(from: Locator, to: Locator): Promise<void> {
  await stableBox(from);
  for (let tries = 1; ; tries++) {
    await from.click();
    try {
      await expect.poll(() => clickConnecting(from), { timeout: 5_000 }).toBe(true);
      break;
    } catch (err) {
      if (tries === 3) throw err;
    }
  }
  await stableBox(to);
  await to.click();
  await expect.poll(() => clickConnecting(from)).toBe(false);
}

describe('the canvas in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('adds blocks from the palette where none overlaps, connects every kind of handle, refuses a bad connection and deletes an edge', async () => {
    const { page, errors, state } = await openNewWorkflow<ServerState>(chromium(), 'Palette user');
    const palette = page.getByRole('complementary', { name: 'Block palette' });

    // Search narrows the palette; thinking is hidden as the catalogue says.
    await palette.getByRole('searchbox', { name: 'Search blocks' }).fill('condit');
    await expect.poll(() => palette.getByRole('button').filter({ hasText: /./ }).allTextContents()).toEqual([expect.stringMatching(/^Condition/)]);
    await palette.getByRole('searchbox', { name: 'Search blocks' }).fill('thinking');
    await palette.getByText(/No block matches/).waitFor();
    await palette.getByRole('searchbox', { name: 'Search blocks' }).fill('');

    // Four clicks: four blocks, none on top of another.
    const first = await addFromPalette(page, 'Agent', 'agent');
    const second = await addFromPalette(page, 'Agent', 'agent');
    const condition = await addFromPalette(page, 'Condition', 'condition');
    const router = await addFromPalette(page, 'Router', 'router');
    await expect.poll(async () => Object.keys((await state()).blocks).length).toBe(5);
    expect(overlapping(Object.values((await state()).blocks))).toEqual([]);

    // The condition's "if" row and the router each get their own edges; an agent's error handle too.
    await fitView(page);
    await clickConnect(handle(page, condition, '.react-flow__handle.handle-condition').first(), handle(page, first, '.react-flow__handle.handle-in'));
    await clickConnect(handle(page, router, '.react-flow__handle[data-handleid="source"]'), handle(page, second, '.react-flow__handle.handle-in'));
    await clickConnect(handle(page, first, '.react-flow__handle.handle-error'), handle(page, router, '.react-flow__handle.handle-in'));
    await expect
      .poll(async () => (await state()).edges.map((e) => [e.source, e.target, e.sourceHandle]).sort())
      .toEqual(
        [
          [condition, first, `condition-${condition}-if`],
          [first, router, 'error'],
          [router, second, `router-${second}`],
        ].sort(),
      );

    // A block cannot connect to itself: refused with the reason.
    await clickConnect(handle(page, second, '.react-flow__handle[data-handleid="source"]'), handle(page, second, '.react-flow__handle.handle-in'));
    await page.getByRole('alert').filter({ hasText: 'Cannot connect: A block cannot connect to itself' }).waitFor();

    // Selecting an edge and pressing Delete removes it.
    const errorEdge = (await state()).edges.find((e) => e.sourceHandle === 'error');
    await page.locator(`[data-testid="rf__edge-${errorEdge?.id}"]`).dispatchEvent('click');
    await page.locator('.react-flow__pane').focus().catch(() => undefined);
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await state()).edges.length).toBe(2);
    expect(await page.locator('.react-flow__minimap').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-canvas-handles.png') });
    expect(errors).toEqual([]);
  });

  it('drops blocks into a loop, moves them out, resizes it, and copies, pastes, duplicates, deletes and lays out by shortcut', async () => {
    const { page, errors, state } = await openNewWorkflow<ServerState>(chromium(), 'Container user');
    const palette = page.getByRole('complementary', { name: 'Block palette' });

    // Drag the loop from the palette onto the canvas.
    await palette.getByRole('button', { name: 'Add Loop', exact: true }).dragTo(page.locator('.flow'), { targetPosition: { x: 120, y: 90 } });
    await expect.poll(async () => Object.values((await state()).blocks).filter((b) => b.type === 'loop').length).toBe(1);
    const loop = Object.values((await state()).blocks).find((b) => b.type === 'loop')?.id ?? '';

    // An agent dragged into the loop becomes its child; dragged out again, it is not.
    const agent = await addFromPalette(page, 'Agent', 'agent');
    await fitView(page);
    const loopBox = await stableBox(node(page, loop));
    const agentBox = await stableBox(node(page, agent));
    const into = { x: loopBox.x + loopBox.width / 2 - (agentBox.x + agentBox.width / 2), y: loopBox.y + loopBox.height / 2 - (agentBox.y + agentBox.height / 2) };
    await drag(page, node(page, agent), into);
    await expect.poll(async () => (await state()).blocks[agent]?.data.parentId).toBe(loop);
    // Moving the loop moves its child with it (the child's position is relative to the loop).
    const inside = (await state()).blocks[agent]?.position;
    const loopAt = (await state()).blocks[loop]?.position;
    await drag(page, node(page, loop).locator('.container-head'), { x: 40, y: 30 });
    await expect.poll(async () => (await state()).blocks[loop]?.position).not.toEqual(loopAt);
    expect((await state()).blocks[agent]?.position).toEqual(inside);

    // Resize the loop from its top-left corner (the bottom-right one may sit under the minimap): the
    // child stays where it is on the screen, and on the canvas as stored (its position in the loop shifts
    // back by as much, so a reload or another page draws it there too).
    await node(page, loop).locator('.container-head').click();
    const corner = node(page, loop).locator('.react-flow__resize-control.handle.top.left');
    await stableBox(corner);
    const childOnScreen = await stableBox(node(page, agent));
    const childOnCanvas = absolute(await state(), agent);
    const loopBefore = (await state()).blocks[loop]?.position;
    await drag(page, corner, { x: -60, y: -40 });
    await expect.poll(async () => (await state()).blocks[loop]?.data.width ?? 500).toBeGreaterThan(500);
    await expect.poll(async () => (await state()).blocks[loop]?.position).not.toEqual(loopBefore);
    await expect.poll(async () => absolute(await state(), agent)).toEqual(childOnCanvas);
    const childAfter = await stableBox(node(page, agent));
    expect(Math.abs(childAfter.x - childOnScreen.x)).toBeLessThan(2);
    expect(Math.abs(childAfter.y - childOnScreen.y)).toBeLessThan(2);

    // The loop's Collection is a reference field like a block's: `<` opens the menu of what runs
    // before the loop (nothing here), and the text is stored on leaving it or Enter.
    await node(page, loop).locator('.container-head').click();
    const form = page.getByRole('region', { name: 'Block' });
    await form.getByLabel('Loop type').selectOption('forEach');
    const items = form.getByLabel('Collection');
    await items.click();
    await items.pressSequentially('<');
    await form.getByRole('listbox', { name: 'Block outputs' }).getByText('No upstream output matches').waitFor();
    await items.fill('["a", "b"]');
    await items.press('Enter');
    await expect.poll(async () => (await state()).blocks[loop]?.data.collection).toBe('["a", "b"]');

    const loopNow = await stableBox(node(page, loop));
    const agentNow = await stableBox(node(page, agent));
    await drag(page, node(page, agent), { x: 0, y: loopNow.y + loopNow.height + 60 - agentNow.y });
    await expect.poll(async () => (await state()).blocks[agent]?.data.parentId).toBeUndefined();
    await fitView(page);

    // Select the agent, copy and paste it (Ctrl+C, Ctrl+V), duplicate (Ctrl+D), then delete one (Delete) and undo (Ctrl+Z).
    await node(page, agent).click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await expect.poll(async () => Object.values((await state()).blocks).filter((b) => b.type === 'agent').length).toBe(2);
    // Pasted twice: each copy at a free spot, on neither the original nor the first copy (60 px off, partly on it, before).
    await page.keyboard.press('Control+v');
    const agents = async () => Object.values((await state()).blocks).filter((b) => b.type === 'agent');
    await expect.poll(async () => (await agents()).length).toBe(3);
    expect(overlapping(await agents())).toEqual([]);
    await node(page, agent).click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('Control+d');
    await expect.poll(async () => (await agents()).length).toBe(4);
    await node(page, agent).click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await state()).blocks[agent]).toBeUndefined();
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await state()).blocks[agent]?.type).toBe('agent');

    // Select all and auto layout: nothing overlaps afterwards.
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByRole('region', { name: 'Selection' }).getByRole('heading').textContent()).toMatch(/blocks selected$/);
    await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
    await expect.poll(async () => overlapping(Object.values((await state()).blocks)), { timeout: 15_000 }).toEqual([]);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-canvas-containers.png') });
    expect(errors).toEqual([]);
  });

  it('pastes a whole copied workflow into another without a second starter, and has no duplicate of the starter', async () => {
    const { page, errors, call, owner } = await openNewWorkflow<ServerState>(chromium(), 'Starter paste');
    await addFromPalette(page, 'Agent', 'agent');
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+c');
    await page.getByTestId('toast').filter({ hasText: 'Copied 2 blocks' }).waitFor();

    // Another workflow of the same account, opened in the same page: the paste brings the agent, not the starter.
    const other = (await call<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Target' })).body.id;
    const types = async (id: string) => Object.values((await call<{ data: { state: ServerState } }>('GET', `/api/workflows/${id}`)).body.data.state.blocks).map((b) => b.type).sort();
    await page.goto(`${new URL(page.url()).origin}/?workflow=${other}`);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+v');
    await expect.poll(() => types(other)).toEqual(['agent', 'starter']);
    await page.getByTestId('toast').filter({ hasText: 'The starter was not pasted: a workflow has one starter' }).waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-canvas-paste-starter.png') });

    // The starter's panel offers no duplicate, and Ctrl+D on it adds nothing (the paste after it shows the edits landed).
    const ownStarter = page.locator('.react-flow__node.block-starter');
    await ownStarter.click({ position: { x: 8, y: 8 } });
    await page.getByRole('region', { name: 'Block', exact: true }).getByText('Enabled', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Duplicate block', exact: true }).count()).toBe(0);
    await page.keyboard.press('Control+d');
    await page.keyboard.press('Control+v');
    await expect.poll(async () => (await types(other)).filter((t) => t === 'agent').length).toBe(2);
    expect((await types(other)).filter((t) => t === 'starter')).toEqual(['starter']);
    expect(errors).toEqual([]);
  });

  it('reloads the page once when auto layout’s file, loaded on demand, is gone (the app rebuilt since the page opened), then lays out', async () => {
    const { page, errors, state } = await openNewWorkflow<ServerState>(chromium(), 'Stale chunk');
    const agent = await addFromPalette(page, 'Agent', 'agent');
    const placed = async () => JSON.stringify((await state()).blocks[agent]?.position);
    const before = await placed();
    // The first request of the layout file fails as a file of an older build would; later ones are served.
    let asked = 0;
    await page.route('**/assets/layout-*.js', async (route) => {
      asked++;
      if (asked === 1) await route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html>' });
      else await route.continue();
    });
    await page.evaluate('window.weftBeforeReload = true');
    await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
    // The page reloads by itself (the marker is gone) instead of keeping "Failed to fetch dynamically imported module".
    await expect.poll(() => page.evaluate('window.weftBeforeReload ?? false'), { timeout: 15_000 }).toBe(false);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
    await expect.poll(placed, { timeout: 15_000 }).not.toBe(before);
    expect(asked).toBe(2);
    expect(errors).toEqual([]);
  });
  it('deletes two Ctrl-clicked blocks with one Delete, and one Ctrl+Z brings both back with the edge between them (issue 14); a paste of both and their edge is one Ctrl+Z too', async () => {
    const { page, errors, state } = await openNewWorkflow<ServerState>(chromium(), 'Multi deleter');
    const first = await addFromPalette(page, 'Function', 'function');
    const second = await addFromPalette(page, 'Function', 'function');
    await fitView(page);
    await clickConnect(handle(page, first, '.react-flow__handle[data-handleid="source"]'), handle(page, second, '.react-flow__handle.handle-in'));
    await expect.poll(async () => (await state()).edges.map((e) => [e.source, e.target])).toEqual([[first, second]]);
    const before = await state();

    await stableBox(node(page, second));
    await node(page, first).click({ position: { x: 8, y: 8 } });
    await node(page, second).click({ position: { x: 8, y: 8 }, modifiers: ['Control'] });
    await expect.poll(() => page.getByRole('region', { name: 'Selection' }).getByRole('heading').textContent()).toMatch(/^2 blocks selected$/);
    await page.keyboard.press('Delete');
    await expect.poll(async () => Object.keys((await state()).blocks).length).toBe(Object.keys(before.blocks).length - 2);
    expect((await state()).edges).toEqual([]);

    // One undo step: both blocks and their edge come back at once.
    await page.keyboard.press('Control+z');
    await expect
      .poll(async () => {
        const now = await state();
        return [first, second].filter((id) => now.blocks[id] === undefined);
      })
      .toEqual([]);
    expect((await state()).edges.map((e) => [e.source, e.target])).toEqual([[first, second]]);

    // Both copied and pasted: two blocks and their edge in one edit, which one Ctrl+Z takes back whole.
    const restored = await state();
    await node(page, first).click({ position: { x: 8, y: 8 } });
    await node(page, second).click({ position: { x: 8, y: 8 }, modifiers: ['Control'] });
    await expect.poll(() => page.getByRole('region', { name: 'Selection' }).getByRole('heading').textContent()).toMatch(/^2 blocks selected$/);
    await page.keyboard.press('Control+c');
    await page.getByTestId('toast').filter({ hasText: 'Copied 2 blocks' }).waitFor();
    await page.keyboard.press('Control+v');
    await expect.poll(async () => (await state()).edges.length).toBe(2);
    expect(Object.keys((await state()).blocks)).toHaveLength(Object.keys(restored.blocks).length + 2);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => Object.keys((await state()).blocks).sort()).toEqual(Object.keys(restored.blocks).sort());
    expect((await state()).edges.map((e) => [e.source, e.target])).toEqual([[first, second]]);
    expect(errors).toEqual([]);
  });

  it('nudges a block dropped from the palette onto another block to the nearest free spot', async () => {
    const { page, errors, state, starter } = await openNewWorkflow<ServerState>(chromium(), 'Drop nudger');
    const palette = page.getByRole('complementary', { name: 'Block palette' });
    await palette.getByRole('button', { name: 'Add Function', exact: true }).dragTo(node(page, starter));
    await expect.poll(async () => Object.values((await state()).blocks).filter((b) => b.type === 'function').length).toBe(1);
    const now = await state();
    const added = Object.values(now.blocks).find((b) => b.type === 'function')?.id ?? '';
    expect(Object.values(now.blocks).find((b) => b.id === added)?.data.parentId).toBeUndefined();
    expect(overlapping(Object.values(now.blocks))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
