import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import type { WorkflowAnswer } from './support/canvas.js';
import { addAgent, converged, drag, openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';

/** The history entry a page marks as the present one. */
const present = (page: Page) => page.getByRole('region', { name: 'History' }).locator('[aria-current="step"]');

describe('the history and variables panels', () => {
  const chromium = chromiumPerSuite();

  async function newWorkflow(name: string) {
    const owner = await signUp(name);
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const read = async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
    return { asOwner, workflowId, read, cookie: owner.headers.cookie ?? '' };
  }

  it('reverts the workflow to a history entry and follows undo and redo, on another page too', async () => {
    const { workflowId, read, cookie } = await newWorkflow('Historian');
    const [{ page, errors }, other] = await Promise.all([openWorkflow(chromium(), cookie, workflowId), openWorkflow(chromium(), cookie, workflowId)]);

    const blockId = await addAgent(page);
    const placed = (await converged([page], read)).state.blocks[blockId]?.position;
    await drag(page, page.locator(`.react-flow__node[data-id="${blockId}"]`), { x: 160, y: 60 });
    await expect.poll(() => present(page).textContent()).toMatch(/^Move block/);
    const moved = (await converged([page], read)).state.blocks[blockId]?.position;
    expect(moved).not.toEqual(placed);

    // Back to the entry that added the block: the canvas and the server show it where it was placed.
    await page.getByRole('region', { name: 'History' }).getByRole('button', { name: /^Add agent block/ }).click();
    await expect.poll(() => present(page).textContent()).toMatch(/^Add agent block/);
    expect((await converged([page, other.page], read)).state.blocks[blockId]?.position).toEqual(placed);
    await expect.poll(() => present(other.page).textContent()).toMatch(/^Add agent block/);
    const history = page.getByRole('region', { name: 'History' }).getByRole('listitem');
    expect((await history.allTextContents()).map((t) => t.replace(/\d.*$/, ''))).toEqual(['Initial state', 'Add agent block', 'Move block']);

    // Redo from the toolbar: the panel marks the move again.
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => present(page).textContent()).toMatch(/^Move block/);
    expect((await converged([page, other.page], read)).state.blocks[blockId]?.position).toEqual(moved);
    await expect.poll(() => present(other.page).textContent()).toMatch(/^Move block/);
    expect([...errors, ...other.errors]).toEqual([]);
  });

  it('adds, validates, renames, duplicates and deletes variables live on two pages', async () => {
    const { asOwner, workflowId, cookie } = await newWorkflow('Variable keeper');
    const [a, b] = await Promise.all([openWorkflow(chromium(), cookie, workflowId), openWorkflow(chromium(), cookie, workflowId)]);
    const stored = async () => {
      const { body } = await asOwner<{ data: Record<string, { name: string; type: string; value: unknown; validationError?: string }> }>('GET', `/api/workflows/${workflowId}/variables`);
      return Object.values(body.data).map(({ name, type, value, validationError }) => ({ name, type, value, validationError }));
    };

    // An empty name becomes variable1; 'abc' is not a number.
    const panelA = a.page.getByRole('region', { name: 'Variables' });
    await panelA.getByRole('combobox', { name: 'New variable type' }).selectOption('number');
    await panelA.getByRole('textbox', { name: 'New variable value' }).fill('abc');
    await panelA.getByRole('button', { name: 'Add variable' }).click();
    await panelA.getByText('Not a valid number', { exact: true }).waitFor();
    expect(await panelA.getByRole('textbox', { name: 'Name of variable1', exact: true }).inputValue()).toBe('variable1');
    await expect.poll(stored, { timeout: 10_000 }).toEqual([{ name: 'variable1', type: 'number', value: 'abc', validationError: 'Not a valid number' }]);

    // A renames it; B sees the new name live, with the message.
    const name = panelA.getByRole('textbox', { name: 'Name of variable1', exact: true });
    await name.fill('count');
    await name.press('Enter');
    const panelB = b.page.getByRole('region', { name: 'Variables' });
    await expect.poll(() => panelB.getByRole('textbox', { name: 'Name of count', exact: true }).inputValue(), { timeout: 10_000 }).toBe('count');
    await panelB.getByText('Not a valid number', { exact: true }).waitFor();

    // B duplicates it and A deletes the copy; a valid value clears the message.
    await panelB.getByRole('button', { name: 'Duplicate count', exact: true }).click();
    await panelA.getByRole('button', { name: 'Delete count (copy)', exact: true }).click();
    const value = panelA.getByRole('textbox', { name: 'Value of count', exact: true });
    await value.fill('42');
    await value.press('Enter');
    await expect.poll(stored, { timeout: 10_000 }).toEqual([{ name: 'count', type: 'number', value: '42', validationError: undefined }]);
    // B learns of the delete and of the new value from two events: wait for both, in either order.
    await expect.poll(() => panelB.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => panelB.getByRole('textbox', { name: 'Value of count', exact: true }).inputValue(), { timeout: 10_000 }).toBe('42');
    await expect.poll(() => panelB.getByText('Not a valid number').count(), { timeout: 10_000 }).toBe(0);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
