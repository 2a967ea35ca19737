/**
 * The copilot panel's chat history in Chromium, against the stack's model fake: a chat survives a reload
 * (answers, tool lines, the edit's checkpoint to revert to), continues with its history sent to the model,
 * "New chat" starts an empty one, and the history menu reopens the first.
 */
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { AGENT_AND_SLACK_YAML, uniqueSuffix } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import { openNewWorkflow } from './support/workflows.js';
import { modelChats, scriptModel } from './support/modelScripts.js';

/** The messages of the model requests whose conversation carries `marker`, in the order the fake received them. */
async function requestsWith(marker: string): Promise<Array<Array<{ role: string; content: unknown }>>> {
  const sent = await modelChats<{ body: { messages?: Array<{ role: string; content: unknown }> } }>();
  return sent.map((c) => c.body.messages ?? []).filter((m) => JSON.stringify(m).includes(marker));
}

describe('the copilot’s chat history in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('a reload keeps the chat, which goes on with its history; New chat empties the panel; the history menu reopens the first chat', async () => {
    const { page, errors, call, workflowId } = await openNewWorkflow(chromium(), 'Copilot history user');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-history-e2e' } })).status).toBe(200);
    const marker = `[hist-${uniqueSuffix()}]`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer posts to Slack' } }] },
      { content: 'I added a **Writer** agent that posts to Slack.' },
      { content: 'It already posts to the Slack channel.' },
    ]);
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    const first = `Add a writer ${marker}`;
    await box.fill(first);
    await box.press('Enter');
    await panel.locator('.copilot-assistant strong').getByText('Writer', { exact: true }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });

    // Reloaded: the stored chat is back as it was shown live.
    await page.reload();
    await panel.locator('.copilot-assistant strong').getByText('Writer', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await panel.locator('.copilot-user').allTextContents()).toEqual([first]);
    expect(await panel.locator('.copilot-assistant').allTextContents()).toEqual(['I added a Writer agent that posts to Slack.']);
    expect(await panel.locator('.tool-name').allTextContents()).toEqual(['Building your workflow']);
    expect(await panel.locator('.tool-label').allTextContents()).toEqual(['done']);
    const revert = panel.getByRole('button', { name: 'Revert to before this edit' });
    expect(await revert.count()).toBe(1);

    // Continued: the same chat, and the model reads the earlier turn.
    await box.fill('Does it post to Slack?');
    await box.press('Enter');
    await panel.getByText('It already posts to the Slack channel.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    const last = (await requestsWith(marker)).at(-1) ?? [];
    expect(last.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([first, 'Does it post to Slack?']);
    expect(last.some((m) => m.role === 'assistant' && m.content === 'I added a **Writer** agent that posts to Slack.')).toBe(true);
    expect(last.some((m) => m.role === 'tool')).toBe(true);
    const chats = await call<{ chats: Array<{ id: string; title: string }> }>('GET', `/api/copilot/chats?workflowId=${workflowId}`);
    expect(chats.body.chats.map((c) => c.title)).toEqual([first]);
    await revert.click();
    await panel.getByRole('button', { name: 'Reverted' }).waitFor();

    // A new chat starts empty, and is its own chat.
    await panel.getByRole('button', { name: 'New chat' }).click();
    await panel.getByRole('list', { name: 'Suggestions' }).waitFor();
    expect(await panel.locator('.copilot-user').count()).toBe(0);
    const other = `[hist2-${uniqueSuffix()}]`;
    await scriptModel(other, [{ content: 'A fresh start.' }]);
    await box.fill(`Hello again ${other}`);
    await box.press('Enter');
    await panel.getByText('A fresh start.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    expect((await requestsWith(other)).at(-1)?.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([`Hello again ${other}`]);

    // A reload opens the latest chat; the history menu lists both, newest first, and reopens the first.
    await page.reload();
    await panel.getByText('A fresh start.').waitFor({ timeout: 15_000 });
    await panel.getByRole('button', { name: 'Chat history' }).click();
    const menu = page.getByRole('menu', { name: 'Chat history' });
    const entries = menu.getByRole('menuitem');
    await entries.first().waitFor();
    expect(await menu.locator('.copilot-history-title').allTextContents()).toEqual([`Hello again ${other}`, first]);
    expect(await menu.locator('.copilot-history-time').first().textContent()).toMatch(/^(just now|\dm ago)$/);
    await entries.filter({ hasText: first }).click();
    await panel.getByText('It already posts to the Slack channel.').waitFor({ timeout: 15_000 });
    expect(await panel.locator('.copilot-user').allTextContents()).toEqual([first, 'Does it post to Slack?']);
    expect(await panel.getByText('A fresh start.').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a message sent while the latest chat still loads waits, then continues that chat', async () => {
    const { page, call, workflowId } = await openNewWorkflow(chromium(), 'Copilot history early');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-history-e2e' } })).status).toBe(200);
    const marker = `[hist-early-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ content: 'First answer.' }, { content: 'Second answer.' }]);
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    await box.fill(`Start ${marker}`);
    await box.press('Enter');
    await panel.getByText('First answer.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });

    // The chat's messages are held back until the next message is sent.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/copilot/chats/*', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await panel.getByRole('status').getByText('Loading the chat…').waitFor({ timeout: 15_000 });
    await box.fill('Go on');
    await box.press('Enter');
    expect(await panel.locator('.copilot-user').count()).toBe(0);
    release();
    await panel.getByText('Second answer.').waitFor({ timeout: 30_000 });
    expect(await panel.locator('.copilot-user').allTextContents()).toEqual([`Start ${marker}`, 'Go on']);
    const chats = await call<{ chats: unknown[] }>('GET', `/api/copilot/chats?workflowId=${workflowId}`);
    expect(chats.body.chats).toHaveLength(1);
  });

  it('a proposed edit comes back pending after a reload, and accepted once accepted', async () => {
    const { page, call } = await openNewWorkflow(chromium(), 'Copilot history proposal');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-history-e2e' } })).status).toBe(200);
    const marker = `[hist-prop-${uniqueSuffix()}]`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer posts to Slack' } }] },
      { content: 'Here is the change to review.' },
    ]);
    const panel = page.getByRole('region', { name: 'Copilot' });
    await panel.getByLabel('Show edits as a diff first').check();
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    await box.fill(`Propose a writer ${marker}`);
    await box.press('Enter');
    await panel.getByText('Here is the change to review.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });

    await page.reload();
    const card = panel.locator('li.copilot-proposal');
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByRole('list', { name: 'Proposed changes' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('Accepted', { exact: true }).waitFor();
    await page.reload();
    await panel.locator('li.copilot-proposal').getByText('Accepted', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await panel.locator('li.copilot-proposal').getByRole('button', { name: 'Accept' }).count()).toBe(0);
    // The accepted proposal's own checkpoint is no card of its own, as live.
    expect(await panel.getByRole('button', { name: 'Revert to before this edit' }).count()).toBe(0);
  });

  it('a failed turn shows its error after a reload as it did live', async () => {
    const { page, call } = await openNewWorkflow(chromium(), 'Copilot history error');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-history-e2e' } })).status).toBe(200);
    const marker = `[hist-err-${uniqueSuffix()}]`;
    await scriptModel(marker, [{ error: { status: 401, message: 'Incorrect API key provided' } }]);
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    await box.fill(`Hello ${marker}`);
    await box.press('Enter');
    const alert = panel.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    const live = await alert.textContent();
    expect(live).toContain('Incorrect API key provided');
    await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await panel.getByRole('alert').waitFor({ timeout: 15_000 });
    expect(await panel.getByRole('alert').allTextContents()).toEqual([live]);
    expect(await panel.locator('.copilot-assistant').count()).toBe(0);
  });

  it('a chat list the server refuses is a toast, and the panel stays usable', async () => {
    const { page } = await openNewWorkflow(chromium(), 'Copilot history failure');
    await page.route('**/api/copilot/chats?*', (route: Route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'The copilot service is unavailable' }) }));
    await page.reload();
    await page.getByTestId('toast').getByText("Failed to load the copilot's chats: The copilot service is unavailable").waitFor({ timeout: 15_000 });
    const panel = page.getByRole('region', { name: 'Copilot' });
    await panel.getByRole('list', { name: 'Suggestions' }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Ask the copilot' }).isEditable()).toBe(true);
  });
});
