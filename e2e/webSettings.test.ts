import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';
import { newWorkflow } from './support/workflows.js';

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
    await page.getByRole('alertdialog', { name: 'Delete “Shout”?' }).getByRole('button', { name: 'Delete tool' }).click();
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

    // Revoke asks first: Cancel keeps the key; confirmed, the key no longer opens anything.
    await page.getByRole('button', { name: 'Revoke' }).click();
    const revoke = page.getByRole('alertdialog', { name: 'Revoke “CI”?' });
    await revoke.getByRole('button', { name: 'Cancel' }).click();
    await revoke.waitFor({ state: 'detached' });
    expect((await withKey('GET', '/api/workspaces')).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke' }).click();
    await revoke.getByRole('button', { name: 'Revoke key' }).click();
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
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
    await expect.poll(members).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows a workspace reader the workflow read only: no palette, run or deploy, disabled forms; nothing they do is written", async () => {
    const { owner, call: asOwner, workflowId, stored } = await newWorkflow('Reader owner');
    const reader = await signUp('Reader');
    expect((await asOwner('POST', `/api/workspaces/${owner.workspaceId}/members`, { email: reader.email, permission: 'read' })).status).toBeLessThan(300);
    const built = await asOwner('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Shape', position: { x: 420, y: 80 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' },
        // A webhook block whose form would write its path when first opened by a writer.
        { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 420, y: 320 } },
      ],
    });
    expect(built.status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), reader.headers.cookie ?? '', workflowId);
    // What the reader's page sends: no edit may leave it (the server would refuse it; the page must not try).
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && /\/api\/workflows\/[^/]+\/(commands|deploy|execute)/.test(r.url())) sent.push(`${r.method()} ${r.url()}`);
    });
    await page.getByText('read only', { exact: true }).waitFor();
    const toolbar = page.getByRole('toolbar', { name: 'Editing tools' });
    expect(await toolbar.getByRole('button', { name: /^Run/ }).count()).toBe(0);
    expect(await toolbar.getByRole('button', { name: /Deploy/ }).count()).toBe(0);
    expect(await toolbar.getByRole('button', { name: /^Undo/ }).count()).toBe(0);
    expect(await page.getByRole('complementary', { name: 'Block palette' }).count()).toBe(0);

    await page.locator('.react-flow__node[data-id="fn"]').click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block' });
    await panel.getByRole('heading', { name: 'Shape' }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Block name' }).isDisabled()).toBe(true);
    expect(await panel.locator('.cm-content').getAttribute('contenteditable')).toBe('false');
    // Delete with the block selected: nothing is sent.
    await page.keyboard.press('Delete');
    await page.locator('.react-flow__node[data-id="hook"]').click({ position: { x: 8, y: 8 } });
    await panel.getByRole('heading', { name: 'Hook' }).waitFor();
    expect(await panel.getByRole('group', { name: 'Webhook Configuration' }).getByRole('textbox', { name: 'Webhook URL' }).inputValue()).toContain(`/api/webhooks/trigger/${workflowId}`);
    await page.keyboard.press('Control+z');
    await page.getByText('You can view this workflow but not change it: you have read access to its workspace').first().waitFor();
    // The owner's rename reaches the reader's canvas: everything the reader did before it was shown, and nothing was sent.
    expect((await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'renameBlock', id: 'fn', name: 'Shape 2' }] })).status).toBe(200);
    await page.locator('.react-flow__node[data-id="fn"]').getByText('Shape 2').waitFor();
    expect(sent).toEqual([]);
    const hookConfig = await stored('hook', 'webhookConfig');
    expect(hookConfig ?? null).toBeNull();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-reader.png') });
    expect(errors).toEqual([]);
  });

  it('creates a knowledge base with a document, picks both in a Knowledge block’s form, and deletes the base', async () => {
    const owner = await signUp('Knowledge user');
    const asOwner = as(owner);
    // Embeddings come from the stack's OpenAI fake, with the owner's own key.
    expect((await asOwner('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-knowledge-web' } })).status).toBe(200);
    type Base = { id: string; name: string; documentCount: number };
    const bases = async () => (await asOwner<{ knowledgeBases: Base[] }>('GET', `/api/knowledge?workspaceId=${owner.workspaceId}`)).body.knowledgeBases;
    const cookie = owner.headers.cookie ?? '';
    const { page, errors } = await openSignedIn(chromium(), cookie, '/settings/knowledge');
    await page.getByText('No knowledge bases yet.').waitFor({ timeout: 15_000 });

    await page.getByRole('textbox', { name: 'Knowledge base name' }).fill('Team handbook');
    await page.getByRole('textbox', { name: 'Knowledge base description' }).fill('How we work');
    await page.getByRole('button', { name: 'Create' }).click();
    // The new base opens: add a text document, which the server chunks and embeds.
    const card = page.getByRole('region', { name: 'Knowledge base Team handbook' });
    await card.getByText('No documents yet.').waitFor();
    await card.getByRole('textbox', { name: 'Document name' }).fill('holidays');
    await card.getByRole('textbox', { name: 'Document text' }).fill('Everyone has 25 days of paid leave a year; ask your lead two weeks ahead.');
    await card.getByRole('button', { name: 'Add document' }).click();
    await card.getByRole('list', { name: 'Documents' }).getByText(/^holidays/).waitFor({ timeout: 30_000 });
    await card.getByRole('list', { name: 'Documents' }).getByText(/1 chunk ·/).waitFor();
    await expect.poll(async () => (await bases()).map((b) => [b.name, b.documentCount])).toEqual([['Team handbook', 1]]);
    const [base] = await bases();
    const [document] = (await asOwner<{ documents: Array<{ id: string; name: string }> }>('GET', `/api/knowledge/${base?.id}/documents`)).body.documents;
    await card.getByRole('button', { name: 'All knowledge bases' }).click();
    await page.getByRole('list', { name: 'Knowledge bases' }).getByText('1 document · 1 chunk').waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-knowledge.png') });

    // A Knowledge block's form offers the workspace's bases, and the chosen base's documents.
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const added = await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'addBlock', id: 'kb', blockType: 'knowledge', name: 'Knowledge 1', position: { x: 400, y: 0 } }] });
    expect(added.status).toBe(200);
    const subBlock = async (id: string) =>
      (await asOwner<{ data: { state: { blocks: Record<string, { subBlocks: Record<string, { value: unknown }> }> } } }>('GET', `/api/workflows/${workflowId}`)).body.data.state.blocks.kb?.subBlocks[id]?.value;
    const editor = await openWorkflow(chromium(), cookie, workflowId);
    await editor.page.locator('.react-flow__node[data-id="kb"]').click();
    const panel = editor.page.getByRole('region', { name: 'Block', exact: true });
    // Search asks for a base until one is chosen (the chip's box is drawn by its label).
    await panel.getByRole('alert').filter({ hasText: 'Knowledge base IDs are required for search' }).waitFor();
    await panel.getByRole('group', { name: 'Knowledge Bases' }).getByText('Team handbook').click();
    await expect.poll(() => subBlock('knowledgeBaseIds')).toBe(base?.id);
    await panel.getByRole('alert').filter({ hasText: 'Knowledge base IDs are required for search' }).waitFor({ state: 'detached' });
    await editor.page.screenshot({ path: path.join(tmpdir(), 'weft-knowledge-block.png') });
    await panel.getByRole('combobox', { name: 'Operation' }).selectOption('upload_chunk');
    await panel.getByRole('combobox', { name: 'Knowledge Base', exact: true }).selectOption({ label: 'Team handbook' });
    await expect.poll(() => subBlock('knowledgeBaseId')).toBe(base?.id);
    await panel.getByRole('combobox', { name: 'Document', exact: true }).selectOption({ label: document?.name ?? '' });
    await expect.poll(() => subBlock('documentId')).toBe(document?.id);
    expect(editor.errors).toEqual([]);

    // Deleting the base (confirmed) removes it and its documents.
    await page.getByRole('button', { name: 'Delete Team handbook' }).click();
    await page.getByRole('alertdialog', { name: 'Delete “Team handbook”?' }).getByRole('button', { name: 'Delete knowledge base' }).click();
    await expect.poll(bases).toEqual([]);
    await page.getByText('No knowledge bases yet.').waitFor();
    expect(errors).toEqual([]);
  });
});
