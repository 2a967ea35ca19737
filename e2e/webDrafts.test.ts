import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, fitView } from './support/editing.js';
import { newWorkflow, type NewWorkflow } from './support/workflows.js';

const codeEditor = (page: Page) => page.getByRole('region', { name: 'Block', exact: true }).locator('.cm-content[aria-label="Code"]');

const POLL = { timeout: 15_000 };

describe('text typed in a field and not left (web/src/panels/drafts.ts)', () => {
  const chromium = chromiumPerSuite();

  /** Opens `wf` with a Function block added and its Code editor focused. */
  async function inCode(wf: NewWorkflow) {
    const { page, errors } = await wf.open(chromium());
    const fn = await addFromPalette(page, 'Function', 'function');
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${fn}"]`).click();
    await codeEditor(page).click();
    return { page, errors, fn };
  }

  it('is sent after a pause in typing, the pill going from unsaved to saved, the caret still in the editor', async () => {
    const wf = await newWorkflow('Draft pause');
    const { page, errors, fn } = await inCode(wf);
    await page.keyboard.type('return 1;');
    await expect.poll(() => wf.stored(fn, 'code'), POLL).toBe('return 1;');
    await page.getByText('saved', { exact: true }).waitFor(POLL);
    // Still in the editor: typing on goes on from the caret, and is sent after its own pause.
    expect(await page.locator('.cm-content[aria-label="Code"]:focus').count()).toBe(1);
    await page.keyboard.type(' // more');
    await expect.poll(() => wf.stored(fn, 'code'), POLL).toBe('return 1; // more');
    expect(errors).toEqual([]);
  });

  it('says unsaved while the field holds it', async () => {
    const wf = await newWorkflow('Draft unsaved');
    const { page, errors, fn } = await inCode(wf);
    // Typed slowly enough to see the pill between keys, fast enough not to pause.
    await page.keyboard.type('return 2;', { delay: 50 });
    await page.getByText('unsaved', { exact: true }).waitFor(POLL);
    await page.getByText('saved', { exact: true }).waitFor(POLL);
    expect(await wf.stored(fn, 'code')).toBe('return 2;');
    expect(errors).toEqual([]);
  });

  it('is kept through a reload straight after typing, with no prompt', async () => {
    const wf = await newWorkflow('Draft reload');
    const { page, errors, fn } = await inCode(wf);
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.type());
      void dialog.accept();
    });
    await page.keyboard.type('return 3;');
    await page.reload();
    await expect.poll(() => wf.stored(fn, 'code'), POLL).toBe('return 3;');
    expect(prompts).toEqual([]);
    await page.locator(`.react-flow__node[data-id="${fn}"]`).click();
    await expect.poll(() => codeEditor(page).textContent(), POLL).toBe('return 3;');
    expect(errors).toEqual([]);
  });
});
