import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette, openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';

interface ServerState {
  blocks: Record<string, { subBlocks: Record<string, { value: unknown }> }>;
}

describe('connecting accounts and uploading files in Chromium', () => {
  const chromium = chromiumPerSuite();

  async function newWorkflow(name: string) {
    const owner = await signUp(name);
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const value = async (blockId: string, subBlockId: string) =>
      (await asOwner<{ data: { state: ServerState } }>('GET', `/api/workflows/${workflowId}`)).body.data.state.blocks[blockId]?.subBlocks[subBlockId]?.value;
    const opened = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    return { ...opened, asOwner, value };
  }

  it('connects a Slack account from the block form through the provider’s consent page and picks it', async () => {
    const { page, errors, asOwner, value } = await newWorkflow('OAuth user');
    const slack = await addFromPalette(page, 'Slack', 'slack');
    await page.locator(`.react-flow__node[data-id="${slack}"]`).click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block' });
    const account = panel.getByLabel('Slack Account');
    await expect.poll(() => account.locator('option').allTextContents()).toEqual(['No Slack account connected']);

    // The consent page opens in a popup; the (fake) provider sends the user straight back with a code.
    const [popup] = await Promise.all([page.waitForEvent('popup'), panel.getByRole('button', { name: 'Connect Slack' }).click()]);
    await popup.waitForURL(/\/api\/auth\/oauth\/callback\?/, { timeout: 15_000 });
    await expect.poll(() => popup.textContent('body')).toContain('"credential"');
    await popup.close();
    const credentials = async () => (await asOwner<{ credentials: Array<{ id: string; providerId: string }> }>('GET', '/api/auth/oauth/credentials')).body.credentials;
    await expect.poll(async () => (await credentials()).map((c) => c.providerId)).toEqual(['slack']);
    const [credential] = await credentials();

    // Back on the app (its window gets the focus again), the account is offered and chosen.
    await page.bringToFront();
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect.poll(() => account.locator('option').count()).toBe(2);
    await account.selectOption(credential?.id ?? '');
    await expect.poll(() => value(slack, 'credential')).toBe(credential?.id);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-oauth-field.png') });

    // The Connections page lists it too.
    await page.goto(new URL('/settings/connections', page.url()).toString());
    await page.getByRole('list', { name: 'Connected accounts' }).getByText(credential?.id ?? '').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  });

  it('uploads files into a File block, refuses one over the limit with a toast, and removes one', async () => {
    const { page, errors, value } = await newWorkflow('Upload user');
    const file = await addFromPalette(page, 'File', 'file');
    await page.locator(`.react-flow__node[data-id="${file}"]`).click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block' });
    const input = panel.locator('input[type="file"][aria-label="Upload Files file"]');

    const csv = 'name,team\nAda,core\nGrace,tools\n';
    await input.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => value(file, 'file')).toEqual([{ name: 'people.csv', type: 'text/csv', size: csv.length, url: `data:text/csv;base64,${Buffer.from(csv).toString('base64')}` }]);
    await panel.getByText('people.csv').waitFor();

    // 1 MB is the most a block keeps inline: a bigger file is refused by name, the others stay.
    await input.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(1024 * 1024 + 4096, 'a') });
    await page.getByRole('alert').filter({ hasText: 'huge.csv is larger than 1024 KB' }).waitFor();
    await input.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 tiny') });
    await expect.poll(async () => ((await value(file, 'file')) as Array<{ name: string }>).map((f) => f.name)).toEqual(['people.csv', 'notes.pdf']);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-file-upload.png') });

    await panel.getByRole('button', { name: 'Remove people.csv' }).click();
    await expect.poll(async () => ((await value(file, 'file')) as Array<{ name: string }>).map((f) => f.name)).toEqual(['notes.pdf']);
    expect(errors).toEqual([]);
  });
});
