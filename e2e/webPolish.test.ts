/**
 * The web app's finish (issue 14's quality bar): the copilot's composer by keyboard, "Run from <block>"
 * carrying the Run button's streamed-blocks choice, the toast of a tab left behind by a deploy, and a
 * tour of every page (the empty home page, the payments page, the editor, settings, an opened knowledge
 * base and its search) that saves a screenshot of each (`weft-tour-*.png` in the temp directory) and
 * fails on a control left in the browser's own look.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { openWorkflow } from './support/editing.js';
import { as, signUp } from './support/session.js';
import { newWorkflow, openNewWorkflow } from './support/workflows.js';
import { showSidebar } from './support/layout.js';
import { scriptModel } from './support/modelScripts.js';
import { consoleOf, logOf, runStatus } from './support/runConsole.js';

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(tmpdir(), `weft-tour-${name}.png`), animations: 'disabled' });

/**
 * The visible controls that keep the browser's default look: a button with the UA's grey face, a
 * text field, select or textarea with the UA's #767676 border, or a slider drawn by the browser (its
 * `appearance` still `auto`, even when tinted with `accent-color`). Answers a description of each.
 */
function rawControls(page: Page): Promise<string[]> {
  // A script (the e2e project has no DOM types): runs in the page.
  return page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, select, textarea, input')) {
      if (el.tagName === 'INPUT' && ['checkbox', 'radio', 'hidden', 'file'].includes(el.type)) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.opacity === '0') continue;
      const name = el.tagName.toLowerCase() + ' "' + (el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 30)) + '"';
      if (el.tagName === 'INPUT' && el.type === 'range') {
        const slider = 'slider "' + ((el.labels && el.labels[0] && el.labels[0].textContent) || el.getAttribute('aria-label') || '').trim() + '"';
        if (style.appearance !== 'none') out.push(slider + ": the browser's default slider");
      } else if (el.tagName === 'BUTTON' && style.backgroundColor === 'rgb(239, 239, 239)') out.push(name + ": the browser's grey button");
      else if (el.tagName !== 'BUTTON' && style.borderTopColor === 'rgb(118, 118, 118)') out.push(name + ": the browser's default border");
    }
    return out;
  })()`);
}

describe('the web app’s finish in Chromium', () => {
  const chromium = chromiumPerSuite();

  it('the copilot’s composer: Shift+Enter is a new line, Enter sends, Send waits for the reply, the box grows and empties', async () => {
    const { page, errors, workflowId } = await openNewWorkflow(chromium(), 'Composer user');
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    const send = panel.getByRole('button', { name: 'Send' });

    // Empty: a hint and suggestions; a suggestion goes into the box.
    await panel.getByRole('list', { name: 'Suggestions' }).waitFor();
    expect(await send.isDisabled()).toBe(true);
    await panel.getByRole('button', { name: 'Explain what this workflow does' }).click();
    expect(await box.inputValue()).toBe('Explain what this workflow does');
    expect(await send.isDisabled()).toBe(false);

    // The chat call is held until the test answers it, so the waiting state can be looked at.
    const bodies: Array<Record<string, unknown>> = [];
    let answer: ((sse: string) => Promise<void>) | undefined;
    await page.route('**/api/copilot/chat', (route: Route) => {
      bodies.push(route.request().postDataJSON() as Record<string, unknown>);
      answer = (sse) => route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: sse });
    });

    await box.fill('Add a Slack step');
    const oneLine = (await box.boundingBox())?.height ?? 0;
    await box.press('Shift+Enter');
    await box.pressSequentially('after the agent');
    await box.press('Shift+Enter');
    await box.pressSequentially('and name it Notify');
    expect(await box.inputValue()).toBe('Add a Slack step\nafter the agent\nand name it Notify');
    expect(bodies).toEqual([]);
    // The box grew with its three lines.
    expect((await box.boundingBox())?.height ?? 0).toBeGreaterThan(oneLine + 20);

    await box.press('Enter');
    await expect.poll(() => bodies.length).toBe(1);
    expect(bodies[0]).toEqual({ message: 'Add a Slack step\nafter the agent\nand name it Notify', workflowId, propose: false });
    // Sent: the box is empty (and one line again), the message is a bubble, the copilot is typing, Send waits.
    expect(await box.inputValue()).toBe('');
    await expect.poll(async () => (await box.boundingBox())?.height ?? 0).toBeLessThan(oneLine + 4);
    await panel.locator('.copilot-user').getByText('and name it Notify', { exact: false }).waitFor();
    await panel.getByLabel('The copilot is replying').waitFor();
    // The next message can be written meanwhile, but Enter does not send it: until the reply ends Send is Stop.
    await box.fill('Thanks');
    await box.press('Enter');
    expect(await send.count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Stop' }).getAttribute('title')).toBe('Stop');
    expect(await box.inputValue()).toBe('Thanks');
    await shot(page, 'copilot-waiting');

    const events = [
      { type: 'start', chatId: 'chat-e2e' },
      { type: 'tool_call', toolCallId: 't0', toolName: 'get_user_workflow', state: 'executing' },
      { type: 'tool_call', toolCallId: 't0', toolName: 'get_user_workflow', state: 'completed' },
      { type: 'tool_call', toolCallId: 't1', toolName: 'edit_workflow', state: 'completed' },
      { type: 'tool_call', toolCallId: 't2', toolName: 'lookup_weather', state: 'error', error: 'Unknown tool: lookup_weather' },
      { type: 'content', data: 'Added **Notify** after the agent.' },
      { type: 'done', content: 'Added **Notify** after the agent.' },
    ];
    await answer?.(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
    // The answer's Markdown is drawn: **Notify** in bold.
    await panel.locator('.copilot-assistant strong').getByText('Notify', { exact: true }).waitFor();
    expect(await panel.locator('.copilot-assistant').first().textContent()).toBe('Added Notify after the agent.');
    // Each tool call is a line with its display name (spec 001 §9) and how it ended; an unknown tool is 'Executing {tool}'.
    const toolLines = panel.locator('.tool-state');
    await expect.poll(() => toolLines.count()).toBe(3);
    expect(await panel.locator('.tool-name').allTextContents()).toEqual(['Analyzing your workflow', 'Building your workflow', 'Executing lookup_weather']);
    expect(await panel.locator('.tool-label').allTextContents()).toEqual(['done', 'done', 'failed']);
    expect(await toolLines.nth(2).getAttribute('title')).toBe('Unknown tool: lookup_weather');
    await expect.poll(() => send.isDisabled()).toBe(false);
    expect(await panel.getByLabel('The copilot is replying').count()).toBe(0);

    // The next message goes on in the same chat.
    await box.press('Enter');
    await expect.poll(() => bodies.length).toBe(2);
    expect(bodies[1]).toEqual({ message: 'Thanks', workflowId, chatId: 'chat-e2e', propose: false });
    await answer?.(`data: ${JSON.stringify({ type: 'done', content: 'You are welcome.' })}\n\n`);
    await panel.getByText('You are welcome.').waitFor();
    await shot(page, 'copilot');
    expect(await rawControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('the copilot’s Stop: while the answer streams Send is Stop; stopping keeps the partial answer marked Stopped, and the chat goes on', async () => {
    const { page, errors, call } = await openNewWorkflow(chromium(), 'Stop user');
    expect((await call('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-stop-e2e' } })).status).toBe(200);
    const marker = `[stop-${Date.now().toString(36)}]`;
    // 400 words 150 ms apart stream for a minute: Stop lands while the answer still streams however slowly the
    // page draws its first words (80 words, 12 s, could end first on a loaded machine, leaving nothing to stop).
    const answer = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    await scriptModel(marker, [{ content: answer, sseIntervalMs: 150 }, { content: 'Carrying on from there.' }]);
    const panel = page.getByRole('region', { name: 'Copilot' });
    const box = panel.getByRole('textbox', { name: 'Ask the copilot' });
    await box.fill(`Write a long answer ${marker}`);
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.copilot-assistant').getByText('word0 word1 word2', { exact: false }).waitFor({ timeout: 30_000 });
    const stop = panel.getByRole('button', { name: 'Stop' });
    expect(await stop.getAttribute('title')).toBe('Stop');
    expect(await panel.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await stop.click();
    await panel.locator('.copilot-stopped').getByText('Stopped', { exact: true }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Send' }).waitFor();
    const partial = (await panel.locator('.copilot-assistant .copilot-bubble').last().textContent()) ?? '';
    expect(partial).toMatch(/^word0 word1 word2/);
    expect(partial.length).toBeLessThan(answer.length);
    await shot(page, 'copilot-stopped');

    await box.fill(`Go on ${marker}`);
    await box.press('Enter');
    await panel.getByText('Carrying on from there.').waitFor({ timeout: 30_000 });
    expect(await panel.locator('.copilot-stopped').count()).toBe(1);
    expect(await rawControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('“Run from <block>” sends the Run button’s streamed-blocks choice, and only the chosen block’s tokens come back', async () => {
    const { call: asOwner, workflowId, starter, open } = await newWorkflow('Rerun chooser');
    const agent = (id: string, name: string, y: number) => [
      { type: 'addBlock', id, blockType: 'agent', name, position: { x: 700, y } },
      { type: 'setSubBlockValue', id, subBlockId: 'model', value: 'gpt-4o' },
      { type: 'setSubBlockValue', id, subBlockId: 'apiKey', value: 'sk-e2e' },
      { type: 'setSubBlockValue', id, subBlockId: 'userPrompt', value: `Say hello, ${name}` },
      { type: 'addEdge', id: `to-${id}`, source: 'prep', target: id },
    ];
    const edit = await asOwner('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'prep', blockType: 'function', name: 'Prep', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'prep', subBlockId: 'code', value: 'return "ready"' },
        { type: 'addEdge', id: 'to-prep', source: starter, target: 'prep' },
        ...agent('writer', 'Writer', -120),
        ...agent('critic', 'Critic', 150),
      ],
    });
    expect(edit.status).toBe(200);
    const { page, errors } = await open(chromium());
    const streamedIn = async (text: string) => new Set(text.split('\n\n').filter((m) => m.includes('event: stream:chunk')).map((m) => /"blockId":"(\w+)"/.exec(m)?.[1]));

    // A first run with every block streaming.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');

    // The Critic off: "Run from Prep" sends the choice, and the server streams the Writer only.
    await page.getByRole('button', { name: 'Streamed blocks' }).click();
    const chips = page.getByRole('dialog', { name: 'Stream model tokens of' }).getByRole('group', { name: 'Streamed blocks' });
    await chips.getByText('Critic', { exact: true }).click();
    await expect.poll(() => chips.locator('label.on').allTextContents()).toEqual(['Writer']);
    await page.keyboard.press('Escape');
    const prep = logOf(page, 'Prep');
    await prep.getByRole('button').first().click();
    const isRerun = (r: { url(): string }) => r.url().endsWith('/rerun');
    const [request] = await Promise.all([page.waitForRequest(isRerun), prep.getByRole('button', { name: 'Run from Prep' }).click()]);
    expect(request.postDataJSON()).toEqual({ fromBlockId: 'prep', stream: true, selectedOutputs: ['writer'] });
    const response = await request.response();
    expect(await streamedIn((await response?.text()) ?? '')).toEqual(new Set(['writer']));
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    await shot(page, 'run-console');

    // Both on again: the rerun sends no choice (every model block streams).
    await page.getByRole('button', { name: 'Streamed blocks' }).click();
    await chips.getByText('Critic', { exact: true }).click();
    await expect.poll(() => chips.locator('label.on').allTextContents()).toEqual(['Writer', 'Critic']);
    await page.keyboard.press('Escape');
    await prep.getByRole('button').first().click();
    const [again] = await Promise.all([page.waitForRequest(isRerun), prep.getByRole('button', { name: 'Run from Prep' }).click()]);
    expect(again.postDataJSON()).toEqual({ fromBlockId: 'prep', stream: true });
    expect(await streamedIn((await (await again.response())?.text()) ?? '')).toEqual(new Set(['writer', 'critic']));
    expect(errors).toEqual([]);
  });

  it('a rerun’s selectedOutputs naming no block of the workflow is refused naming it', async () => {
    const { call: asOwner, workflowId, starter } = await newWorkflow('Rerun refused');
    const ran = await asOwner<{ metadata: { executionId: string } }>('POST', `/api/workflows/${workflowId}/execute`, {});
    const executionId = ran.body.metadata.executionId;
    const refused = await asOwner('POST', `/api/executions/${executionId}/rerun`, { fromBlockId: starter, selectedOutputs: ['nobody'] });
    expect(refused).toMatchObject({ status: 400, body: { error: 'selectedOutputs: no block "nobody" in the workflow this execution ran' } });
    const notList = await asOwner('POST', `/api/executions/${executionId}/rerun`, { fromBlockId: starter, selectedOutputs: 'Start' });
    expect(notList).toMatchObject({ status: 400, body: { error: 'selectedOutputs must be a list of block ids or names' } });
  });

  it('a tour of every page: each drawn with the app’s controls (screenshots weft-tour-*.png)', async () => {
    // Signed out: sign-in and sign-up.
    const context = await chromium().newContext({ viewport: { width: 1280, height: 800 } });
    const anonymous = await context.newPage();
    await anonymous.goto(`${inject('weftUrl')}/sign-in`);
    await anonymous.getByRole('form', { name: 'Sign in' }).waitFor();
    await shot(anonymous, 'sign-in');
    expect(await rawControls(anonymous)).toEqual([]);
    await anonymous.getByRole('link', { name: 'Sign up' }).click();
    await anonymous.getByRole('form', { name: 'Sign up' }).waitFor();
    await shot(anonymous, 'sign-up');
    expect(await rawControls(anonymous)).toEqual([]);

    // Signed in to a workspace without workflows: the home page has a "New workflow" button of its own.
    const owner = await signUp('Tour guide');
    const asOwner = as(owner);
    const home = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/');
    await home.page.getByRole('heading', { name: 'No workflows yet' }).waitFor({ timeout: 15_000 });
    const create = home.page.getByRole('main').getByRole('button', { name: 'New workflow' });
    await shot(home.page, 'home-empty');
    expect(await rawControls(home.page)).toEqual([]);

    // At the plan's workflow limit the registry answers 403 with upgradeRequired (spec 000 §8; the stack's
    // WEFT_WORKFLOW_LIMIT is 500, so that answer is given here): the app goes to the payments page with its message.
    const limit = 'Workflow creation limit reached. Please upgrade your plan to create more workflows.';
    await home.page.route('**/api/workflows', (route: Route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: limit, upgradeRequired: true }) }) : route.fallback(),
    );
    await create.click();
    await home.page.getByRole('heading', { name: 'Upgrade your plan' }).waitFor();
    expect(new URL(home.page.url()).pathname).toBe('/payments');
    await home.page.getByRole('status').filter({ hasText: limit }).waitFor();
    await shot(home.page, 'payments');
    expect(await rawControls(home.page)).toEqual([]);
    await home.page.unroute('**/api/workflows');

    // Back home, the empty page's button creates a workflow and opens it.
    await home.page.getByRole('button', { name: 'Back to workflows' }).click();
    await create.click();
    await home.page.locator('.react-flow__node.block-starter').waitFor({ timeout: 15_000 });
    const listed = await asOwner<{ data: Array<{ id: string }> }>('GET', `/api/workflows?workspaceId=${owner.workspaceId}`);
    expect(listed.body.data.map((w) => w.id)).toEqual([new URL(home.page.url()).searchParams.get('workflow')]);
    expect(home.errors).toEqual([]);

    // A workspace with folders, a workflow with an agent.
    const folder = await asOwner<{ folder: { id: string } }>('POST', '/api/folders', { workspaceId: owner.workspaceId, name: 'Reports' });
    await asOwner('POST', '/api/folders', { workspaceId: owner.workspaceId, name: 'Sales pipeline automations' });
    await asOwner('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Weekly digest', folderId: folder.body.folder.id });
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId, name: 'Customer support triage' })).body.id;
    const got = await asOwner<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${workflowId}`);
    const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter')?.id ?? '';
    await asOwner('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'triage', blockType: 'agent', name: 'Triage', position: { x: 400, y: 0 } },
        { type: 'setSubBlockValue', id: 'triage', subBlockId: 'model', value: 'gpt-4o' },
        { type: 'setSubBlockValue', id: 'triage', subBlockId: 'apiKey', value: 'sk-e2e' },
        { type: 'setSubBlockValue', id: 'triage', subBlockId: 'userPrompt', value: 'Sort this ticket' },
        { type: 'addEdge', id: 'e1', source: starter, target: 'triage' },
      ],
    });
    const { page, errors } = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    await showSidebar(page);
    await page.getByRole('list', { name: 'Folders' }).getByText('Reports', { exact: true }).waitFor();
    await shot(page, 'canvas');
    expect(await rawControls(page)).toEqual([]);

    // The block panel of the agent.
    await page.locator('.react-flow__node[data-id="triage"]').click();
    await page.getByRole('heading', { name: 'Triage' }).waitFor();
    await shot(page, 'block-panel');
    expect(await rawControls(page)).toEqual([]);
    // The temperature slider is the app's (track, accent fill, thumb, its value in a box); by keyboard its
    // focus ring shows. Given back to the browser's look, the check names it.
    const temperature = page.getByRole('slider', { name: 'Temperature' });
    await temperature.focus();
    await temperature.press('ArrowRight');
    await temperature.press('ArrowLeft');
    expect(await page.getByRole('spinbutton', { name: 'Temperature value' }).inputValue()).toBe('0.7');
    await page.locator('[data-field="temperature"]').screenshot({ path: path.join(tmpdir(), 'weft-tour-slider.png'), animations: 'disabled' });
    const setAppearance = (to: string) => page.evaluate(`document.querySelector('[data-field="temperature"] input[type="range"]').style.appearance = '${to}'`);
    await setAppearance('auto');
    expect(await rawControls(page)).toEqual(["slider \"Temperature\": the browser's default slider"]);
    await setAppearance('');
    expect(await rawControls(page)).toEqual([]);

    // A run and its console.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    await logOf(page, 'Triage').getByRole('button').first().click();
    await shot(page, 'run-log');
    const console_ = consoleOf(page);
    await console_.getByRole('tab', { name: 'History' }).click();
    await console_.getByRole('list', { name: 'Past runs' }).getByRole('button').first().waitFor();
    await shot(page, 'run-history');
    expect(await rawControls(page)).toEqual([]);

    // The deploy dialog.
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const deploy = page.getByRole('dialog', { name: 'Deploy' });
    await deploy.getByText('Not deployed', { exact: true }).waitFor();
    await shot(page, 'deploy');
    await deploy.getByRole('button', { name: 'Deploy', exact: true }).click();
    await deploy.getByText('Deployed', { exact: true }).waitFor({ timeout: 30_000 });
    await shot(page, 'deployed');
    expect(await rawControls(page)).toEqual([]);
    await page.keyboard.press('Escape');

    // Every settings page, once its content has loaded.
    const settingsPages: Array<[string, string, () => Promise<void>]> = [
      ['environment', 'Environment variables', () => page.getByText('No variables yet.', { exact: false }).waitFor()],
      ['custom-tools', 'Custom tools', () => page.getByText('No custom tools yet.').waitFor()],
      ['api-keys', 'API keys', () => page.getByText('No API keys yet.').waitFor()],
      ['members', 'Members', () => page.getByRole('list', { name: 'Members' }).getByText(owner.email).waitFor()],
      ['connections', 'Connections', () => page.getByRole('button', { name: 'Slack', exact: true }).waitFor()],
      ['knowledge', 'Knowledge', () => page.getByText('No knowledge bases yet.').waitFor()],
    ];
    for (const [tab, heading, loaded] of settingsPages) {
      await page.goto(`${inject('weftUrl')}/settings/${tab}`);
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor({ timeout: 15_000 });
      await loaded();
      await shot(page, `settings-${tab}`);
      expect(await rawControls(page)).toEqual([]);
    }
    // The custom tool editor.
    await page.goto(`${inject('weftUrl')}/settings/custom-tools`);
    await page.getByRole('button', { name: 'New custom tool' }).click();
    await page.getByRole('form', { name: 'Custom tool editor' }).getByRole('textbox', { name: 'Tool code' }).waitFor();
    await shot(page, 'custom-tool-editor');
    expect(await rawControls(page)).toEqual([]);

    // An opened knowledge base: its documents, and a search by meaning (embedded by the stack's OpenAI fake).
    expect((await asOwner('POST', '/api/environment', { variables: { OPENAI_API_KEY: 'sk-tour' } })).status).toBe(200);
    const base = await asOwner<{ knowledgeBase: { id: string } }>('POST', '/api/knowledge', { workspaceId: owner.workspaceId, name: 'Support handbook', description: 'How the support team answers customers' });
    expect(base.status).toBe(201);
    const documents = {
      refunds: 'Refunds are paid back to the card the customer used, within 14 days of the return arriving.',
      shipping: 'Orders ship within two working days; the tracking number arrives by email.',
    };
    for (const [name, content] of Object.entries(documents)) {
      expect((await asOwner('POST', `/api/knowledge/${base.body.knowledgeBase.id}/documents`, { name, content })).status).toBe(201);
    }
    await page.goto(`${inject('weftUrl')}/settings/knowledge`);
    await page.getByRole('list', { name: 'Knowledge bases' }).getByRole('button', { name: 'Support handbook', exact: true }).click();
    const knowledgeBase = page.getByRole('region', { name: 'Knowledge base Support handbook' });
    await expect.poll(() => knowledgeBase.getByRole('list', { name: 'Documents' }).locator('strong').allTextContents()).toHaveLength(2);
    await shot(page, 'knowledge-base');
    expect(await rawControls(page)).toEqual([]);
    await knowledgeBase.getByRole('searchbox', { name: 'Search query' }).fill(documents.refunds);
    await knowledgeBase.getByRole('button', { name: 'Search', exact: true }).click();
    const results = knowledgeBase.getByRole('list', { name: 'Search results' });
    await results.waitFor({ timeout: 30_000 });
    // Both documents' chunks come back, the one the query repeats first, as a full match.
    await expect.poll(() => results.locator('strong').allTextContents()).toEqual([expect.stringMatching(/^refunds/), expect.stringMatching(/^shipping/)]);
    expect(await results.getByRole('listitem').first().textContent()).toContain('100% match');
    await shot(page, 'knowledge-search');
    expect(await rawControls(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('an event type the tab’s bundle does not know (a newer Weft deployed): the tab loads the state again and its “Weft was updated” toast stays, with a Reload that reloads the page', async () => {
    const { call, workflowId, starter, page, errors } = await openNewWorkflow(chromium(), 'Outdated tab');
    // The live stream the next page load opens carries one event a newer Weft wrote: a real edit (so the
    // state the tab loads again holds its version) under a type this build does not know; later streams are real.
    let sent = false;
    await page.route(`**/api/workflows/${workflowId}/events?*`, async (route: Route) => {
      if (sent) return route.fallback();
      sent = true;
      const after = Number(new URL(route.request().url()).searchParams.get('after'));
      const renamed = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'renameBlock', id: starter, name: 'Renamed by a newer Weft' }] });
      expect(renamed.status).toBe(200);
      const event = { version: after + 1, type: 'blockRecoloured', data: { type: 'blockRecoloured', at: Date.now(), id: starter, colour: '#f00' } };
      await route.fulfill({ status: 200, contentType: 'text/event-stream', body: `id: ${event.version}\ndata: ${JSON.stringify(event)}\n\n` });
    });
    // A fake clock (flowing as the real one) lets the test pass the toasts' lifetimes without waiting them out.
    await page.clock.install();
    await page.reload();
    const toast = page.getByTestId('toast').filter({ hasText: 'Weft was updated — reload the page to get the latest version' });
    await toast.waitFor({ timeout: 15_000 });
    await page.locator(`.react-flow__node[data-id="${starter}"]`).filter({ hasText: 'Renamed by a newer Weft' }).waitFor({ timeout: 15_000 });
    // An info toast leaves after 4 s: this one stays until dismissed, however long the user was away. An
    // ordinary one shown beside it (copying the starter) is the control: once it has gone, the clock has passed.
    await page.locator(`.react-flow__node[data-id="${starter}"]`).click({ position: { x: 8, y: 8 } });
    await page.keyboard.press('Control+c');
    const copied = page.getByTestId('toast').filter({ hasText: 'Copied 1 block' });
    await copied.waitFor();
    await page.clock.fastForward(60_000);
    await expect.poll(() => copied.count()).toBe(0);
    expect(await toast.count()).toBe(1);
    await shot(page, 'outdated-toast');
    expect(await rawControls(page)).toEqual([]);
    // Its Reload loads the page again (the new bundle), where the tab is up to date: no toast.
    await Promise.all([page.waitForEvent('load'), toast.getByRole('button', { name: 'Reload', exact: true }).click()]);
    await page.getByText('live', { exact: true }).waitFor({ timeout: 15_000 });
    await page.locator(`.react-flow__node[data-id="${starter}"]`).filter({ hasText: 'Renamed by a newer Weft' }).waitFor({ timeout: 15_000 });
    expect(await toast.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
