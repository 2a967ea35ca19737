import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, fitView, sendOnlyOnLeave } from './support/editing.js';
import { newWorkflow } from './support/workflows.js';

const POLL = { timeout: 10_000 };

describe('a code field left by a click on another block', () => {
  const chromium = chromiumPerSuite();

  it('sends the code typed before the click, though the click replaces the form at once (a touchpad tap)', async () => {
    const wf = await newWorkflow('Code tap');
    const { page, errors } = await wf.open(chromium());
    const fn = await addFromPalette(page, 'Function', 'function');
    const condition = await addFromPalette(page, 'Condition', 'condition');
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${fn}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    const editor = panel.locator('.cm-content[aria-label="Code"]');
    await sendOnlyOnLeave(page);
    await editor.click();
    await page.keyboard.type('return 42;');
    // Nothing is sent while typing.
    expect(await wf.stored(fn, 'code')).not.toBe('return 42;');
    // Press and release on the other block with no time between them: the form is replaced by the
    // condition's before CodeMirror's own focus change (10 ms later) would have told the field.
    const box = await page.locator(`.react-flow__node[data-id="${condition}"]`).boundingBox();
    if (!box) throw new Error('the condition block is not drawn');
    await page.mouse.move(box.x + box.width / 2, box.y + 12);
    await page.mouse.down();
    await page.mouse.up();
    await panel.getByRole('heading', { name: 'Condition 1' }).waitFor();
    await expect.poll(() => wf.stored(fn, 'code'), POLL).toBe('return 42;');
    expect(errors).toEqual([]);
  });
});
