import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { as, signUp } from './support/session.js';

interface ServerState {
  blocks: Record<string, { id: string; type: string; position: { x: number; y: number } }>;
  edges: Array<{ id: string }>;
}

/** Over the editor's large-canvas threshold (300 blocks): React Flow is given only the blocks near the view. */
const BLOCKS = 400;
const COLUMNS = 20;
const at = (i: number) => ({ x: (i % COLUMNS) * 300, y: Math.floor(i / COLUMNS) * 160 });
/** The minimap's size and padding (web/src/canvas/MiniMap.tsx). */
const MINIMAP = { width: 160, height: 110, pad: 8 };

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);

describe('a large canvas in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('shows a block far from the first view once the minimap moves the view there, and select all deletes every block in one undo step', async () => {
    const owner = await signUp('Large canvas user');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const state = async () => (await asOwner<{ data: { state: ServerState } }>('GET', `/api/workflows/${workflowId}`)).body.data.state;
    // A grid of function blocks, each connected to the one before.
    for (let start = 0; start < BLOCKS; start += 100) {
      const commands: unknown[] = [];
      for (let i = start; i < Math.min(start + 100, BLOCKS); i++) {
        commands.push({ type: 'addBlock', id: `g${i}`, blockType: 'function', name: `Step ${i}`, position: at(i) });
        if (i > 0) commands.push({ type: 'addEdge', id: `e${i}`, source: `g${i - 1}`, target: `g${i}` });
      }
      expect((await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands })).status).toBeLessThan(300);
    }
    const server = await state();
    expect(Object.keys(server.blocks)).toHaveLength(BLOCKS + 1);

    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', `/?workflow=${workflowId}`);
    await page.getByText('live', { exact: true }).waitFor();
    await page.locator('.react-flow__node').first().waitFor();
    // The first fit never zooms out below half size, so the grid's bottom-left corner is out of view.
    const far = `g${BLOCKS - COLUMNS}`;
    await expect.poll(() => node(page, far).count()).toBe(0);

    // Click the far block's place on the minimap, which fits every block (not only those React Flow has).
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const b of Object.values(server.blocks)) {
      [minX, minY] = [Math.min(minX, b.position.x), Math.min(minY, b.position.y)];
      [maxX, maxY] = [Math.max(maxX, b.position.x + 240), Math.max(maxY, b.position.y + 60)];
    }
    const inner = { width: MINIMAP.width - 2 * MINIMAP.pad, height: MINIMAP.height - 2 * MINIMAP.pad };
    const scale = Math.min(inner.width / (maxX - minX), inner.height / (maxY - minY));
    const left = MINIMAP.pad - minX * scale + (inner.width - (maxX - minX) * scale) / 2;
    const top = MINIMAP.pad - minY * scale + (inner.height - (maxY - minY) * scale) / 2;
    const target = { x: at(BLOCKS - COLUMNS).x + 120, y: at(BLOCKS - COLUMNS).y + 30 };
    await page.getByRole('img', { name: 'Minimap' }).click({ position: { x: left + target.x * scale, y: top + target.y * scale } });
    await expect.poll(() => node(page, far).isVisible()).toBe(true);
    // Its edge to the block before it (in view too) is drawn.
    await expect.poll(() => page.locator(`.react-flow__edge[aria-label="Connection from Step ${BLOCKS - COLUMNS - 1} to Step ${BLOCKS - COLUMNS}"]`).count()).toBe(1);

    // Select all selects every block, drawn or not; Delete removes them all.
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+a');
    await expect.poll(() => page.getByRole('region', { name: 'Selection' }).getByRole('heading').textContent()).toBe(`${BLOCKS + 1} blocks selected`);
    await page.keyboard.press('Delete');
    await expect.poll(async () => {
      const now = await state();
      return { blocks: Object.keys(now.blocks).length, edges: now.edges.length };
    }, { timeout: 30_000 }).toEqual({ blocks: 0, edges: 0 });
    // It was one undo step, though history keeps 20: one Ctrl+Z brings every block and edge back (issue 14).
    await page.keyboard.press('Control+z');
    await expect.poll(async () => {
      const now = await state();
      return { blocks: Object.keys(now.blocks).length, edges: now.edges.length };
    }, { timeout: 30_000 }).toEqual({ blocks: BLOCKS + 1, edges: server.edges.length });
    expect(errors).toEqual([]);
  });
});
