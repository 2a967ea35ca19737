import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { addAgent, addFromPalette, fitView } from './support/editing.js';
import { as, signUp } from './support/session.js';
import { newWorkflow } from './support/workflows.js';

describe('form input that used to be lost or taken silently (helper-140 QA)', () => {
  const chromium = chromiumPerSuite();

  it('names a bad environment variable key beside its row before saving, keeps every row, and shows a refused save’s reason', async () => {
    const owner = await signUp('Env rows');
    const asOwner = as(owner);
    const saved = async () => (await asOwner<{ data: Record<string, { value: string }> }>('GET', '/api/environment')).body.data;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    await page.getByText('No variables yet.', { exact: false }).waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: 'Key 1' }).fill('my key!');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: 'Key 2' }).fill('OPENAI_API_KEY');
    await page.locator('input[aria-label="Value 2"]').fill('sk-kept');
    // The form turns the space into _; the registry's rule is shown beside row 1, and Save waits.
    expect(await page.getByRole('textbox', { name: 'Key 1' }).inputValue()).toBe('my_key!');
    await page.getByRole('alert').filter({ hasText: "Environment variable name 'my_key!' must start with a letter or _ and hold only letters, digits and _" }).waitFor();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Key 1' }).getAttribute('aria-invalid')).toBe('true');

    // Fixed, it saves both rows.
    await page.getByRole('textbox', { name: 'Key 1' }).fill('MY_KEY');
    expect(await page.getByRole('alert').count()).toBe(0);
    await save.click();
    await expect.poll(saved).toEqual({ MY_KEY: { key: 'MY_KEY', value: '' }, OPENAI_API_KEY: { key: 'OPENAI_API_KEY', value: 'sk-kept' } });

    // A save the server refuses anyway: the toast gives the spec's words and the server's reason.
    await page.route('**/api/environment', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Environment variables are locked' }) }) : route.fallback(),
    );
    await page.locator('input[aria-label="Value 1"]').fill('changed');
    await save.click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Failed to save environment variables: Bad Request. Environment variables are locked');
    expect(errors).toEqual([]);
  });

  it('names a Max Tokens that is no positive whole number at the field, and finds the API block in the tool picker by "http"', async () => {
    const wf = await newWorkflow('Agent input');
    const { page, errors } = await wf.open(chromium());
    const agent = await addAgent(page);
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${agent}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });

    // -5 is kept as typed, and the field says why the run and the deploy would refuse it.
    const maxTokens = panel.getByRole('textbox', { name: 'Max Tokens', exact: true });
    await maxTokens.fill('-5');
    await maxTokens.press('Enter');
    await expect.poll(() => wf.stored(agent, 'maxTokens')).toBe('-5');
    await panel.locator('[data-field="maxTokens"]').getByRole('alert').filter({ hasText: 'Max Tokens must be a positive whole number (got -5)' }).waitFor();
    await maxTokens.fill('512');
    await maxTokens.press('Enter');
    await expect.poll(() => panel.locator('[data-field="maxTokens"]').getByRole('alert').count()).toBe(0);

    // The picker searches names, ids and descriptions, and offers the API block (an HTTP request tool).
    await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
    const picker = panel.getByRole('dialog', { name: 'Add a tool' });
    await picker.getByRole('textbox', { name: 'Search tools' }).fill('http');
    await picker.getByRole('button', { name: /API$/ }).click();
    await panel.getByRole('group', { name: 'API settings' }).getByRole('textbox', { name: 'URL', exact: true }).waitFor();
    await expect.poll(async () => ((await wf.stored(agent, 'tools')) as Array<{ type: string }> | undefined)?.map((t) => t.type)).toEqual(['api']);
    expect(errors).toEqual([]);
  });

  it('keeps an API body that is not valid JSON as typed when another block is clicked, and still names it', async () => {
    const wf = await newWorkflow('Bad body');
    const { page, errors } = await wf.open(chromium());
    const api = await addFromPalette(page, 'API', 'api');
    const fn = await addFromPalette(page, 'Function', 'function');
    await fitView(page);
    await page.locator(`.react-flow__node[data-id="${api}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    await panel.locator('.cm-content[aria-label="Body"]').click();
    await page.keyboard.type('"a": 1,, ');
    await panel.getByText(/^Not valid JSON/).waitFor();
    await page.locator(`.react-flow__node[data-id="${fn}"]`).click();
    await panel.getByRole('heading', { name: 'Function 1' }).waitFor();
    await expect.poll(async () => String(await wf.stored(api, 'body'))).toContain('"a": 1,, ');
    // Back on the API block, the text is there and still marked.
    await page.locator(`.react-flow__node[data-id="${api}"]`).click();
    await panel.getByText(/^Not valid JSON/).waitFor();
    expect(await panel.locator('.cm-content[aria-label="Body"]').textContent()).toContain('"a": 1,, ');
    expect(errors).toEqual([]);
  });
});
