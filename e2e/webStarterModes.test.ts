import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { fitView } from './support/editing.js';
import { webhookPathField } from './support/webhookPath.js';
import { newWorkflow } from './support/workflows.js';
import { consoleOf, runStatus } from './support/runConsole.js';

/** A new workflow whose starter is in chat mode, with one block after it (and `more` commands). */
async function chatWorkflow(name: string, block: { id: string; blockType: string; name: string }, more: Array<Record<string, unknown>> = []) {
  const wf = await newWorkflow(name);
  const commands = [
    { type: 'setSubBlockValue', id: wf.starter, subBlockId: 'startWorkflow', value: 'chat' },
    { type: 'addBlock', ...block, position: { x: 400, y: 0 } },
    { type: 'addEdge', id: 'e1', source: wf.starter, target: block.id },
    ...more,
  ];
  expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands })).status).toBe(200);
  return wf;
}

describe('the starter’s modes in the web app', () => {
  const chromium = chromiumPerSuite();

  it('in webhook mode shows the URL of its path with copy buttons, and generates, shows and copies its secret', async () => {
    const wf = await newWorkflow('Starter webhook');
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: wf.starter, subBlockId: 'startWorkflow', value: 'webhook' }] })).status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    const origin = new URL(page.url()).origin;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${wf.starter}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });

    // The path, as stored (a string under webhookPath), and the URL it is called at once it has one.
    const pathGroup = panel.getByRole('group', { name: 'Webhook Path' });
    await pathGroup.getByText('The URL shows once the path is set.').waitFor();
    await pathGroup.getByRole('textbox', { name: 'Webhook path' }).fill('orders/new');
    await pathGroup.getByRole('textbox', { name: 'Webhook path' }).press('Enter');
    await expect.poll(() => wf.stored(wf.starter, 'webhookPath')).toBe('orders/new');
    const url = `${origin}/api/webhooks/trigger/orders/new`;
    expect(await pathGroup.getByRole('textbox', { name: 'Webhook URL' }).inputValue()).toBe(url);
    await pathGroup.getByRole('button', { name: 'Copy webhook URL' }).click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(url);

    // A path the deploy refuses shows why instead of a URL: clients send `orders/../new` as `new`.
    const pathField = webhookPathField(pathGroup);
    await pathField.enter('orders/../new');
    await expect.poll(() => wf.stored(wf.starter, 'webhookPath')).toBe('orders/../new');
    await pathField.refused('Webhook Path "orders/../new" cannot have a ".." segment: browsers and HTTP clients remove "." and ".." from a URL, so calls would not reach it');
    // A valid path again: its URL is back, the error gone.
    await pathField.enter('/orders/new/');
    await pathField.shows(url);

    // The secret: masked, generated (a string under webhookSecret), shown on request, copied.
    const secretGroup = panel.getByRole('group', { name: 'Webhook Secret' });
    const secretBox = secretGroup.getByLabel('Webhook secret', { exact: true });
    expect(await secretBox.getAttribute('type')).toBe('password');
    await secretGroup.getByRole('button', { name: 'Generate secret' }).click();
    await expect.poll(async () => String(await wf.stored(wf.starter, 'webhookSecret') ?? '').length).toBeGreaterThanOrEqual(32);
    const secret = String(await wf.stored(wf.starter, 'webhookSecret'));
    await expect.poll(() => secretBox.inputValue()).toBe(secret);
    await secretGroup.getByRole('button', { name: 'Show webhook secret' }).click();
    expect(await secretBox.getAttribute('type')).toBe('text');
    await secretGroup.getByRole('button', { name: 'Copy webhook secret' }).click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await secretGroup.getByRole('button', { name: 'Regenerate secret' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('in chat mode asks for the chat message on Run and runs with it as a chat sends it ({input: message}), read as <start.input>', async () => {
    const wf = await chatWorkflow('Starter chat', { id: 'echo', blockType: 'function', name: 'Echo' }, [{ type: 'setSubBlockValue', id: 'echo', subBlockId: 'code', value: "return 'heard: ' + <start.input>" }]);
    const { page, errors } = await wf.open(chromium());

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run input' });
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Type the chat message to run with' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Chat message' }).fill('hello there');
    await dialog.getByRole('textbox', { name: 'Chat message' }).press('Enter');
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    await consoleOf(page).getByRole('group', { name: 'Workflow output' }).getByText('heard: hello there').waitFor();
    expect(errors).toEqual([]);
  });

  it('in chat mode offers <start.conversationId> beside <start.input> in a field\'s < menu, and no longer once the starter runs manually', async () => {
    const wf = await chatWorkflow('Starter chat references', { id: 'writer', blockType: 'agent', name: 'Writer' });
    const { page, errors } = await wf.open(chromium());
    await fitView(page);
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    const outputs = panel.getByRole('listbox', { name: 'Block outputs' });
    const starterOptions = () => outputs.getByRole('option').locator('.tok-ref').allTextContents();

    await page.locator('.react-flow__node[data-id="writer"]').click();
    const prompt = panel.getByRole('textbox', { name: 'System Prompt', exact: true });
    await prompt.click();
    await prompt.pressSequentially('Conversation <start.');
    await expect.poll(starterOptions).toEqual(['<start.input>', '<start.conversationId>']);
    await prompt.pressSequentially('conv');
    await prompt.press('Enter');
    expect(await prompt.inputValue()).toBe('Conversation <start.conversationId>');
    await prompt.blur();
    await expect.poll(() => wf.stored('writer', 'systemPrompt')).toBe('Conversation <start.conversationId>');

    // Run manually, the starter gives {input} alone: the menu offers no conversation id.
    await page.locator(`.react-flow__node[data-id="${wf.starter}"]`).click();
    await panel.getByRole('combobox', { name: 'Start Workflow', exact: true }).selectOption('manual');
    await expect.poll(() => wf.stored(wf.starter, 'startWorkflow')).toBe('manual');
    await page.locator('.react-flow__node[data-id="writer"]').click();
    await prompt.click();
    await prompt.press('End');
    await prompt.pressSequentially(' <start.');
    await expect.poll(starterOptions).toEqual(['<start.input>']);
    expect(errors).toEqual([]);
  });
});
