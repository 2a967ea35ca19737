import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { as, signUp } from './support/session.js';
import { showSidebar } from './support/layout.js';

describe('the web app’s pages in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('signs up and in on its own pages, and shows a failed sign-in in a toast', async () => {
    const context = await chromium().newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const email = `web-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`;

    // A page load without a session lands on the sign-in page of the app, which links to sign-up.
    await page.goto(`${inject('weftUrl')}/settings/environment`);
    await page.getByRole('form', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByRole('link', { name: 'Sign up' }).click();
    const form = page.getByRole('form', { name: 'Sign up' });
    await form.getByLabel('Name').fill('Web User');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill('web-password-1');
    await form.getByRole('button', { name: 'Sign up' }).click();
    // Signed up, the app opens where the visitor was going.
    await page.getByRole('heading', { name: 'Environment variables' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/settings/environment');

    // Signed out, a wrong password is refused with the server's message in a toast.
    await (await showSidebar(page)).getByRole('button', { name: 'Sign out' }).click();
    const signIn = page.getByRole('form', { name: 'Sign in' });
    await signIn.waitFor();
    await signIn.getByLabel('Email').fill(email);
    await signIn.getByLabel('Password').fill('wrong-password-1');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toMatch(/invalid/i);
    await signIn.getByLabel('Password').fill('web-password-1');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await (await showSidebar(page)).getByRole('button', { name: 'New workflow' }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(tmpdir(), 'weft-signed-in.png') });
    expect(errors).toEqual([]);
  });

  it('keeps environment variables masked until shown, and renames, recolours, duplicates, files and deletes workflows from the sidebar', async () => {
    const owner = await signUp('Sidebar user');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Report' })).body.id;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');

    // Environment variables: add one, save; the server has it; the value shows masked until asked.
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: 'Key 1' }).fill('OPENAI_KEY');
    await page.locator('input[aria-label="Value 1"]').fill('sk-test-123');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await asOwner<{ data: Record<string, { value: string }> }>('GET', '/api/environment')).body.data['OPENAI_KEY']?.value).toBe('sk-test-123');
    await page.reload();
    await expect.poll(() => page.locator('input[aria-label="Value 1"]').inputValue()).toBe('sk-test-123');
    expect(await page.locator('input[aria-label="Value 1"]').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show value 1' }).click();
    expect(await page.locator('input[aria-label="Value 1"]').getAttribute('type')).toBe('text');

    // Sidebar (opened from its rail at this width): rename the workflow from its menu.
    await showSidebar(page);
    const list = page.getByRole('list', { name: 'Workflows' });
    await list.getByRole('button', { name: 'Report', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Actions for Report' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const name = page.getByRole('textbox', { name: 'Workflow name' });
    await name.fill('Weekly report');
    await name.press('Enter');
    await expect.poll(async () => (await asOwner<{ data: { name: string } }>('GET', `/api/workflows/${workflowId}`)).body.data.name).toBe('Weekly report');

    // Colour and duplicate.
    await page.getByRole('button', { name: 'Actions for Weekly report' }).click();
    const colours = page.getByRole('group', { name: 'Colour' }).getByRole('menuitemradio');
    const colour = ((await colours.nth(2).getAttribute('aria-label')) ?? '').replace('Colour ', '');
    await colours.nth(2).click();
    await expect.poll(async () => (await asOwner<{ data: { color: string } }>('GET', `/api/workflows/${workflowId}`)).body.data.color.toLowerCase()).toBe(colour.toLowerCase());
    await page.getByRole('button', { name: 'Actions for Weekly report' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    const listed = async () => (await asOwner<{ data: Array<{ id: string; name: string; folderId: string | null }> }>('GET', `/api/workflows?workspaceId=${owner.workspaceId}`)).body.data;
    await expect.poll(async () => (await listed()).length, { timeout: 15_000 }).toBe(2);

    // A folder, and the workflow dragged into it.
    await page.getByRole('button', { name: 'New folder' }).click();
    await expect.poll(async () => (await asOwner<{ folders: unknown[] }>('GET', `/api/folders?workspaceId=${owner.workspaceId}`)).body.folders.length).toBe(1);
    const folder = page.locator('.folder').first();
    await folder.waitFor();
    await page.locator(`.wf-row[data-workflow-id="${workflowId}"]`).dragTo(folder.locator('.folder-row'));
    await expect.poll(async () => (await listed()).find((w) => w.id === workflowId)?.folderId ?? null).not.toBeNull();

    // Delete the copy: the app's confirm dialog (Escape cancels and nothing is deleted; Enter confirms).
    const copy = (await listed()).find((w) => w.id !== workflowId);
    const deleteCopy = async () => {
      await page.locator(`.wf-row[data-workflow-id="${copy?.id}"]`).getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      return page.getByRole('alertdialog', { name: `Delete “${copy?.name}”?` });
    };
    let confirmDialog = await deleteCopy();
    // Focus starts on the destructive button and Tab stays inside the dialog.
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Delete workflow');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Delete workflow');
    await page.screenshot({ path: path.join(tmpdir(), 'weft-confirm-delete.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');
    await confirmDialog.waitFor({ state: 'detached' });
    expect((await listed()).length).toBe(2);
    confirmDialog = await deleteCopy();
    await page.keyboard.press('Enter');
    await confirmDialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await listed()).map((w) => w.id)).toEqual([workflowId]);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-sidebar.png') });
    expect(errors).toEqual([]);
  });

  it('shows spec 000 §8’s failures as toasts: the workflow list refused or failing, a workflow not found, the variables not loaded or not saved', async () => {
    const owner = await signUp('Failures user');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Fragile' })).body.id;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text });
    const answer = (status: number, error: string) => ({ status, contentType: 'application/json', body: JSON.stringify({ error }) });

    // The workflow list refused (403) and failing (500): a toast each, and the line above the list.
    const list = (url: URL) => url.pathname === '/api/workflows' && url.searchParams.has('workspaceId');
    await page.route(list, (route) => route.fulfill(answer(403, 'No access to this workspace')));
    await page.reload();
    await toast('Access denied to workspace').waitFor({ timeout: 15_000 });
    await showSidebar(page);
    await page.locator('.sidebar-error').filter({ hasText: 'Access denied to workspace' }).waitFor();
    await page.unroute(list);
    await page.route(list, (route) => route.fulfill(answer(500, 'the registry is down')));
    await page.reload();
    await toast('Failed to load workflows: the registry is down').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(tmpdir(), 'weft-toast-workflows.png') });
    await page.unroute(list);

    // A workflow that does not exist.
    await page.goto(new URL('/?workflow=no-such-workflow', page.url()).toString());
    await toast('Workflow no-such-workflow not found').waitFor({ timeout: 15_000 });

    // The state (and with it the variables) refused, then failing: the variables' messages.
    const state = `**/api/workflows/${workflowId}/state`;
    await page.route(state, (route) => route.fulfill(answer(403, 'You do not have access to this workflow')));
    await page.goto(new URL(`/?workflow=${workflowId}`, page.url()).toString());
    await toast('You do not have permission to access these variables').waitFor({ timeout: 15_000 });
    await page.unroute(state);
    // 401 is told the same way (spec 000 §7: 401 or 403 means no permission).
    await page.route(state, (route) => route.fulfill(answer(401, 'Sign in first')));
    await page.reload();
    await toast('You do not have permission to access these variables').waitFor({ timeout: 15_000 });
    await page.unroute(state);
    await page.route(state, (route) => route.fulfill(answer(500, 'the editor is down')));
    await page.reload();
    await toast('Failed to load workflow variables: Internal Server Error').waitFor({ timeout: 15_000 });
    await page.unroute(state);

    // A variable edit the server refuses (adding "limit"): not saved, taken back, and said so; another one is saved.
    await page.route(`**/api/workflows/${workflowId}/commands`, (route) =>
      route.request().postData()?.includes('"name":"limit"') ? route.fulfill(answer(403, 'This action needs write permission')) : route.continue(),
    );
    await page.reload();
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    const variables = page.getByRole('region', { name: 'Variables' });
    await variables.getByRole('textbox', { name: 'New variable name' }).fill('budget');
    await variables.getByRole('combobox', { name: 'New variable type' }).selectOption('number');
    await variables.getByRole('textbox', { name: 'New variable value' }).fill('250');
    await variables.getByRole('button', { name: 'Add variable' }).click();
    await variables.getByRole('textbox', { name: 'Name of budget' }).waitFor();
    await variables.getByRole('textbox', { name: 'New variable name' }).fill('limit');
    await variables.getByRole('button', { name: 'Add variable' }).click();
    await toast('Failed to save workflow variables: Forbidden').waitFor({ timeout: 15_000 });
    await expect.poll(() => variables.getByRole('textbox', { name: 'Name of limit' }).count()).toBe(0);
    expect(await variables.getByRole('textbox', { name: 'Value of budget' }).inputValue()).toBe('250');
    await page.screenshot({ path: path.join(tmpdir(), 'weft-toast-variables.png') });
    expect(errors).toEqual([]);
  });
  it('keeps the environment variables typed when a save fails: the saved ones reloaded under them, the typed rows marked unsaved until saved', async () => {
    const owner = await signUp('Environment keeper');
    const asOwner = as(owner);
    type Saved = { data: Record<string, { key: string; value: string }> };
    const savedVars = async () => Object.fromEntries(Object.values((await asOwner<Saved>('GET', '/api/environment')).body.data).map((v) => [v.key, v.value]));
    expect((await asOwner('POST', '/api/environment', { variables: { A_KEY: 'a1', B_KEY: 'b1', C_KEY: 'c1' } })).status).toBe(200);
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    const table = page.getByRole('table', { name: 'Environment variables' });
    const key = (n: number) => table.getByRole('textbox', { name: `Key ${n}`, exact: true });
    const value = (n: number) => table.locator(`input[aria-label="Value ${n}"]`);
    // Each row: key, value, and whether it is marked unsaved.
    const shown = async () => {
      const rows = table.locator('tbody tr');
      const out: string[][] = [];
      for (let i = 0; i < (await rows.count()); i += 1) {
        const row = rows.nth(i);
        const unsaved = (await row.getByText('Unsaved', { exact: true }).count()) > 0;
        out.push([await row.locator('input[aria-label^="Key"]').inputValue(), await row.locator('input[aria-label^="Value"]').inputValue(), unsaved ? 'unsaved' : 'saved']);
      }
      return out;
    };
    await expect.poll(shown).toEqual([
      ['A_KEY', 'a1', 'saved'],
      ['B_KEY', 'b1', 'saved'],
      ['C_KEY', 'c1', 'saved'],
    ]);

    // Typed: A's value, B removed, a variable added. Meanwhile another tab changes C and adds D.
    await value(1).fill('a-typed');
    await table.getByRole('button', { name: 'Remove B_KEY', exact: true }).click();
    await page.getByRole('button', { name: 'Add variable' }).click();
    await key(3).fill('NEW_KEY');
    await value(3).fill('n1');
    expect((await asOwner('POST', '/api/environment', { variables: { A_KEY: 'a1', B_KEY: 'b1', C_KEY: 'c2', D_KEY: 'd1' } })).status).toBe(200);

    // The save fails (503): the toast, the saved variables reloaded (spec 000 §7) — and what was typed still on them, marked.
    const environment = (url: URL) => url.pathname === '/api/environment';
    await page.route(environment, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the registry is down' }) }) : route.continue(),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('toast').filter({ hasText: 'Failed to save environment variables: Service Unavailable' }).waitFor({ timeout: 15_000 });
    await expect.poll(shown).toEqual([
      ['A_KEY', 'a-typed', 'unsaved'],
      ['C_KEY', 'c2', 'saved'],
      ['NEW_KEY', 'n1', 'unsaved'],
      ['D_KEY', 'd1', 'saved'],
    ]);
    await page.getByText('Removed, not saved yet: B_KEY', { exact: true }).waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-environment-unsaved.png') });

    // Saved once the registry answers: what the table shows, nothing left unsaved.
    await page.unroute(environment);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(savedVars).toEqual({ A_KEY: 'a-typed', C_KEY: 'c2', NEW_KEY: 'n1', D_KEY: 'd1' });
    await expect.poll(shown).toEqual([
      ['A_KEY', 'a-typed', 'saved'],
      ['C_KEY', 'c2', 'saved'],
      ['NEW_KEY', 'n1', 'saved'],
      ['D_KEY', 'd1', 'saved'],
    ]);
    expect(await page.getByText('Removed, not saved yet', { exact: false }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });
  it('refuses an empty workflow name from the sidebar with "Workflow name is required", keeping the old name', async () => {
    const owner = await signUp('Blank renamer');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Keep me' })).body.id;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    await showSidebar(page);
    const list = page.getByRole('list', { name: 'Workflows' });
    await list.getByRole('button', { name: 'Keep me', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Actions for Keep me' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const name = page.getByRole('textbox', { name: 'Workflow name' });
    await name.fill('   ');
    await name.press('Enter');
    await page.getByText('Workflow name is required', { exact: true }).waitFor();
    // Enter keeps the field open to type a name; leaving it goes back to the old one.
    expect(await name.isVisible()).toBe(true);
    await name.blur();
    await list.getByRole('button', { name: 'Keep me', exact: true }).waitFor();
    expect(await name.count()).toBe(0);
    expect((await asOwner<{ data: { name: string } }>('GET', `/api/workflows/${workflowId}`)).body.data.name).toBe('Keep me');
    expect(errors).toEqual([]);
  });
  it('cancels a new folder with Escape while naming it: no folder is left', async () => {
    const owner = await signUp('Folder canceller');
    const asOwner = as(owner);
    await asOwner('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Anything' });
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    const folders = async () => (await asOwner<{ folders: Array<{ name: string }> }>('GET', `/api/folders?workspaceId=${owner.workspaceId}`)).body.folders;
    await showSidebar(page);
    await page.getByRole('list', { name: 'Workflows' }).getByRole('button', { name: 'Anything', exact: true }).waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    const name = page.getByRole('textbox', { name: 'Folder name' });
    await name.waitFor();
    await name.press('Escape');
    await expect.poll(async () => (await folders()).length).toBe(0);
    await expect.poll(() => page.locator('.folder').count()).toBe(0);

    // Named with Enter, the folder stays.
    await page.getByRole('button', { name: 'New folder' }).click();
    await name.fill('Reports');
    await name.press('Enter');
    await expect.poll(async () => (await folders()).map((f) => f.name)).toEqual(['Reports']);
    // Escape while renaming a folder that already was there only cancels the rename.
    await page.locator('.folder-name').filter({ hasText: 'Reports' }).dblclick();
    await name.press('Escape');
    await page.locator('.folder-name').filter({ hasText: 'Reports' }).waitFor();
    expect((await folders()).map((f) => f.name)).toEqual(['Reports']);
    expect(errors).toEqual([]);
  });
});
