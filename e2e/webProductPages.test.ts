import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { addAgent } from './support/editing.js';
import { showSidebar } from './support/layout.js';
import { consoleOf } from './support/runConsole.js';
import { newWorkflow, type StoredState } from './support/workflows.js';

type Schedules = { schedules: Array<{ blockId: string; status: string; nextRunAt: string[] }> };

describe('the web app against Sim Studio and n8n', () => {
  const chromium = chromiumPerSuite();

  it("lists the workspace's schedules on a page of their own, paused and resumed there, each linked to its workflow", async () => {
    const { call, owner, workflowId, starter, cookie } = await newWorkflow('Schedules page', { name: 'Morning report' });
    const set = (subBlockId: string, value: string) => ({ type: 'setSubBlockValue', id: starter, subBlockId, value });
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        set('startWorkflow', 'schedule'),
        set('scheduleType', 'daily'),
        set('dailyTime', '09:30'),
        set('timezone', 'Europe/Paris'),
        { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Echo', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'fn', subBlockId: 'code', value: 'return 1' },
        { type: 'addEdge', id: 'e1', source: starter, target: 'fn' },
      ],
    });
    expect(edit.status).toBe(200);
    expect((await call('POST', `/api/workflows/${workflowId}/deploy`, {})).status).toBe(200);
    // A workflow that is not deployed schedules nothing: not listed.
    expect((await call('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Draft only' })).status).toBe(201);
    const status = async () => (await call<Schedules>('GET', `/api/schedules?workflowId=${workflowId}`)).body.schedules.map((s) => s.status);
    expect(await status()).toEqual(['active']);
    // The workspace's schedules in one call; a workspace the caller is not a member of is refused.
    const workspaceWide = await call<Schedules & { nextCursor: string | null }>('GET', `/api/schedules?workspaceId=${owner.workspaceId}`);
    expect([workspaceWide.status, workspaceWide.body.schedules.map((s) => s.blockId), workspaceWide.body.nextCursor]).toEqual([200, [starter], null]);
    const stranger = await newWorkflow('Schedules page stranger');
    expect(await stranger.call('GET', `/api/schedules?workspaceId=${owner.workspaceId}`)).toMatchObject({ status: 403, body: { error: 'Access denied to workspace' } });

    // Reached from the sidebar's navigation.
    const { page, errors } = await openSignedIn(chromium(), cookie, '/settings/environment');
    // One request for the workspace's schedules (not one per workflow).
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/schedules') asked.push(new URL(r.url()).search);
    });
    const sidebar = await showSidebar(page);
    await sidebar.getByRole('button', { name: 'Schedules', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/schedules');
    const table = page.getByRole('table', { name: 'Workspace schedules' });
    const row = table.getByRole('row', { name: 'Morning report › Start' });
    await row.waitFor({ timeout: 30_000 });
    const cells = async () => (await row.getByRole('cell').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const [workflow, block, frequency, timezone, next, last, state] = await cells();
    expect([workflow, block, frequency, timezone, last, state]).toEqual(['Morning report', 'Start', 'Daily at 09:30 30 9 * * *', 'Europe/Paris', 'Not run yet', 'Active']);
    expect(next).not.toBe('—');
    expect(await table.getByRole('row').count()).toBe(2);
    await page.screenshot({ path: '/tmp/weft-schedules-page.png' });
    // (Read again every 30 s: the same one request each time.)
    expect(new Set(asked)).toEqual(new Set([`?workspaceId=${owner.workspaceId}&limit=500`]));

    // Pause and resume in place, as the runner then says.
    await row.getByRole('button', { name: 'Pause Morning report › Start' }).click();
    await expect.poll(status).toEqual(['paused']);
    await expect.poll(async () => (await cells())[6]).toBe('Paused');
    expect((await cells())[4]).toBe('—');
    await row.getByRole('button', { name: 'Resume Morning report › Start' }).click();
    await expect.poll(status).toEqual(['active']);
    await expect.poll(async () => (await cells())[6]).toBe('Active');

    // The workflow's name opens it in the editor.
    await row.getByRole('link', { name: 'Morning report' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('workflow')).toBe(workflowId);
    await page.locator('.react-flow__node.block-starter').waitFor();
    expect(errors).toEqual([]);
  });

  it("shows runs' triggers by label, filtered by the raw value", async () => {
    const { call, workflowId, open } = await newWorkflow('Trigger labels');
    expect((await call('POST', `/api/workflows/${workflowId}/execute`, {})).status).toBe(200);
    const { page, errors } = await open(chromium());
    const console_ = consoleOf(page);
    await console_.getByRole('tab', { name: 'History' }).click();
    const filter = console_.getByRole('combobox', { name: 'Filter runs by trigger' });
    expect(await filter.locator('option').allTextContents()).toEqual(['Any trigger', 'Manual', 'API', 'Webhook', 'Schedule', 'Chat', 'Workflow']);
    const runs = console_.getByRole('list', { name: 'Past runs' }).getByRole('button');
    await expect.poll(() => runs.locator('.badge').allTextContents(), { timeout: 15_000 }).toEqual(['Manual']);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/executions?')) asked.push(new URL(r.url()).searchParams.get('trigger') ?? '');
    });
    await filter.selectOption({ label: 'API' });
    await expect.poll(() => asked).toContain('api');
    await console_.getByText('No runs match.', { exact: true }).waitFor();
    await filter.selectOption({ label: 'Manual' });
    await expect.poll(() => runs.locator('.badge').allTextContents()).toEqual(['Manual']);
    expect(errors).toEqual([]);
  });

  it("shows every validation message of a block's fields at once, each on its field, and drops the one fixed", async () => {
    const { call, workflowId, open } = await newWorkflow('All messages');
    const { page, errors } = await open(chromium());
    const agent = await addAgent(page);
    const set = (subBlockId: string, value: string) => call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: agent, subBlockId, value }] });
    expect((await set('maxTokens', 'lots')).status).toBe(200);
    expect((await set('retries', '9')).status).toBe(200);
    await page.locator(`.react-flow__node[data-id="${agent}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    // Retries is an advanced field: shown with the advanced fields, its message on it.
    const advanced = panel.getByRole('checkbox', { name: 'Advanced mode' });
    if (!(await advanced.isChecked())) await advanced.check();
    const maxTokens = panel.locator('[data-field="maxTokens"] .field-error');
    const retries = panel.locator('[data-field="retries"] .field-error');
    await expect.poll(() => maxTokens.allTextContents(), { timeout: 15_000 }).toEqual(['Max Tokens must be a positive whole number (got lots)']);
    await expect.poll(() => retries.allTextContents()).toEqual(['Retries must be a whole number between 0 and 5']);

    // Fixed, a message goes; the other stays.
    expect((await set('maxTokens', '100')).status).toBe(200);
    await expect.poll(() => maxTokens.count()).toBe(0);
    expect(await retries.allTextContents()).toEqual(['Retries must be a whole number between 0 and 5']);
    expect(errors).toEqual([]);
  });

  it('creates a custom tool from the agent’s tool picker in a dialog over the canvas, and gives it to the agent', async () => {
    const { call, workflowId, open, state } = await newWorkflow('Tool in place');
    const { page, errors } = await open(chromium());
    const agent = await addAgent(page);
    await page.locator(`.react-flow__node[data-id="${agent}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
    await panel.getByRole('dialog', { name: 'Add a tool' }).getByRole('button', { name: 'Create a custom tool' }).click();

    const dialog = page.getByRole('dialog', { name: 'Create a custom tool' });
    await dialog.getByRole('textbox', { name: 'Tool title' }).waitFor();
    const where = new URL(page.url());
    expect([where.pathname, where.searchParams.get('workflow')]).toEqual(['/', workflowId]);
    // Checked as the settings page checks it: nothing saved until it is a tool.
    await dialog.getByRole('button', { name: 'Save and add to the agent' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Enter a title' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Tool title' }).fill('Shout');
    await dialog.getByRole('textbox', { name: 'Tool schema' }).fill(JSON.stringify({ type: 'function', function: { name: 'shout', description: 'Upper-cases its input', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } }));
    await dialog.getByRole('textbox', { name: 'Tool code' }).fill('return text.toUpperCase();');
    await page.screenshot({ path: '/tmp/weft-custom-tool-dialog.png' });
    await dialog.getByRole('button', { name: 'Save and add to the agent' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Saved with the user's tools, and on the agent, still on the canvas.
    const saved = (await call<{ data: Array<{ id: string; title: string; code: string }> }>('GET', '/api/tools/custom')).body.data;
    expect(saved.map((t) => [t.title, t.code])).toEqual([['Shout', 'return text.toUpperCase();']]);
    expect(saved[0]?.id).toMatch(/^custom_/);
    const tools = async () => ((await state()) as StoredState).blocks[agent]?.subBlocks['tools']?.value as Array<{ type: string; title: string; code?: string; schema?: { function?: { name?: string } } }> | undefined;
    await expect.poll(async () => (await tools())?.map((t) => [t.type, t.title, t.schema?.function?.name, t.code]), { timeout: 10_000 }).toEqual([['custom-tool', 'Shout', 'shout', 'return text.toUpperCase();']]);
    await panel.getByRole('list', { name: 'Tools' }).getByText('Upper-cases its input').waitFor();
    expect(new URL(page.url()).searchParams.get('workflow')).toBe(workflowId);
    // The picker offers it from now on.
    await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
    await panel.getByRole('dialog', { name: 'Add a tool' }).getByRole('button', { name: /Shout$/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
