import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { addFromPalette } from './support/editing.js';
import { answerOnce, receivedBy } from './support/serviceFakes.js';
import { as, type TestUser } from './support/session.js';
import { newWorkflow } from './support/workflows.js';

const POLL = { timeout: 15_000 };
const shot = (name: string) => path.join(tmpdir(), `weft-selector-${name}.png`);

/** Connects an account of `provider` for `user` through the registry's OAuth routes (the fake provider grants it at once). */
async function connect(user: TestUser, provider: string): Promise<string> {
  const started = await fetch(`${inject('weftUrl')}/api/auth/oauth/authorize/${provider}`, { headers: user.headers, redirect: 'manual' });
  expect(started.status).toBe(302);
  const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const done = await as(user)<{ credential: { id: string } }>('GET', `/api/auth/oauth/callback?state=${encodeURIComponent(state)}&code=code-${provider}-selectors`);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.credential.id;
}

/** The names the open list of a selector shows, in order. */
const optionNames = (page: Page, label = 'Channel') => page.getByRole('listbox', { name: label, exact: true }).locator('.selector-option-name').allTextContents();

/** The JQL of each issue search the Jira fake received, oldest first. */
async function jqlSent(): Promise<string[]> {
  const searches = (await receivedBy(inject('serviceFakeUrls').jira)).filter((r) => r.method === 'POST' && r.path.endsWith('/rest/api/3/search/jql'));
  return searches.map(({ body }) => (typeof body === 'object' && body !== null && 'jql' in body ? String(body.jql) : ''));
}

/**
 * A new user's workflow with one block `blockType` (id `block`) holding a connected `provider` account
 * and `values`, opened in Chromium with the block selected; `stored` reads a field of it from the server.
 */
async function openBlockWithAccount(browser: Browser, userName: string, provider: string, blockType: string, values: Record<string, string> = {}) {
  const { owner, call, workflowId, stored: storedOf, open } = await newWorkflow(userName);
  const credential = await connect(owner, provider);
  const setValues = Object.entries({ ...values, credential }).map(([subBlockId, value]) => ({ type: 'setSubBlockValue', id: 'block', subBlockId, value }));
  const added = await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'addBlock', id: 'block', blockType, position: { x: 420, y: 60 } }, ...setValues] });
  expect(added.status).toBe(200);
  const stored = (field: string) => storedOf('block', field);
  const { page, errors } = await open(browser);
  await page.locator('.react-flow__node[data-id="block"]').click({ position: { x: 8, y: 8 } });
  return { call, workflowId, stored, page, errors, panel: page.getByRole('region', { name: 'Block', exact: true }) };
}

describe('resource selectors in the block form (Chromium)', () => {
  const chromium = chromiumPerSuite();

  it("lists a Slack block's channels by name once an account is chosen, searches them, pages them with Load more and keeps the pick by id; a bot token from the environment lists them too", async () => {
    const { owner, call, workflowId, stored, open } = await newWorkflow('Selector user');
    const credential = await connect(owner, 'slack');
    const { page, errors } = await open(chromium());
    const slack = await addFromPalette(page, 'Slack', 'slack');
    await page.locator(`.react-flow__node[data-id="${slack}"]`).click({ position: { x: 8, y: 8 } });
    const panel = page.getByRole('region', { name: 'Block', exact: true });
    const field = panel.locator('[data-field="channel"]');
    const channel = panel.getByRole('combobox', { name: 'Channel', exact: true });

    // No account yet: the server's message is a hint under the field, not an error (nor a toast).
    await field.locator('.field-hint').filter({ hasText: 'Select an account in "Slack Account" first' }).waitFor(POLL);
    expect(await field.locator('.field-error').filter({ hasText: 'Select an account' }).count()).toBe(0);
    await page.screenshot({ path: shot('hint') });
    expect(await page.getByRole('alert').filter({ hasText: 'Select an account' }).count()).toBe(0);

    // The account chosen, the list is asked again with it: the fake workspace's channels by name, a private one marked.
    await panel.getByLabel('Slack Account', { exact: true }).selectOption(credential);
    await expect.poll(() => stored(slack, 'credential'), POLL).toBe(credential);
    await expect.poll(() => field.locator('.field-hint').count(), POLL).toBe(0);
    await channel.click();
    await expect.poll(() => optionNames(page), POLL).toEqual(['#general', '#random', '#eng-private', '#design', '#general-announcements']);
    expect(await page.getByRole('option', { name: /#eng-private/ }).textContent()).toContain('Private channel');
    await page.screenshot({ path: shot('list') });

    // Typing searches (on the server: Slack cannot, so it filters by name there); arrows and Enter pick.
    await channel.pressSequentially('gen');
    await expect.poll(() => optionNames(page), POLL).toEqual(['#general', '#general-announcements']);
    const searched = (await receivedBy(inject('serviceFakeUrls').slack)).filter((r) => r.path === '/conversations.list');
    expect(searched.at(-1)?.headers.authorization).toBe('Bearer token-slack');
    await channel.press('ArrowDown');
    await page.screenshot({ path: shot('search') });
    await channel.press('Enter');
    await expect.poll(() => stored(slack, 'channel'), POLL).toBe('C024BE94P');
    expect(await page.getByRole('listbox', { name: 'Channel' }).count()).toBe(0);
    expect(await channel.inputValue()).toBe('#general-announcements');

    // Escape closes the list and keeps the choice; the block stays selected.
    await channel.click();
    await page.getByRole('listbox', { name: 'Channel', exact: true }).waitFor();
    await channel.press('Escape');
    expect(await page.getByRole('listbox', { name: 'Channel' }).count()).toBe(0);
    expect(await channel.inputValue()).toBe('#general-announcements');
    expect(await panel.count()).toBe(1);
    await page.screenshot({ path: shot('chosen') });

    // Switched to a custom bot: without a token the hint says what to fill; with one from the
    // environment ({{SLACK_BOT_TOKEN}}) the list is asked with that token.
    expect((await call('POST', '/api/environment', { variables: { SLACK_BOT_TOKEN: 'xoxb-selector-bot' } })).status).toBe(200);
    await panel.getByRole('combobox', { name: 'Authentication Method', exact: true }).selectOption('bot_token');
    await field.locator('.field-hint').filter({ hasText: 'Enter a bot token in "Bot Token" first' }).waitFor(POLL);
    // A workspace with more channels than one answer holds: 100 shown, the rest behind "Load more".
    const many = Array.from({ length: 130 }, (_, i) => ({ id: `CMANY${String(i).padStart(3, '0')}`, name: `team-${String(i).padStart(3, '0')}`, is_private: false }));
    const bigPage = { json: { ok: true, channels: many, response_metadata: { next_cursor: '' } } };
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.list', bigPage);
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.list', bigPage);
    const token = panel.getByLabel('Bot Token', { exact: true });
    await token.fill('{{SLACK_BOT_TOKEN}}');
    await token.press('Enter');
    await expect.poll(() => stored(slack, 'botToken'), POLL).toBe('{{SLACK_BOT_TOKEN}}');
    await channel.click();
    await expect.poll(async () => (await optionNames(page)).length, POLL).toBe(100);
    const usedToken = (await receivedBy(inject('serviceFakeUrls').slack)).filter((r) => r.path === '/conversations.list').at(-1);
    expect(usedToken?.headers.authorization).toBe('Bearer xoxb-selector-bot');
    // End goes to the last row, "Load more" (scrolled into view), and Enter loads the next page.
    await channel.press('End');
    await expect.poll(() => page.getByRole('button', { name: 'Load more', exact: true }).getAttribute('class'), POLL).toContain(' on');
    // The list fits the panel (it opens upwards near its bottom), so "Load more" is on screen.
    const moreBox = await page.getByRole('button', { name: 'Load more', exact: true }).boundingBox();
    expect(moreBox && moreBox.y >= 0 && moreBox.y + moreBox.height <= 800).toBe(true);
    await page.screenshot({ path: shot('load-more-button') });
    await channel.press('Enter');
    await expect.poll(async () => (await optionNames(page)).length, POLL).toBe(130);
    await page.screenshot({ path: shot('load-more') });
    // The highlight went on to the first of the new page, where the keyboard left off.
    expect(await channel.getAttribute('aria-activedescendant')).toMatch(/-opt-100$/);
    await page.getByRole('listbox', { name: 'Channel', exact: true }).getByRole('option', { name: '#team-129', exact: true }).click();
    await expect.poll(() => stored(slack, 'channel'), POLL).toBe('CMANY129');
    expect(await channel.inputValue()).toBe('#team-129');

    // After a reload the first answer (100 of the 130) does not hold #team-129: the field asks for it
    // by id (the route's selectedId → conversations.info) and shows its name, not CMANY129.
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.list', bigPage);
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.list', bigPage);
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.info', { json: { ok: true, channel: many[129] } });
    await page.reload();
    await page.locator(`.react-flow__node[data-id="${slack}"]`).click({ position: { x: 8, y: 8 } });
    await expect.poll(() => channel.inputValue(), POLL).toBe('#team-129');
    const asked = (await receivedBy(inject('serviceFakeUrls').slack)).filter((r) => r.path === '/conversations.info');
    expect(asked.at(-1)?.query).toMatchObject({ channel: 'CMANY129' });
    expect(await channel.getAttribute('class')).not.toContain('mono');
    await page.screenshot({ path: shot('reload-name') });

    // A stored id no list has (set from elsewhere) shows as that id, never as an empty field.
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: slack, subBlockId: 'channel', value: 'CGONE0001' }] })).status).toBe(200);
    await expect.poll(() => channel.inputValue(), POLL).toBe('CGONE0001');
    // Its name was asked for (Slack has no such channel), before the next scripted answer is queued.
    const infoOf = async (id: string) => (await receivedBy(inject('serviceFakeUrls').slack)).filter((r) => r.path === '/conversations.info' && r.query.channel === id).length;
    await expect.poll(() => infoOf('CGONE0001'), POLL).toBeGreaterThan(0);
    expect(await channel.inputValue()).toBe('CGONE0001');

    // The provider refusing: its message shows in the list, red, with no toast.
    await answerOnce(inject('serviceFakeUrls').slack, 'GET', '/conversations.list', { json: { ok: false, error: 'invalid_auth' } });
    await channel.click();
    await channel.pressSequentially('q');
    const refused = page.locator('.selector-note.error');
    await refused.waitFor(POLL);
    expect(await refused.textContent()).toMatch(/^Slack answered .*invalid_auth/);
    await page.screenshot({ path: shot('error') });
    await channel.press('Escape');

    // The clear button empties the field.
    await panel.getByRole('button', { name: 'Clear Channel', exact: true }).click();
    await expect.poll(() => stored(slack, 'channel'), POLL).toBe('');
    expect(await channel.inputValue()).toBe('');
    expect(await channel.getAttribute('placeholder')).toBe('Select Slack channel');

    // Advanced mode shows the typed-id twin instead of the selector.
    await panel.getByLabel('Advanced mode').check();
    await panel.getByRole('textbox', { name: 'Channel ID', exact: true }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Channel', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("lists a Jira block's issues for the project picked in its project selector, and again when the user picks another project, emptying the old project's issue in one undoable edit", async () => {
    const { call, workflowId, stored, page, errors, panel } = await openBlockWithAccount(chromium(), 'Jira selector user', 'jira', 'jira');
    const projects = panel.locator('[data-field="projectId"]');
    const issues = panel.locator('[data-field="issueKey"]');

    // Without a domain neither can list; the hints say so.
    await projects.locator('.field-hint').filter({ hasText: 'domain is required to list Jira projects' }).waitFor(POLL);
    await issues.locator('.field-hint').filter({ hasText: 'domain is required to list Jira issues' }).waitFor(POLL);
    const domain = panel.getByRole('textbox', { name: 'Domain', exact: true });
    await domain.fill('acme.atlassian.example');
    await domain.press('Enter');
    // The domain given, the issues still wait for a project.
    await issues.locator('.field-hint').filter({ hasText: 'projectId is required to list Jira issues' }).waitFor(POLL);
    await page.screenshot({ path: shot('jira-dependent') });

    const project = panel.getByRole('combobox', { name: 'Select Project', exact: true });
    await project.click();
    await expect.poll(() => optionNames(page, 'Select Project'), POLL).toEqual(['Platform', 'Operations']);
    expect(await page.getByRole('listbox', { name: 'Select Project' }).locator('.selector-option-detail').allTextContents()).toEqual(['PROJ', 'OPS']);
    await page.getByRole('listbox', { name: 'Select Project', exact: true }).getByText('Operations', { exact: true }).click();
    await expect.poll(() => stored('projectId'), POLL).toBe('10001');
    expect(await project.inputValue()).toBe('Operations');

    // The issue selector asks again, for that project's issues.
    await expect.poll(() => issues.locator('.field-hint').count(), POLL).toBe(0);
    const issue = panel.getByRole('combobox', { name: 'Select Issue', exact: true });
    await issue.click();
    await expect.poll(() => optionNames(page, 'Select Issue'), POLL).toEqual(['First', 'Second']);
    expect((await jqlSent()).at(-1)).toBe('project = 10001 ORDER BY updated DESC');
    await issue.press('ArrowDown');
    await issue.press('Enter');
    await expect.poll(() => stored('issueKey'), POLL).toBe('PROJ-2');
    expect(await issue.inputValue()).toBe('Second');

    // A collaborator's change of the project (arriving live) leaves the chosen issue alone: only this user's own change empties it.
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'block', subBlockId: 'projectId', value: '10002' }] })).status).toBe(200);
    await expect.poll(() => project.inputValue(), POLL).toBe('10002');
    expect(await stored('issueKey')).toBe('PROJ-2');
    expect(await issue.inputValue()).toBe('Second');

    // Another project picked here: its issues are asked for, and the issue of the old project is emptied in the same edit.
    await project.click();
    await page.getByRole('listbox', { name: 'Select Project', exact: true }).getByText('Platform', { exact: true }).click();
    await expect.poll(() => stored('projectId'), POLL).toBe('10000');
    await expect.poll(() => stored('issueKey'), POLL).toBe('');
    expect(await issue.inputValue()).toBe('');
    await expect.poll(async () => (await jqlSent()).at(-1), POLL).toBe('project = 10000 ORDER BY updated DESC');
    await page.screenshot({ path: shot('jira') });
    // One edit: one Undo brings back both the project and its issue.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => [await stored('projectId'), await stored('issueKey')], POLL).toEqual(['10002', 'PROJ-2']);

    // A project stored by its key (set elsewhere: an import, the copilot): the closed field names it, and
    // the open list marks its item (id 10001), not none.
    expect((await call('POST', `/api/workflows/${workflowId}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'block', subBlockId: 'projectId', value: 'OPS' }] })).status).toBe(200);
    await expect.poll(() => project.inputValue(), POLL).toBe('Operations');
    await project.click();
    const option = (name: string) => page.getByRole('listbox', { name: 'Select Project', exact: true }).getByRole('option', { name, exact: true });
    await expect.poll(() => option('Operations OPS').getAttribute('aria-selected'), POLL).toBe('true');
    expect(await option('Platform PROJ').getAttribute('aria-selected')).toBe('false');
    await page.screenshot({ path: shot('jira-alias') });
    await project.press('Escape');
    expect(errors).toEqual([]);
  });

  it("empties a Teams block's chosen channel when the user picks another team", async () => {
    const { stored, page, errors, panel } = await openBlockWithAccount(chromium(), 'Teams selector user', 'microsoft-teams', 'microsoft_teams', { operation: 'read_channel' });
    const team = panel.getByRole('combobox', { name: 'Select Team', exact: true });
    const channel = panel.getByRole('combobox', { name: 'Select Channel', exact: true });

    await team.click();
    await page.getByRole('listbox', { name: 'Select Team', exact: true }).getByText('Engineering', { exact: true }).click();
    await expect.poll(() => stored('teamId'), POLL).toBe('team-eng');
    await channel.click();
    await page.getByRole('listbox', { name: 'Select Channel', exact: true }).getByText('Incidents', { exact: true }).click();
    await expect.poll(() => stored('channelId'), POLL).toBe('19:incidents@thread.tacv2');
    expect(await channel.inputValue()).toBe('Incidents');

    // The same team again changes nothing; another team empties the channel of the old one.
    await team.click();
    await page.getByRole('listbox', { name: 'Select Team', exact: true }).getByText('Engineering', { exact: true }).click();
    expect(await stored('channelId')).toBe('19:incidents@thread.tacv2');
    await team.click();
    await page.getByRole('listbox', { name: 'Select Team', exact: true }).getByText('Operations', { exact: true }).click();
    await expect.poll(() => stored('teamId'), POLL).toBe('team-ops');
    await expect.poll(() => stored('channelId'), POLL).toBe('');
    expect(await channel.inputValue()).toBe('');
    expect(await channel.getAttribute('placeholder')).toBe('Select a channel');
    await page.screenshot({ path: shot('teams-cleared') });
    expect(errors).toEqual([]);
  });

  it("lists channels in an agent's Slack tool card with the card's own account, and stores the pick in the tool's params", async () => {
    type AgentBlock = { subBlocks: { tools?: { value: Array<{ params: Record<string, unknown> }> } } };
    const { owner, call, workflowId, state, open } = await newWorkflow<{ blocks: Record<string, AgentBlock> }>('Tool card selector user');
    const credential = await connect(owner, 'slack');
    const tool = { type: 'slack', title: 'Slack', params: { operation: 'send', authMethod: 'oauth', credential }, usageControl: 'auto' };
    const added = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: 'agent', blockType: 'agent', position: { x: 420, y: 60 } },
        { type: 'setSubBlockValue', id: 'agent', subBlockId: 'tools', value: [tool] },
      ],
    });
    expect(added.status).toBe(200);
    const toolParams = async () => (await state()).blocks.agent?.subBlocks.tools?.value[0]?.params;
    const { page, errors } = await open(chromium());
    await page.locator('.react-flow__node[data-id="agent"]').click({ position: { x: 8, y: 8 } });
    const card = page.getByRole('region', { name: 'Block', exact: true }).getByRole('group', { name: 'Slack settings', exact: true });
    const channel = card.getByRole('combobox', { name: 'Channel', exact: true });
    await channel.click();
    await expect.poll(() => optionNames(page), POLL).toEqual(['#general', '#random', '#eng-private', '#design', '#general-announcements']);
    await page.getByRole('listbox', { name: 'Channel', exact: true }).getByText('#random', { exact: true }).click();
    await expect.poll(async () => (await toolParams())?.channel, POLL).toBe('C024BE92M');
    expect(await toolParams()).toMatchObject({ credential, authMethod: 'oauth' });
    expect(await channel.inputValue()).toBe('#random');
    await page.screenshot({ path: shot('tool-card') });
    expect(errors).toEqual([]);
  });
});
