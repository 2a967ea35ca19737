/**
 * Web app leftovers in Chromium (issue 14): the minimap folds away from a short canvas (the run console
 * open) and comes back on demand; the toolbar's Paste and Duplicate have icons of their own; a reopened
 * copilot chat's revert of an earlier edit puts back the state before it; a file loaded on demand that a
 * rebuild removed, with an edit still unsaved, neither reloads the page nor takes the app down; the deploy
 * dialog shows a deployed schedule's state and pauses and resumes it; a missing model key's error says how
 * to give the block the key kept in Settings, and the failed run shows no earlier block's output as the
 * workflow's; a deployment with no schedule (`{schedules: []}`) is read as none, no error shown.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page, Route } from 'playwright-core';
import { AGENT_AND_SLACK_YAML, uniqueSuffix } from '@weft/testkit';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette } from './support/editing.js';
import { openNewWorkflow, type NewWorkflow } from './support/workflows.js';
import { showSidebar } from './support/layout.js';
import { scriptModel } from './support/modelScripts.js';
import { consoleOf, runStatus } from './support/runConsole.js';

type Box = { x: number; y: number; width: number; height: number };

/** The box of the first element a CSS selector (or a locator) finds. */
async function boxOf(page: Page, where: string | Locator): Promise<Box> {
  const box = await (typeof where === 'string' ? page.locator(where) : where).first().boundingBox();
  if (!box) throw new Error(`${String(where)} is not on screen`);
  return box;
}

const inside = (inner: Box, outer: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The canvas view's transform (React Flow's viewport), which moves when the view does. */
const viewTransform = (page: Page) => page.locator('.react-flow__viewport').getAttribute('style');

/** Puts the starter in daily schedule mode (09:00 UTC) and opens the deploy dialog: answers it and its Schedule region. */
async function scheduledInDeployDialog(page: Page, call: NewWorkflow['call'], workflowId: string, starter: string) {
  const set = (subBlockId: string, value: string) => ({ type: 'setSubBlockValue', id: starter, subBlockId, value });
  const edited = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [set('startWorkflow', 'schedule'), set('scheduleType', 'daily'), set('dailyTime', '09:00'), set('timezone', 'UTC')] });
  expect(edited.status).toBe(200);
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Deploy' });
  return { dialog, schedule: dialog.getByRole('region', { name: 'Schedule' }) };
}

describe('web app leftovers in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('the minimap folds into a button while the run console leaves the canvas short, never covers the console, and still moves the view', async () => {
    const { page, errors } = await openNewWorkflow(chromium(), 'Minimap user');
    const minimap = page.getByRole('img', { name: 'Minimap' });
    // 1280×800 with the console collapsed: the canvas is tall enough for the minimap.
    await minimap.waitFor();
    expect(await page.getByRole('button', { name: 'Show minimap' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Expand console' }).click();
    const show = page.getByRole('button', { name: 'Show minimap' });
    await show.waitFor();
    expect(await minimap.count()).toBe(0);
    const console_ = await boxOf(page, consoleOf(page));
    const folded = await boxOf(page, '.weft-minimap');
    expect(inside(folded, await boxOf(page, '.flow'))).toBe(true);
    expect(overlaps(folded, console_)).toBe(false);

    // Opened again on demand, it stays on the canvas, above the console, and moves the view where clicked.
    await show.click();
    await minimap.waitFor();
    const opened = await boxOf(page, '.weft-minimap');
    expect(inside(opened, await boxOf(page, '.flow'))).toBe(true);
    expect(overlaps(opened, console_)).toBe(false);
    const before = await viewTransform(page);
    await minimap.click({ position: { x: 12, y: 12 } });
    await expect.poll(() => viewTransform(page)).not.toBe(before);

    // Folded by hand, it stays folded when the console collapses (the user's choice wins).
    await page.getByRole('button', { name: 'Hide minimap' }).click();
    await show.waitFor();
    await page.getByRole('button', { name: 'Collapse console' }).click();
    await page.getByRole('button', { name: 'Expand console' }).waitFor();
    expect(await minimap.count()).toBe(0);
    expect(await show.count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('Paste and Duplicate have icons of their own, not the download tray or the plus of Add', async () => {
    const { page, errors } = await openNewWorkflow(chromium(), 'Toolbar icons user');
    const toolbar = page.getByRole('toolbar', { name: 'Editing tools' });
    const iconOf = (name: string) => toolbar.getByRole('button', { name, exact: true }).locator('svg path').getAttribute('d');
    const names = ['Undo', 'Redo', 'Copy', 'Paste', 'Duplicate selected', 'Delete selected', 'Auto layout', 'Fit view'];
    const icons = await Promise.all(names.map(iconOf));
    expect(new Set(icons).size).toBe(names.length);
    // The sidebar's Import YAML draws the tray the download icon shares; its New workflow draws the plus.
    await showSidebar(page);
    const sidebarIcon = (name: string) => page.getByRole('button', { name, exact: true }).locator('svg path').getAttribute('d');
    const tray = ((await sidebarIcon('Import YAML')) ?? '').split('M')[1] ?? '';
    const plus = await sidebarIcon('New workflow');
    expect(tray.length).toBeGreaterThan(5);
    expect(plus).toBeTruthy();
    const paste = icons[names.indexOf('Paste')] ?? '';
    const duplicate = icons[names.indexOf('Duplicate selected')] ?? '';
    expect(paste).not.toContain(`M${tray}`);
    expect(duplicate).not.toBe(plus);
    expect(errors).toEqual([]);
  });

  it('a reopened chat reverts an earlier edit: the workflow goes back to before it, later edits included, and the button says so', async () => {
    const { page, errors, call, state } = await openNewWorkflow<{ blocks: Record<string, { name: string }> }>(chromium(), 'Copilot revert user');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-revert-e2e' } })).status).toBe(200);
    const marker = `[revert-${uniqueSuffix()}]`;
    await scriptModel(marker, [
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML, description: 'Writer posts to Slack' } }] },
      { content: 'Added the writer.' },
      { toolCalls: [{ name: 'edit_workflow', arguments: { yamlContent: AGENT_AND_SLACK_YAML.replace('name: Writer', 'name: Reviser'), description: 'Writer renamed' } }] },
      { content: 'Renamed it.' },
    ]);
    const before = Object.values((await state()).blocks).map((b) => b.name);
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    for (const [message, answer] of [
      [`Add a writer ${marker}`, 'Added the writer.'],
      ['Rename it to Reviser', 'Renamed it.'],
    ] as const) {
      await box.fill(message);
      await box.press('Enter');
      await panel.getByText(answer).waitFor({ timeout: 30_000 });
      await panel.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    }
    await expect.poll(async () => Object.values((await state()).blocks).map((b) => b.name).sort()).toEqual(['Notify', 'Reviser', 'Start']);

    await page.reload();
    await panel.getByText('Renamed it.').waitFor({ timeout: 60_000 });
    const reverts = panel.getByRole('button', { name: 'Revert to before this edit' });
    expect(await reverts.count()).toBe(2);
    for (const title of await reverts.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('title'))))
      expect(title).toBe('Put the workflow back as it was before this edit. Changes made since then are undone too; Undo brings them back.');
    expect([await reverts.nth(0).isDisabled(), await reverts.nth(1).isDisabled()]).toEqual([false, false]);

    // The first turn's checkpoint is still there to go back to: the workflow as it was before the copilot.
    await reverts.first().click();
    await panel.getByRole('button', { name: 'Reverted' }).waitFor();
    await expect.poll(async () => Object.values((await state()).blocks).map((b) => b.name).sort()).toEqual([...before].sort());
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(before.length);
    expect(await panel.getByRole('button', { name: 'Reverted' }).getAttribute('title')).toBe('The workflow was put back as it was before this edit');
    expect(await panel.getByRole('button', { name: 'Revert to before this edit' }).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('the deploy dialog says whether a deployed schedule runs or is paused, and pauses and resumes it', async () => {
    const { page, errors, call, workflowId, starter } = await openNewWorkflow(chromium(), 'Schedule state user');
    const { dialog, schedule } = await scheduledInDeployDialog(page, call, workflowId, starter);
    await schedule.getByRole('list', { name: 'Next scheduled runs' }).waitFor();
    // Not deployed yet: no state of a schedule the runner does not have.
    expect(await schedule.getByRole('group', { name: 'Schedule state' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    const state = schedule.getByRole('group', { name: 'Schedule state' });
    await state.getByText('Active', { exact: true }).waitFor({ timeout: 30_000 });
    await state.getByText('not run yet').waitFor();

    const stored = async () => (await call<{ schedules: Array<{ blockId: string; status: string }> }>('GET', `/api/schedules?workflowId=${workflowId}`)).body.schedules;
    await state.getByRole('button', { name: 'Pause' }).click();
    await state.getByText('Paused', { exact: true }).waitFor();
    await state.getByText('Takes no action until resumed').waitFor();
    expect(await stored()).toEqual([expect.objectContaining({ blockId: starter, status: 'paused' })]);
    // The starter's own Schedule Status says Paused and lists no next runs (it looked active before).
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator(`.react-flow__node[data-id="${starter}"]`).click();
    const blockStatus = page.getByRole('region', { name: 'Block', exact: true }).getByRole('group', { name: 'Schedule Status', exact: true });
    await blockStatus.getByText('Paused', { exact: true }).waitFor();
    expect(await blockStatus.getByRole('list', { name: 'Next runs' }).count()).toBe(0);
    // Reopened, the dialog reads the state from the server.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await state.getByText('Paused', { exact: true }).waitFor();
    await state.getByRole('button', { name: 'Resume' }).click();
    await state.getByText('Active', { exact: true }).waitFor();
    expect(await stored()).toEqual([expect.objectContaining({ blockId: starter, status: 'active' })]);
    // Resumed in the dialog: the block's status follows (the same query), its next runs back.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await blockStatus.getByText('Active', { exact: true }).waitFor();
    await blockStatus.getByRole('list', { name: 'Next runs' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('the deploy dialog of a deployment with no schedule, the draft now scheduled, reads the empty list as none: no error, no failed request', async () => {
    const { page, errors, call, workflowId, starter } = await openNewWorkflow(chromium(), 'No schedule user');
    const asks: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/schedules?')) asks.push(r.status());
    });
    const deployed = await call('POST', `/api/workflows/${workflowId}/deploy`, {});
    expect(deployed.status).toBe(200);
    const asked = await call('GET', `/api/schedules?workflowId=${workflowId}`);
    expect([asked.status, asked.body]).toEqual([200, { schedules: [] }]);
    const { dialog, schedule } = await scheduledInDeployDialog(page, call, workflowId, starter);
    await schedule.getByText('Not scheduled by the deployed version: deploy the draft to schedule it.').waitFor({ timeout: 15_000 });
    // The dialog asked and got the empty list: no failed request for the browser to log, no error shown.
    await expect.poll(() => asks.length > 0 && asks.every((status) => status === 200)).toBe(true);
    expect(await dialog.locator('.error').count()).toBe(0);
    expect(errors).toEqual([]);
  });
  it('a model call without a key says in the console how to give the block the key kept in Settings', async () => {
    const { page, errors, call, workflowId, starter } = await openNewWorkflow(chromium(), 'Missing key user');
    const edited = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'writer', blockType: 'agent', name: 'Writer', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'systemPrompt', value: 'Be brief.' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'userPrompt', value: 'Say hello.' },
        { type: 'setSubBlockValue', id: 'writer', subBlockId: 'model', value: 'gpt-4o' },
        { type: 'addEdge', id: 'to-writer', source: starter, target: 'writer' },
      ],
    });
    expect(edited.status).toBe(200);
    await page.locator('.react-flow__node[data-id="writer"]').waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const console_ = consoleOf(page);
    await console_.getByRole('alert').filter({ hasText: 'API key is required for OpenAI' }).waitFor({ timeout: 60_000 });
    const hint = "Give the block's API Key field your key, or a reference to it: {{OPENAI_API_KEY}} reads the variable of that name from Settings › Environment variables.";
    await console_.getByText(hint).waitFor();
    // Said once: under the run's error, not again under the block's own.
    expect(await console_.getByText(hint).count()).toBe(1);
    // The run ended failed, and the runner kept an earlier block's output (the starter's) as the run's:
    // the console shows the error, not that output as the workflow's.
    await expect.poll(() => runStatus(page)).toBe('Failed');
    const runs = await call<{ executions: Array<{ executionId: string }> }>('GET', `/api/workflows/${workflowId}/executions`);
    const stored = await call<{ status: string; output: unknown }>('GET', `/api/executions/${runs.body.executions[0]?.executionId ?? ''}`);
    expect([stored.body.status, stored.body.output === null]).toEqual(['failed', false]);
    expect(await console_.getByRole('group', { name: 'Workflow output' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("an agent's empty API Key field offers the provider's key kept in Settings: one click names it, and the button goes", async () => {
    const { page, errors, call, stored, workflowId } = await openNewWorkflow(chromium(), 'Kept key user');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-kept-in-settings' } })).status).toBe(200);
    const agent = await addFromPalette(page, 'Agent', 'agent');
    await page.locator(`.react-flow__node[data-id="${agent}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    // The agent's default model is OpenAI's: the variable of OpenAI's key is offered.
    const offer = panel.getByRole('button', { name: 'Use {{OPENAI_API_KEY}} from your Settings', exact: true });
    await offer.click({ timeout: 30_000 });
    await expect.poll(() => stored(agent, 'apiKey'), { timeout: 30_000 }).toBe('{{OPENAI_API_KEY}}');
    await expect.poll(() => offer.count()).toBe(0);
    // Switched to an Anthropic model, the field still names OpenAI's key: the panel says so and offers Anthropic's.
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-kept-in-settings', ANTHROPIC_API_KEY: 'sk-ant-kept' } })).status).toBe(200);
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: agent, subBlockId: 'model', value: 'claude-sonnet-4-0' }] })).status).toBe(200);
    await page.reload();
    await page.locator(`.react-flow__node[data-id="${agent}"]`).click({ timeout: 60_000 });
    await panel.getByText('{{OPENAI_API_KEY}} is not a key for Anthropic.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Use {{ANTHROPIC_API_KEY}} from your Settings', exact: true }).click();
    await expect.poll(() => stored(agent, 'apiKey'), { timeout: 30_000 }).toBe('{{ANTHROPIC_API_KEY}}');
    // The reference is stored, never the key.
    expect(JSON.stringify(await stored(agent, 'apiKey'))).not.toContain('sk-kept-in-settings');
    expect(errors).toEqual([]);
  });

  it('a file loaded on demand that a rebuild removed, with an edit unsaved: no reload, the app stays up, and Reload waits for the edit', async () => {
    const { page, errors, workflowId, state } = await openNewWorkflow(chromium(), 'Stale chunk user');
    // The server no longer has the files of auto layout and the deploy dialog (this page's build is gone).
    const gone = (route: Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    await page.route('**/assets/layout-*.js', gone);
    await page.route('**/assets/DeployDialog-*.js', gone);
    // An edit awaits the server's answer: its command is held.
    const held: Route[] = [];
    const commands = `**/api/workflows/${workflowId}/commands`;
    await page.route(commands, (route) => void held.push(route));
    const marked = () => page.evaluate(() => (globalThis as { weftMark?: string }).weftMark ?? null);
    await page.evaluate(() => void ((globalThis as { weftMark?: string }).weftMark = 'this page'));
    const agent = await addFromPalette(page, 'Agent', 'agent');
    await expect.poll(() => held.length).toBe(1);
    await page.getByText('saving 1', { exact: true }).waitFor();

    const toasts = page.getByTestId('toast');
    const updated = toasts.filter({ hasText: 'Weft was updated — reload the page to get the latest version' });
    await page.getByRole('button', { name: 'Auto layout' }).click();
    await updated.waitFor({ timeout: 60_000 });
    await toasts.filter({ hasText: 'Auto layout failed' }).waitFor();
    // The deploy dialog's file is gone too: a message, the canvas still there, no blank page.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await toasts.filter({ hasText: 'This part of Weft did not load' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator(`.react-flow__node[data-id="${agent}"]`).count()).toBe(1);
    expect(await marked()).toBe('this page');
    expect(await updated.count()).toBe(1);

    // Reload waits for the edit; once the server has it, the page reloads, and the edit is kept.
    const reloaded = page.waitForEvent('load');
    await updated.getByRole('button', { name: 'Reload', exact: true }).click();
    expect(await marked()).toBe('this page');
    await page.unroute(commands);
    for (const route of held) await route.fallback();
    await reloaded;
    expect(await marked()).toBe(null);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 60_000 });
    await page.locator(`.react-flow__node[data-id="${agent}"]`).waitFor({ timeout: 60_000 });
    expect(Object.keys((await state()).blocks)).toContain(agent);

    // With nothing unsaved, the missing file reloads the page once (not again within a minute: then its error shows).
    await page.evaluate(() => void ((globalThis as { weftMark?: string }).weftMark = 'second page'));
    const again = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Auto layout' }).click();
    await again;
    expect(await marked()).toBe(null);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 60_000 });
    await page.evaluate(() => void ((globalThis as { weftMark?: string }).weftMark = 'third page'));
    await page.getByRole('button', { name: 'Auto layout' }).click();
    await toasts.filter({ hasText: 'Auto layout failed' }).waitFor();
    expect(await marked()).toBe('third page');
    expect(errors.filter((e) => !/dynamically imported module|Importing a module script failed|layout-|DeployDialog-/.test(e))).toEqual([]);
  });
});
