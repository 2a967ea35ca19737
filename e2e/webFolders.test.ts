import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { showSidebar } from './support/layout.js';
import { as, signUp } from './support/session.js';

describe('sidebar folders', () => {
  const chromium = chromiumPerSuite();

  it('renames a folder from its menu, and deletes it after a confirm, its workflow kept at the top level', async () => {
    const owner = await signUp('Folder keeper');
    const asOwner = as(owner);
    const folder = (await asOwner<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: owner.workspaceId, name: 'Drafts' })).body.folder.id;
    const workflow = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Filed', folderId: folder })).body.id;
    const folders = async () => (await asOwner<{ folders: Array<{ id: string; name: string }> }>('GET', `/api/folders?workspaceId=${owner.workspaceId}`)).body.folders.map((f) => f.name);
    const folderOf = async () => (await asOwner<{ data: Array<{ id: string; folderId: string | null }> }>('GET', `/api/workflows?workspaceId=${owner.workspaceId}`)).body.data.find((w) => w.id === workflow)?.folderId ?? null;
    expect(await folderOf()).toBe(folder);
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    await showSidebar(page);

    // Rename from the folder's menu: its name field, Enter sends it.
    await page.getByRole('button', { name: 'Actions for folder Drafts' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const name = page.getByRole('textbox', { name: 'Folder name' });
    await name.fill('Reports');
    await name.press('Enter');
    await expect.poll(folders).toEqual(['Reports']);
    await page.locator('.folder-name').filter({ hasText: 'Reports' }).waitFor();

    // Delete asks first; Cancel keeps it, confirming deletes it and keeps its workflow, moved to the top level.
    const remove = async () => {
      await page.getByRole('button', { name: 'Actions for folder Reports' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      return page.getByRole('alertdialog', { name: 'Delete folder “Reports”?' });
    };
    await (await remove()).getByRole('button', { name: 'Cancel' }).click();
    expect(await folders()).toEqual(['Reports']);
    await (await remove()).getByRole('button', { name: 'Delete folder' }).click();
    await expect.poll(folders).toEqual([]);
    await expect.poll(() => page.locator('.folder').count()).toBe(0);
    expect(await folderOf()).toBeNull();
    await page.getByRole('list', { name: 'Workflows' }).getByRole('button', { name: 'Filed', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});
