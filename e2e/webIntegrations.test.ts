import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette } from './support/editing.js';
import { as, signUp } from './support/session.js';
import { openNewWorkflow } from './support/workflows.js';

describe('connecting accounts and uploading files in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('sets up a Slack webhook block from its form (path saved on open, pasted signing secret, answer mode); a signed call runs the deployed workflow; a second webhook block gets a path of its own and the deploy dialog lists both', async () => {
    const { page, errors, call, stored, workflowId } = await openNewWorkflow(chromium(), 'Webhook user');
    const hook = await addFromPalette(page, 'Webhook', 'webhook');
    await page.locator(`.react-flow__node[data-id="${hook}"]`).click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block' });
    await panel.getByRole('combobox', { name: 'Webhook Provider' }).selectOption('slack');
    // The path is the workflow id until changed, saved as the form opens: the shown URL is the one deployed.
    await expect.poll(async () => ((await stored(hook, 'webhookConfig')) as { path?: string } | undefined)?.path).toBe(workflowId);
    const config = panel.getByRole('group', { name: 'Webhook Configuration' });
    expect(await config.getByRole('textbox', { name: 'Webhook URL' }).inputValue()).toContain(`/api/webhooks/trigger/${workflowId}`);
    // Slack issues its signing secret: it is pasted, not generated.
    expect(await config.getByRole('button', { name: 'Generate secret' }).count()).toBe(0);
    const secret = config.getByRole('textbox', { name: 'Webhook secret', exact: true });
    await secret.fill('slack-signing-secret');
    await secret.press('Enter');
    await config.getByRole('combobox', { name: 'Webhook answer' }).selectOption('response');
    await expect.poll(async () => stored(hook, 'webhookConfig')).toMatchObject({ path: workflowId, secret: 'slack-signing-secret', responseMode: 'response' });

    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    const url = `${inject('weftUrl')}/api/webhooks/trigger/${workflowId}`;
    const raw = JSON.stringify({ type: 'event_callback', event_id: `Ev${Date.now()}`, event: { type: 'message', text: 'hi' } });
    const ts = Math.floor(Date.now() / 1000);
    const signed = (secret: string) => ({ 'content-type': 'application/json', 'x-slack-request-timestamp': String(ts), 'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${raw}`).digest('hex')}` });
    expect((await fetch(url, { method: 'POST', headers: signed('another-secret'), body: raw })).status).toBe(401);
    expect((await fetch(url, { method: 'POST', headers: signed('slack-signing-secret'), body: raw })).status).toBe(200);
    await expect.poll(async () => (await call<{ executions: unknown[] }>('GET', `/api/workflows/${workflowId}/executions?trigger=webhook`)).body.executions.length).toBe(1);

    // WhatsApp asks for the verify token Meta's verification call carries.
    await panel.getByRole('combobox', { name: 'Webhook Provider' }).selectOption('whatsapp');
    const verify = config.getByRole('textbox', { name: 'Webhook verify token', exact: true });
    await verify.fill('meta-verify');
    await verify.press('Enter');
    await expect.poll(async () => stored(hook, 'webhookConfig')).toMatchObject({ verifyToken: 'meta-verify' });

    // A second webhook block takes a path of its own (the first has the workflow id), so the workflow
    // still deploys; the deploy dialog lists both webhooks' URLs.
    const second = await addFromPalette(page, 'Webhook', 'webhook');
    await page.locator(`.react-flow__node[data-id="${second}"]`).click({ position: { x: 8, y: 8 } });
    await expect.poll(async () => ((await stored(second, 'webhookConfig')) as { path?: string } | undefined)?.path).toBe(`${workflowId}-${second}`);
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const urls = page.getByRole('dialog', { name: 'Deploy' }).getByRole('textbox', { name: 'Webhook URL' });
    await expect.poll(async () => (await Promise.all((await urls.all()).map((u) => u.inputValue()))).map((u) => u.split('/trigger/')[1])).toEqual([
      workflowId,
      encodeURIComponent(`${workflowId}-${second}`),
    ]);
    expect(errors).toEqual([]);
  });

  it('connects a Slack account from the block form through the provider’s consent page and picks it; the Connections page lists it and disconnects it (its owner only)', async () => {
    const { page, errors, call, stored } = await openNewWorkflow(chromium(), 'OAuth user');
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
    const credentials = async () => (await call<{ credentials: Array<{ id: string; providerId: string }> }>('GET', '/api/auth/oauth/credentials')).body.credentials;
    await expect.poll(async () => (await credentials()).map((c) => c.providerId)).toEqual(['slack']);
    const [credential] = await credentials();

    // Back on the app (its window gets the focus again), the account is offered and chosen.
    await page.bringToFront();
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect.poll(() => account.locator('option').count()).toBe(2);
    await account.selectOption(credential?.id ?? '');
    await expect.poll(() => stored(slack, 'credential')).toBe(credential?.id);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-oauth-field.png') });

    // The Connections page lists it under the provider's name, with when it was connected and its scopes.
    await page.goto(new URL('/settings/connections', page.url()).toString());
    const connected = page.getByRole('list', { name: 'Connected accounts' });
    const row = connected.getByRole('listitem').filter({ hasText: 'Slack' });
    await row.getByText(`id ${credential?.id.slice(0, 8)}`, { exact: false }).waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toMatch(/Connected \w{3} \d{1,2}, \d{4}/);

    // Someone else cannot disconnect it: their DELETE answers 404, as for an id that does not exist.
    const stranger = as(await signUp('OAuth stranger'));
    expect((await stranger('DELETE', `/api/auth/oauth/credentials/${credential?.id}`)).status).toBe(404);
    expect((await credentials()).length).toBe(1);

    // Its owner disconnects it after the confirm dialog; the list says none is connected.
    await row.getByRole('button', { name: `Disconnect Slack ${credential?.id.slice(0, 8)}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Disconnect Slack?' });
    await dialog.waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-oauth-disconnect.png'), animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(credentials).toEqual([]);
    await connected.getByText('No accounts connected yet.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Slack account disconnected' }).waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-oauth-connections.png') });
    expect((await call('POST', '/api/auth/oauth/token', { credentialId: credential?.id })).status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('uploads files into a File block, refuses one over the limit with a toast, and removes one', async () => {
    const { page, errors, stored } = await openNewWorkflow(chromium(), 'Upload user');
    const file = await addFromPalette(page, 'File', 'file');
    await page.locator(`.react-flow__node[data-id="${file}"]`).click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block' });
    const input = panel.locator('input[type="file"][aria-label="Upload Files file"]');

    const csv = 'name,team\nAda,core\nGrace,tools\n';
    await input.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => stored(file, 'file')).toEqual([{ name: 'people.csv', type: 'text/csv', size: csv.length, url: `data:text/csv;base64,${Buffer.from(csv).toString('base64')}` }]);
    await panel.getByText('people.csv').waitFor();

    // 1 MB is the most a block keeps inline: a bigger file is refused by name, the others stay.
    await input.setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(1024 * 1024 + 4096, 'a') });
    await page.getByRole('alert').filter({ hasText: 'huge.csv is larger than 1024 KB' }).waitFor();
    await input.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 tiny') });
    await expect.poll(async () => ((await stored(file, 'file')) as Array<{ name: string }>).map((f) => f.name)).toEqual(['people.csv', 'notes.pdf']);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-file-upload.png') });

    await panel.getByRole('button', { name: 'Remove people.csv' }).click();
    await expect.poll(async () => ((await stored(file, 'file')) as Array<{ name: string }>).map((f) => f.name)).toEqual(['notes.pdf']);
    expect(errors).toEqual([]);
  });
});
