import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import type { WorkflowAnswer } from './support/canvas.js';
import { addAgent, converged, fitView, openWorkflow } from './support/editing.js';
import { LOCAL_MODEL } from './support/modelFake.js';
import { as, signUp } from './support/session.js';

/** A block as GET /api/workflows/{id} answers it, with the fields the block panel edits. */
type EditedBlock = { id: string; type: string; name: string; enabled: boolean; subBlocks: Record<string, { value: unknown }> };

describe('the block panel', () => {
  const chromium = chromiumPerSuite();

  it('edits the selected block’s fields and settings, duplicates it, and shows the edits live on another page', async () => {
    const owner = await signUp('Block editor');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const read = async () => (await asOwner<{ data: WorkflowAnswer }>('GET', `/api/workflows/${workflowId}`)).body.data;
    const blocks = async () =>
      Object.values((await asOwner<{ data: { state: { blocks: Record<string, EditedBlock> } } }>('GET', `/api/workflows/${workflowId}`)).body.data.state.blocks);
    const cookie = owner.headers.cookie ?? '';
    const [a, b] = await Promise.all([openWorkflow(chromium(), cookie, workflowId), openWorkflow(chromium(), cookie, workflowId)]);

    // Nothing selected, no panel; A adds an agent and selects it, B selects it too.
    expect(await a.page.getByRole('region', { name: 'Block', exact: true }).count()).toBe(0);
    const blockId = await addAgent(a.page);
    await a.page.locator(`.react-flow__node[data-id="${blockId}"]`).click();
    // Click-to-add puts it right of the starter, outside B's view as opened: B fits the view to reach it.
    await b.page.locator(`.react-flow__node[data-id="${blockId}"]`).waitFor();
    await fitView(b.page);
    await b.page.locator(`.react-flow__node[data-id="${blockId}"]`).click();
    const panelA = a.page.getByRole('region', { name: 'Block', exact: true });
    const panelB = b.page.getByRole('region', { name: 'Block', exact: true });
    await panelA.getByRole('heading', { name: 'Agent 1' }).waitFor();
    await panelB.getByRole('heading', { name: 'Agent 1' }).waitFor();
    // Advanced-only fields show only in advanced mode, on both pages.
    expect(await panelA.getByLabel('Memories', { exact: true }).count()).toBe(0);
    await panelA.getByRole('checkbox', { name: 'Advanced mode', exact: true }).check();
    await panelB.getByRole('textbox', { name: 'Memories', exact: true }).waitFor();
    await panelA.getByRole('checkbox', { name: 'Advanced mode', exact: true }).uncheck();
    await panelB.getByRole('textbox', { name: 'Memories', exact: true }).waitFor({ state: 'detached' });

    // A sets the system prompt (sent on leaving the field) and the model (sent on Enter).
    const prompt = panelA.getByRole('textbox', { name: 'System Prompt', exact: true });
    await prompt.fill('You answer in haiku.');
    await prompt.blur();
    const model = panelA.getByRole('combobox', { name: 'Model', exact: true });
    // The local Ollama server's models are offered beside the catalogue's.
    await model.fill('llama');
    await panelA.getByRole('listbox', { name: 'Model' }).getByRole('group', { name: 'Local (Ollama)' }).getByRole('option', { name: LOCAL_MODEL }).waitFor();
    await model.fill('claude-sonnet-4-0');
    await model.press('Enter');

    // B's open panel shows the new prompt live.
    await expect.poll(() => panelB.getByRole('textbox', { name: 'System Prompt', exact: true }).inputValue(), { timeout: 10_000 }).toBe('You answer in haiku.');

    // The `<` menu reads the workflow when it opens (an edit elsewhere does not render the open panel
    // again): a variable someone else adds after the panel opened is offered. The menu is opened once
    // A's canvas is at the server's version, so A has the variable: opened before its event arrived, the
    // menu would list what A had then, and typing the same text again does not open it again (React
    // sends no change for an unchanged value) — on a loaded machine that waited out any poll.
    const added = await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'addVariable', name: 'greeting', variableType: 'plain', value: 'hi' }] });
    expect(added.status).toBe(200);
    await converged([a.page], read);
    const outputs = panelA.getByRole('listbox', { name: 'Block outputs' });
    await prompt.fill('You answer in haiku. <greet');
    await outputs.getByText('<variable.greeting>', { exact: true }).waitFor();
    await prompt.press('Escape');
    await prompt.fill('You answer in haiku.');
    await prompt.blur();

    // The agent's tools come from the tool picker: A adds Airtable; B's panel lists it.
    await panelA.getByRole('button', { name: 'Add tool', exact: true }).click();
    const picker = panelA.getByRole('dialog', { name: 'Add a tool' });
    await picker.getByRole('textbox', { name: 'Search tools' }).fill('Airtable');
    await picker.getByRole('button', { name: /Airtable$/ }).click();
    await panelB.getByRole('list', { name: 'Tools' }).getByText('Airtable', { exact: true }).waitFor();

    // A turns the block off, then duplicates it.
    await panelA.getByRole('checkbox', { name: 'Enabled', exact: true }).uncheck();
    await panelA.getByRole('button', { name: 'Duplicate block', exact: true }).click();
    await a.page.locator('.react-flow__node.block-agent').nth(1).waitFor();
    await converged([a.page, b.page], read);

    const agents = (await blocks()).filter((x) => x.type === 'agent');
    const edited = (x: EditedBlock) => ({
      name: x.name,
      enabled: x.enabled,
      systemPrompt: x.subBlocks['systemPrompt']?.value,
      model: x.subBlocks['model']?.value,
      tools: (x.subBlocks['tools']?.value as Array<{ type: string }> | undefined)?.map((t) => t.type),
    });
    const original = agents.find((x) => x.id === blockId);
    const copy = agents.find((x) => x.id !== blockId);
    const values = { enabled: false, systemPrompt: 'You answer in haiku.', model: 'claude-sonnet-4-0', tools: ['airtable'] };
    expect(original && edited(original)).toEqual({ name: 'Agent 1', ...values });
    expect(copy && edited(copy)).toEqual({ name: 'Agent 2', ...values });
    expect(await panelB.getByRole('checkbox', { name: 'Enabled', exact: true }).isChecked()).toBe(false);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("gives an agent a tool block with that block's own form: operation, account or token, the fields the user fixes", async () => {
    const owner = await signUp('Agent tools');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const { page, errors } = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const blockId = await addAgent(page);
    await page.locator(`.react-flow__node[data-id="${blockId}"]`).click();
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
    const picker = panel.getByRole('dialog', { name: 'Add a tool' });
    await picker.getByRole('textbox', { name: 'Search tools' }).fill('Slack');
    await picker.getByRole('button', { name: /Slack$/ }).click();

    // The card holds Slack's form at its defaults: send a message with the product bot's account.
    const card = panel.getByRole('group', { name: 'Slack settings' });
    const operation = card.getByRole('combobox', { name: 'Operation', exact: true });
    expect(await operation.inputValue()).toBe('send');
    await card.getByText('Slack Account', { exact: true }).waitFor();
    expect(await card.getByRole('textbox', { name: 'Message', exact: true }).count()).toBe(1);
    // A bot token instead of the account: the token field appears, masked.
    await card.getByRole('combobox', { name: 'Authentication Method', exact: true }).selectOption('bot_token');
    const token = card.getByLabel('Bot Token', { exact: true });
    await token.waitFor();
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill('xoxb-agent-tool');
    await token.blur();
    // Reading instead of sending: the message goes, the read limit comes.
    await operation.selectOption('read');
    await card.getByRole('textbox', { name: 'Message Limit', exact: true }).waitFor();
    expect(await card.getByRole('textbox', { name: 'Message', exact: true }).count()).toBe(0);

    // Stored as the block's form values: the runner picks slack_message_reader by the operation.
    const stored = async () => {
      const state = (await asOwner<{ data: { state: { blocks: Record<string, EditedBlock> } } }>('GET', `/api/workflows/${workflowId}`)).body.data.state;
      return state.blocks[blockId]?.subBlocks['tools']?.value as Array<Record<string, unknown>> | undefined;
    };
    await expect.poll(async () => (await stored())?.[0]?.['params'], { timeout: 10_000 }).toMatchObject({ operation: 'read', authMethod: 'bot_token', botToken: 'xoxb-agent-tool' });
    const [slack] = (await stored()) ?? [];
    expect(slack).toMatchObject({ type: 'slack', title: 'Slack', usageControl: 'auto' });
    expect(slack).not.toHaveProperty('toolId');
    await page.screenshot({ path: '/tmp/weft-agent-tool-card.png' });
    expect(errors).toEqual([]);
  });

  it('says in the tool picker when the custom tools do not load, in spec 000 §8’s words, and still offers the tool blocks', async () => {
    const owner = await signUp('Custom tools down');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const commands = [{ type: 'addBlock', id: 'writer', blockType: 'agent', position: { x: 420, y: 80 } }];
    expect((await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands })).status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const customTools = '**/api/tools/custom';
    const answer = (status: number, body: unknown) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
    const openPicker = async () => {
      await page.locator('.react-flow__node[data-id="writer"]').click();
      const panel = page.getByRole('region', { name: 'Block', exact: true });
      await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
      return panel.getByRole('dialog', { name: 'Add a tool' });
    };

    // The registry failing: its status text, and Slack can still be added.
    await page.route(customTools, (route) => route.fulfill(answer(500, { error: 'the registry is down' })));
    let picker = await openPicker();
    await picker.getByRole('alert').filter({ hasText: 'Failed to load custom tools: Internal Server Error' }).waitFor({ timeout: 15_000 });
    expect(await picker.getByRole('button', { name: /Slack$/ }).count()).toBe(1);

    // An answer whose data is not a list.
    await page.unroute(customTools);
    await page.route(customTools, (route) => route.fulfill(answer(200, { data: { tools: [] } })));
    await page.reload();
    picker = await openPicker();
    await picker.getByRole('alert').filter({ hasText: 'Invalid response format' }).waitFor({ timeout: 15_000 });

    // Loaded: the valid tools are offered (an invalid one skipped, spec 000 §5), and no error is shown.
    await page.unroute(customTools);
    const schema = { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } };
    await page.route(customTools, (route) => route.fulfill(answer(200, { data: [{ id: 't1', title: 'Weather', schema, code: 'return 1;' }, { id: 't2', title: 'Broken' }] })));
    await page.reload();
    picker = await openPicker();
    await picker.getByRole('button', { name: /Weather$/ }).waitFor({ timeout: 15_000 });
    expect(await picker.getByRole('button', { name: /Broken$/ }).count()).toBe(0);
    expect(await picker.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("offers upstream outputs with `<` and environment variables with `{{` in a condition's rows and a table's cells", async () => {
    const owner = await signUp('Reference rows');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const state = (await asOwner<{ data: { state: { blocks: Record<string, EditedBlock> } } }>('GET', `/api/workflows/${workflowId}`)).body.data.state;
    const starter = Object.values(state.blocks).find((b) => b.type === 'starter');
    const commands = [
      { type: 'addBlock', id: 'branch', blockType: 'condition', position: { x: 420, y: 80 } },
      { type: 'addBlock', id: 'call', blockType: 'api', position: { x: 420, y: 320 } },
      { type: 'addEdge', source: starter?.id ?? '', target: 'branch' },
      { type: 'addEdge', source: starter?.id ?? '', target: 'call' },
    ];
    expect((await asOwner('POST', `/api/workflows/${workflowId}/commands`, { commands })).status).toBe(200);
    expect((await asOwner('POST', '/api/environment', { variables: { SERVICE_TOKEN: 'secret-value' } })).status).toBe(200);
    const { page, errors } = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    const subBlock = async (blockId: string, id: string) =>
      (await asOwner<{ data: { state: { blocks: Record<string, EditedBlock> } } }>('GET', `/api/workflows/${workflowId}`)).body.data.state.blocks[blockId]?.subBlocks[id]?.value;

    // The condition's first row: `<sta` offers the starter's input; Enter takes it, leaving sends it.
    await page.locator('.react-flow__node[data-id="branch"]').click();
    const row = panel.getByRole('textbox', { name: 'Condition 1 (if)', exact: true });
    await row.fill('<sta');
    const outputs = panel.getByRole('listbox', { name: 'Block outputs' });
    await outputs.getByText('<start.input>', { exact: true }).waitFor();
    await row.press('Enter');
    await row.pressSequentially(" === 'go'");
    await row.blur();
    await expect.poll(async () => String(await subBlock('branch', 'conditions')), { timeout: 10_000 }).toContain("<start.input> === 'go'");

    // A header's value: `{{SERV` offers the environment variable.
    await page.locator('.react-flow__node[data-id="call"]').click();
    const key = panel.getByRole('textbox', { name: 'Headers row 1 Key', exact: true });
    await key.fill('Authorization');
    await key.press('Enter');
    const value = panel.getByRole('textbox', { name: 'Headers row 1 Value', exact: true });
    await value.fill('Bearer {{SERV');
    await panel.getByRole('listbox', { name: 'Environment variables' }).getByText('{{SERVICE_TOKEN}}', { exact: true }).waitFor();
    await value.press('Enter');
    await value.press('Enter');
    await expect
      .poll(async () => JSON.stringify(await subBlock('call', 'headers')), { timeout: 10_000 })
      .toMatch(/"Key":"Authorization","Value":"Bearer \{\{SERVICE_TOKEN\}\}"/);
    await page.screenshot({ path: '/tmp/weft-reference-rows-focused.png' });
    await value.blur();
    await page.screenshot({ path: '/tmp/weft-reference-rows.png' });
    expect(errors).toEqual([]);
  });
});
