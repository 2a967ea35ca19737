import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { as, signUp } from './support/session.js';

interface CustomToolAnswer {
  id: string;
  title: string;
  schema: { function?: { name?: string } };
  code: string;
}

describe('the settings pages in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('writes a custom tool with its schema and code, refusing a bad one with the spec’s message, then deletes it', async () => {
    const owner = await signUp('Tools user');
    const asOwner = as(owner);
    const tools = async () => (await asOwner<{ data: CustomToolAnswer[] }>('GET', '/api/tools/custom')).body.data;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/custom-tools');
    await page.getByText('No custom tools yet.').waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'New custom tool' }).click();
    const editor = page.getByRole('form', { name: 'Custom tool editor' });
    // No title, then no code: each refused with its message, nothing saved.
    await editor.getByRole('button', { name: 'Save tool' }).click();
    await editor.getByRole('alert').filter({ hasText: 'Enter a title' }).waitFor();
    await editor.getByRole('textbox', { name: 'Tool title' }).fill('Shout');
    await editor.getByRole('button', { name: 'Save tool' }).click();
    await editor.getByRole('alert').filter({ hasText: 'No code provided for tool execution' }).waitFor();
    expect(await tools()).toEqual([]);

    // The schema names the function; the code returns its result.
    const schema = editor.getByRole('textbox', { name: 'Tool schema' });
    await schema.fill(JSON.stringify({ type: 'function', function: { name: 'shout', description: 'Upper-cases its input', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } }));
    await editor.getByRole('textbox', { name: 'Tool code' }).fill('return text.toUpperCase();');
    await editor.getByRole('button', { name: 'Save tool' }).click();
    await expect.poll(async () => (await tools()).map((t) => [t.title, t.schema.function?.name, t.code])).toEqual([['Shout', 'shout', 'return text.toUpperCase();']]);
    const list = page.getByRole('list', { name: 'Custom tools' });
    await list.getByText('Upper-cases its input').waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-custom-tools.png') });

    await list.getByRole('button', { name: 'Delete Shout' }).click();
    await expect.poll(tools).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('creates an API key that is shown once and works as x-api-key, then revokes it', async () => {
    const owner = await signUp('Keys user');
    const asOwner = as(owner);
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/api-keys');
    await page.getByText('No API keys yet.').waitFor({ timeout: 15_000 });

    await page.getByRole('textbox', { name: 'Key name' }).fill('CI');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('textbox', { name: 'New API key' });
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key.length).toBeGreaterThan(16);
    await page.getByRole('list', { name: 'API keys' }).getByText('CI', { exact: true }).waitFor();
    // The key works on its own, without the session.
    const withKey = as({ headers: { 'x-api-key': key } });
    expect((await withKey('GET', '/api/workspaces')).status).toBe(200);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-api-keys.png') });

    // Revoked (confirmed), the key no longer opens anything.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(async () => (await asOwner<{ keys: unknown[] }>('GET', '/api/auth/api-keys')).body.keys.length).toBe(0);
    expect((await withKey('GET', '/api/workspaces')).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('invites a member by email, changes their permission and removes them', async () => {
    const owner = await signUp('Members owner');
    const teammate = await signUp('Members teammate');
    const asOwner = as(owner);
    const members = async () =>
      (await asOwner<{ members: Array<{ userId: string; permission: string }> }>('GET', `/api/workspaces/${owner.workspaceId}/permissions`)).body.members
        .filter((m) => m.userId === teammate.userId)
        .map((m) => m.permission);
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/members');
    await page.getByText('Your permission: admin.').waitFor({ timeout: 15_000 });

    await page.getByRole('textbox', { name: 'Member email' }).fill(teammate.email);
    await page.getByRole('combobox', { name: 'Permission', exact: true }).selectOption('read');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(members).toEqual(['read']);
    // The teammate now sees the workspace.
    const asTeammate = as(teammate);
    await expect
      .poll(async () => (await asTeammate<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces')).body.workspaces.map((w) => w.id))
      .toContain(owner.workspaceId);

    await page.getByRole('combobox', { name: `Permission of ${teammate.email}` }).selectOption('write');
    await expect.poll(members).toEqual(['write']);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-members.png') });
    await page.getByRole('button', { name: `Remove ${teammate.email}` }).click();
    await expect.poll(members).toEqual([]);
    expect(errors).toEqual([]);
  });
});
