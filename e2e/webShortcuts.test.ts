import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { newWorkflow } from './support/workflows.js';
import { consoleOf, runStatus } from './support/runConsole.js';

/** Records the text each `copy` event of the page carries (what the browser puts on the clipboard). */
async function recordCopies(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate("window.weftCopies = []; document.addEventListener('copy', () => window.weftCopies.push(String(window.getSelection())))");
  return () => page.evaluate<string[]>('window.weftCopies');
}

/** The text selected in the page. */
const selectedText = (page: Page) => page.evaluate<string>('String(window.getSelection())');

describe('the canvas’s keyboard shortcuts leave text outside the canvas to the browser', () => {
  const chromium = chromiumPerSuite();

  it('copies and selects all the run console’s text natively, and the shortcuts still act on the canvas once it is pressed', async () => {
    const { call, workflowId, starter, open } = await newWorkflow('Shortcuts');
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'answer', blockType: 'function', name: 'Answer', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'answer', subBlockId: 'code', value: "return 'forty-two'" },
        { type: 'addEdge', id: 'e1', source: starter, target: 'answer' },
      ],
    });
    expect(edit.status).toBe(200);
    const { page, errors } = await open(chromium());
    const copies = await recordCopies(page);
    const blocksSelected = page.getByRole('region', { name: 'Selection' });

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    const output = consoleOf(page).getByRole('group', { name: 'Workflow output' }).getByText('forty-two');

    // Text selected in the console (a triple click) copies as text: the copy event fires with it, no blocks are copied.
    await output.click({ clickCount: 3 });
    await expect.poll(() => selectedText(page)).toContain('forty-two');
    await page.keyboard.press('Control+c');
    await expect.poll(copies).toEqual([expect.stringContaining('forty-two')]);
    expect(await page.getByTestId('toast').filter({ hasText: /^Copied/ }).count()).toBe(0);

    // Select all in the console selects its text, not the workflow's blocks.
    await output.click();
    await page.keyboard.press('Control+a');
    await expect.poll(() => selectedText(page)).toContain('forty-two');
    expect(await blocksSelected.count()).toBe(0);

    // Pressed on the canvas (which drops the text selection), Ctrl+A and Ctrl+C act on the blocks again.
    await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    expect(await selectedText(page)).toBe('');
    await page.keyboard.press('Control+a');
    await expect.poll(() => blocksSelected.getByRole('heading').textContent()).toBe('2 blocks selected');
    await page.keyboard.press('Control+c');
    await page.getByTestId('toast').filter({ hasText: 'Copied 2 blocks' }).waitFor();
    expect(errors).toEqual([]);
  });
});
