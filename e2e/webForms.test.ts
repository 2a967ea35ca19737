import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { addAgent, addFromPalette, fitView, sendOnlyOnLeave } from './support/editing.js';
import { as, signUp, type TestUser } from './support/session.js';
import { newWorkflow, openNewWorkflow } from './support/workflows.js';

/**
 * Selects a block on the canvas and answers its panel. The view is fitted first: click-to-add pans to the
 * block it adds (right of the others), which can leave an earlier one (the starter) outside the view.
 */
async function panelOf(page: Page, blockId: string) {
  await fitView(page);
  await page.locator(`.react-flow__node[data-id="${blockId}"]`).click();
  const panel = page.getByRole('region', { name: 'Block', exact: true });
  await panel.waitFor();
  return panel;
}

/** A new user's workflow opened in Chromium with one block added from the palette, its panel open. */
async function withBlock(browser: () => Browser, user: string, paletteName: string, type: string) {
  const wf = await newWorkflow(user);
  const { page, errors } = await wf.open(browser());
  const blockId = await addFromPalette(page, paletteName, type);
  return { wf, page, errors, blockId, panel: await panelOf(page, blockId) };
}

const POLL = { timeout: 10_000 };

describe('block form controls in Chromium', () => {
  const chromium = chromiumPerSuite();

  it("drives the agent's temperature slider (range 0–2, sent when the thumb is let go, typed values clamped) and its masked API key", async () => {
    const wf = await newWorkflow('Slider');
    const { page, errors } = await wf.open(chromium());
    await sendOnlyOnLeave(page);
    const agent = await addAgent(page);
    const panel = await panelOf(page, agent);

    // The slider shows its range, its step and the block's default beside its name, in a box that takes a typed value.
    const slider = panel.getByRole('slider', { name: 'Temperature' });
    expect([await slider.getAttribute('min'), await slider.getAttribute('max'), await slider.getAttribute('step'), await slider.inputValue()]).toEqual(['0', '2', '0.1', '0.7']);
    const typed = panel.getByRole('spinbutton', { name: 'Temperature value' });
    expect(await typed.inputValue()).toBe('0.7');
    // The whole row fits its half of the panel, the maximum shown at its right end.
    const field = await panel.locator('[data-field="temperature"]').boundingBox();
    const maxEnd = await panel.locator('[data-field="temperature"] .slider-end').last().boundingBox();
    expect(await panel.locator('[data-field="temperature"] .slider-end').allTextContents()).toEqual(['0', '2']);
    expect(maxEnd && field && maxEnd.x + maxEnd.width <= field.x + field.width + 0.5).toBe(true);
    // Its name shows whole beside the value box even when the panel shows its scrollbar (8 px): it was cut to
    // "Temperat…" by a pixel then.
    const head = await panel.locator('[data-field="temperature"] .slider-head').evaluate((h) => {
      const label = h.querySelector('label');
      const value = h.querySelector('input');
      return { room: h.clientWidth - 8, needed: (label?.scrollWidth ?? 0) + 8 + (value?.offsetWidth ?? 0) };
    });
    expect(head.needed).toBeLessThanOrEqual(head.room);

    // Pressed and dragged to the far right: the value beside it follows, nothing is sent yet.
    const box = await slider.boundingBox();
    if (!box) throw new Error('the slider is not on screen');
    const thumbX = box.x + 8 + (box.width - 16) * (0.7 / 2);
    await page.mouse.move(thumbX, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 8 });
    await expect.poll(() => typed.inputValue(), POLL).toBe('2.0');
    expect(await wf.stored(agent, 'temperature')).not.toBe(2);
    // Let go: 2 is stored.
    await page.mouse.up();
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(2);

    // The keyboard moves it a step at a time, each sent as the key comes up.
    await slider.focus();
    for (let i = 0; i < 3; i++) await slider.press('ArrowLeft');
    expect(await typed.inputValue()).toBe('1.7');
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(1.7);

    // A typed value is put on the slider (clamped to 0–2, on a 0.1 step) and sent on Enter or on leaving the box.
    await typed.fill('5');
    expect(await wf.stored(agent, 'temperature')).toBe(1.7);
    await typed.press('Enter');
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(2);
    expect([await typed.inputValue(), await slider.inputValue()]).toEqual(['2.0', '2']);
    await typed.fill('0.44');
    await typed.blur();
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(0.4);
    expect([await typed.inputValue(), await slider.inputValue()]).toEqual(['0.4', '0.4']);
    await typed.fill('-3');
    await typed.press('Enter');
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(0);
    // Not a number, or Escape: the value comes back, nothing is sent.
    await typed.fill('warm');
    await typed.press('Enter');
    expect(await typed.inputValue()).toBe('0.0');
    await typed.fill('1.5');
    await typed.press('Escape');
    expect(await typed.inputValue()).toBe('0.0');
    // Arrow keys in the box step it too.
    for (let i = 0; i < 2; i++) await typed.press('ArrowUp');
    expect([await typed.inputValue(), await slider.inputValue()]).toEqual(['0.2', '0.2']);
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(0.2);
    await typed.fill('1.7');
    await typed.press('Enter');
    await expect.poll(() => wf.stored(agent, 'temperature'), POLL).toBe(1.7);

    // The API key is masked until shown; the reveal button toggles it, and the key is stored as typed.
    const key = panel.getByLabel('API Key', { exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill('sk-forms-secret');
    await key.blur();
    await expect.poll(() => wf.stored(agent, 'apiKey'), POLL).toBe('sk-forms-secret');
    expect(await key.getAttribute('type')).toBe('password');
    await panel.getByRole('button', { name: 'Show API Key', exact: true }).click();
    expect(await key.getAttribute('type')).toBe('text');
    expect(await key.inputValue()).toBe('sk-forms-secret');
    await panel.getByRole('button', { name: 'Hide API Key', exact: true }).click();
    expect(await key.getAttribute('type')).toBe('password');

    // Reloaded, the page shows what the server holds.
    await page.reload();
    await page.getByText('live', { exact: true }).waitFor();
    const again = await panelOf(page, agent);
    expect(await again.getByRole('spinbutton', { name: 'Temperature value' }).inputValue()).toBe('1.7');
    expect(await again.getByLabel('API Key', { exact: true }).getAttribute('type')).toBe('password');
    expect(errors).toEqual([]);
  });

  it("edits a tool block's switch, checkbox list and masked key (Firecrawl, Jina)", async () => {
    const wf = await newWorkflow('Switches');
    expect(
      (
        await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, {
          commands: [
            { type: 'addBlock', id: 'crawl', blockType: 'firecrawl', position: { x: 420, y: 60 } },
            { type: 'addBlock', id: 'reader', blockType: 'jina', position: { x: 420, y: 320 } },
          ],
        })
      ).status,
    ).toBe(200);
    const { page, errors } = await wf.open(chromium());

    // Firecrawl scrapes by default; its "Only Main Content" switch is off, then on, then off.
    let panel = await panelOf(page, 'crawl');
    const onlyMain = panel.getByRole('switch', { name: 'Only Main Content', exact: true });
    expect(await onlyMain.getAttribute('aria-checked')).toBe('false');
    await onlyMain.click();
    await expect.poll(() => onlyMain.getAttribute('aria-checked'), POLL).toBe('true');
    await expect.poll(() => wf.stored('crawl', 'onlyMainContent'), POLL).toBe(true);
    // Another operation hides it; the search query shows instead.
    await panel.getByRole('combobox', { name: 'Operation', exact: true }).selectOption('search');
    await panel.getByRole('textbox', { name: 'Search Query', exact: true }).waitFor();
    expect(await panel.getByRole('switch', { name: 'Only Main Content' }).count()).toBe(0);
    await expect.poll(() => wf.stored('crawl', 'operation'), POLL).toBe('search');
    await panel.getByRole('combobox', { name: 'Operation', exact: true }).selectOption('scrape');
    await panel.getByRole('switch', { name: 'Only Main Content', exact: true }).click();
    await expect.poll(() => wf.stored('crawl', 'onlyMainContent'), POLL).toBe(false);
    expect(await panel.getByRole('switch', { name: 'Only Main Content', exact: true }).getAttribute('aria-checked')).toBe('false');

    // Jina's options are a checkbox list (chips) stored as the chosen ids, in the list's order.
    panel = await panelOf(page, 'reader');
    const options = panel.getByRole('group', { name: 'Options', exact: true });
    const box = (name: string) => options.getByRole('checkbox', { name, exact: true });
    const chosen = () => options.locator('label.chip.on').allTextContents();
    expect(await chosen()).toEqual([]);
    await box('JSON Response').check();
    // The keyboard reaches them: Space on a focused chip checks it.
    await box('Gather Links').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => wf.stored('reader', 'options'), POLL).toEqual(['gatherLinks', 'jsonResponse']);
    expect(await chosen()).toEqual(['Gather Links', 'JSON Response']);
    // A click on the chip's text unchecks it.
    await options.locator('label.chip', { hasText: 'Gather Links' }).click();
    await expect.poll(() => wf.stored('reader', 'options'), POLL).toEqual(['jsonResponse']);
    expect(await chosen()).toEqual(['JSON Response']);
    expect(await box('Gather Links').isChecked()).toBe(false);
    await page.screenshot({ path: '/tmp/weft-forms-chips.png' });

    // Its API key is a masked field with a reveal button too.
    const key = panel.getByLabel('API Key', { exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    await key.fill('jina-key-1');
    await key.press('Enter');
    await expect.poll(() => wf.stored('reader', 'apiKey'), POLL).toBe('jina-key-1');
    await panel.getByRole('button', { name: 'Show API Key', exact: true }).click();
    expect(await key.getAttribute('type')).toBe('text');
    expect(errors).toEqual([]);
  });

  it('types function code in CodeMirror, stored when the editor is left; a JSON field names JSON that does not parse and keeps it as typed', async () => {
    const { wf, page, errors, blockId: fn, panel } = await withBlock(chromium, 'Code', 'Function', 'function');
    await sendOnlyOnLeave(page);
    await panel.getByText('JavaScript', { exact: true }).waitFor();
    // Named "Code", the language beside it: the label read "codeJavaScript" (the field's id run into the hint).
    expect(await panel.locator('.field-code label').allTextContents()).toEqual(['Code']);
    const editor = panel.locator('.cm-content[aria-label="Code"]');
    await editor.click();
    await page.keyboard.type('const doubled = input * 2;');
    await page.keyboard.press('Enter');
    await page.keyboard.type('return doubled;');
    // Highlighted as JavaScript: the keywords are tokens of their own.
    await expect.poll(() => editor.locator('.cm-line span').count(), POLL).toBeGreaterThan(0);
    // Nothing is sent while typing; leaving the editor sends it.
    expect(String(await wf.stored(fn, 'code'))).not.toContain('return doubled;');
    await panel.getByRole('heading', { name: 'Function 1' }).click();
    await expect.poll(() => wf.stored(fn, 'code'), POLL).toBe('const doubled = input * 2;\nreturn doubled;');
    expect(await editor.evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent))).toEqual(['const doubled = input * 2;', 'return doubled;']);

    // `<` offers the upstream outputs, as a text field does: once the starter is connected, `<start.input>` is
    // the menu's first choice, chosen as in a text field, and Enter takes it. After Escape, Enter is a new line.
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands: [{ type: 'addEdge', source: wf.starter, target: fn }] })).status).toBe(200);
    const menu = page.locator('.cm-tooltip-autocomplete');
    const chosen = () => menu.locator('[aria-selected="true"]').first().textContent();
    // Trimmed: the editor indents the line after an unfinished expression.
    const lines = () => editor.evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent?.trim()));
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('const q = <start.in');
    await expect.poll(chosen, POLL).toContain('<start.input>');
    await page.keyboard.press('Enter');
    await page.keyboard.type(';');
    await page.keyboard.press('Enter');
    await page.keyboard.type('const c = doubled <s');
    await menu.getByText('<start.input>', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    await page.keyboard.type('const r = <st');
    await menu.getByText('<start.input>', { exact: true }).click();
    const typed = ['const doubled = input * 2;', 'return doubled;', 'const q = <start.input>;', 'const c = doubled <s', 'const r = <start.input>'];
    await expect.poll(lines, POLL).toEqual(typed);
    await panel.getByRole('heading', { name: 'Function 1' }).click();
    await expect.poll(async () => String(await wf.stored(fn, 'code')).split('\n').map((l) => l.trim()), POLL).toEqual(typed);

    // An agent's response format is JSON: broken JSON is named at the field and kept as typed (leaving the block must
    // not lose it; the run names the field), fixed JSON replaces it.
    const agent = await addAgent(page);
    const agentPanel = await panelOf(page, agent);
    await agentPanel.getByRole('checkbox', { name: 'Advanced mode', exact: true }).check();
    const format = agentPanel.locator('.cm-content[aria-label="Response Format"]');
    await format.click();
    await page.keyboard.type('{"type": "object",');
    await agentPanel.getByRole('heading', { name: 'Agent 1' }).click();
    await agentPanel.getByText(/^Not valid JSON/).waitFor();
    await expect.poll(async () => String(await wf.stored(agent, 'responseFormat')), POLL).toMatch(/^\{"type": "object",/);
    await format.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"type": "object"');
    await agentPanel.getByRole('heading', { name: 'Agent 1' }).click();
    await expect.poll(async () => JSON.parse(String(await wf.stored(agent, 'responseFormat')))).toEqual({ type: 'object' });
    expect(await agentPanel.getByText(/^Not valid JSON/).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the schedule fields of the chosen frequency and the next runs; the starter in schedule mode has them too', async () => {
    const { wf, page, errors, blockId: schedule, panel } = await withBlock(chromium, 'Schedules', 'Schedule', 'schedule');
    const status = panel.getByRole('group', { name: 'Schedule Status', exact: true });
    const runs = status.getByRole('list', { name: 'Next runs' }).getByRole('listitem');
    const runTimes = async () => (await runs.allTextContents()).map((t) => new Date(t).getTime());

    // Daily by default, with no time yet: the status says what the deploy would refuse. At 09:00 UTC: three
    // next runs a day apart, the cron as the server makes it.
    const frequency = panel.getByRole('combobox', { name: 'Frequency', exact: true });
    expect(await frequency.inputValue()).toBe('daily');
    await status.getByText('Time of Day is required', { exact: true }).waitFor();
    const daily = panel.getByRole('textbox', { name: 'Time of Day', exact: true });
    await daily.fill('09:00');
    await daily.press('Enter');
    await status.getByText('0 9 * * *', { exact: true }).waitFor();
    await expect.poll(() => runs.count(), POLL).toBe(3);

    // Every X minutes: its own two fields replace the time of day.
    await frequency.selectOption('minutes');
    const every = panel.getByRole('textbox', { name: 'Run Every (minutes)', exact: true });
    await every.waitFor();
    expect(await panel.getByRole('textbox', { name: 'Starting At', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('textbox', { name: 'Time of Day', exact: true }).count()).toBe(0);
    await every.fill('5');
    await every.press('Enter');
    await status.getByText('0/5 * * * *', { exact: true }).waitFor();
    await expect.poll(() => runs.count(), POLL).toBe(3);
    await expect.poll(async () => {
      const [a = 0, b = 0] = await runTimes();
      return b - a;
    }, POLL).toBe(5 * 60_000);
    await expect.poll(async () => [await wf.stored(schedule, 'scheduleType'), await wf.stored(schedule, 'minutesInterval')], POLL).toEqual(['minutes', '5']);
    // Longer than an hour, as the server takes it: every 90 minutes.
    await every.fill('90');
    await every.press('Enter');
    await status.getByText('@every 5400s', { exact: true }).waitFor();
    await expect.poll(async () => {
      const [a = 0, b = 0] = await runTimes();
      return b - a;
    }, POLL).toBe(90 * 60_000);
    // Every 10 seconds, as the placeholder and the hint say it may be typed: three runs 10 s apart, read with
    // their seconds (the same minute three times before).
    expect(await every.getAttribute('placeholder')).toMatch(/\b10s\b/);
    await status.getByText(/takes minutes \(15\) or seconds with an s \(10s\), at least 10 seconds/).waitFor();
    await every.fill('10s');
    await every.press('Enter');
    await status.getByText('@every 10s', { exact: true }).waitFor();
    await expect.poll(async () => {
      const [a = 0, b = 0] = await runTimes();
      return b - a;
    }, POLL).toBe(10_000);
    expect(new Set(await runs.allTextContents()).size).toBe(3);

    // Weekly on Friday at 18:30 in Tokyo.
    await frequency.selectOption('weekly');
    await panel.getByRole('combobox', { name: 'Day of Week', exact: true }).selectOption('FRI');
    const time = panel.getByRole('textbox', { name: 'Time of Day', exact: true });
    await time.fill('18:30');
    await time.press('Enter');
    await panel.getByRole('combobox', { name: 'Timezone', exact: true }).selectOption('Asia/Tokyo');
    await status.getByText('30 18 * * 5', { exact: true }).waitFor();
    await status.getByText('(Asia/Tokyo)', { exact: true }).waitFor();
    await expect.poll(async () => {
      const [a = 0, b = 0] = await runTimes();
      return b - a;
    }, POLL).toBe(7 * 24 * 3_600_000);
    await page.screenshot({ path: '/tmp/weft-forms-schedule.png' });
    // A bad time is named in the status instead of runs.
    await time.fill('25:00');
    await time.press('Enter');
    await status.getByText('Time must be HH:MM (24 hours), got "25:00"', { exact: true }).waitFor();
    expect(await status.getByRole('list', { name: 'Next runs' }).count()).toBe(0);
    const scheduleFields = ['scheduleType', 'weeklyDay', 'weeklyDayTime', 'timezone'] as const;
    await expect
      .poll(async () => Promise.all(scheduleFields.map((f) => wf.stored(schedule, f))), POLL)
      .toEqual(['weekly', 'FRI', '25:00', 'Asia/Tokyo']);

    // The starter in schedule mode: the frequency and timezone appear, each frequency its fields.
    const starter = wf.starter;
    const starterPanel = await panelOf(page, starter);
    expect(await starterPanel.getByRole('combobox', { name: 'Frequency' }).count()).toBe(0);
    await starterPanel.getByRole('combobox', { name: 'Start Workflow', exact: true }).selectOption('schedule');
    const starterFrequency = starterPanel.getByRole('combobox', { name: 'Frequency', exact: true });
    await starterFrequency.waitFor();
    expect(await starterFrequency.inputValue()).toBe('daily');
    await starterPanel.getByRole('combobox', { name: 'Timezone', exact: true }).waitFor();
    await starterFrequency.selectOption('hourly');
    const minute = starterPanel.getByRole('textbox', { name: 'Minute of the Hour', exact: true });
    await minute.fill('45');
    await minute.press('Enter');
    expect(await starterPanel.getByRole('textbox', { name: 'Time of Day' }).count()).toBe(0);
    await starterFrequency.selectOption('custom');
    const cron = starterPanel.getByRole('textbox', { name: 'Cron Expression', exact: true });
    await cron.fill('15 6 * * 1-5');
    await cron.press('Enter');
    expect(await starterPanel.getByRole('textbox', { name: 'Minute of the Hour' }).count()).toBe(0);
    await expect
      .poll(async () => Promise.all(['startWorkflow', 'scheduleType', 'hourlyMinute', 'cronExpression'].map((f) => wf.stored(starter, f))), POLL)
      .toEqual(['schedule', 'custom', '45', '15 6 * * 1-5']);
    expect(errors).toEqual([]);
  });

  it('starter schedule status: the starter in schedule mode shows the cron the server makes and its next runs, the same as the deploy dialog', async () => {
    const wf = await newWorkflow('Starter runs');
    const { page, errors } = await wf.open(chromium());
    const starter = wf.starter;
    const panel = await panelOf(page, starter);
    const status = panel.getByRole('group', { name: 'Schedule Status', exact: true });
    const runs = status.getByRole('list', { name: 'Next runs' }).getByRole('listitem');
    expect(await status.count()).toBe(0);

    // Schedule mode, daily by default: what the deploy would refuse until a time is given, then the runs.
    await panel.getByRole('combobox', { name: 'Start Workflow', exact: true }).selectOption('schedule');
    await status.getByText('Time of Day is required', { exact: true }).waitFor();
    const daily = panel.getByRole('textbox', { name: 'Time of Day', exact: true });
    await daily.fill('07:15');
    await daily.press('Enter');
    await status.getByText('15 7 * * *', { exact: true }).waitFor();
    await expect.poll(() => runs.count(), POLL).toBe(3);

    // Every 45 minutes from 09:00 in Paris: the local times the server keeps, 45 minutes apart.
    await panel.getByRole('combobox', { name: 'Frequency', exact: true }).selectOption('minutes');
    const every = panel.getByRole('textbox', { name: 'Run Every (minutes)', exact: true });
    await every.fill('45');
    await every.press('Enter');
    const start = panel.getByRole('textbox', { name: 'Starting At', exact: true });
    await start.fill('09:00');
    await start.press('Enter');
    await panel.getByRole('combobox', { name: 'Timezone', exact: true }).selectOption('Europe/Paris');
    await status.getByText('@every 2700s', { exact: true }).waitFor();
    await status.getByText('(Europe/Paris)', { exact: true }).waitFor();
    await expect.poll(async () => {
      const [a = 0, b = 0] = (await runs.allTextContents()).map((t) => new Date(t).getTime());
      return b - a;
    }, POLL).toBe(45 * 60_000);
    await expect
      .poll(async () => Promise.all(['startWorkflow', 'scheduleType', 'minutesInterval', 'minutesStartingAt', 'timezone'].map((f) => wf.stored(starter, f))), POLL)
      .toEqual(['schedule', 'minutes', '45', '09:00', 'Europe/Paris']);

    // The deploy dialog lists the same next runs (one computation: the catalogue's toTriggerSchedule).
    const formRuns = await runs.allTextContents();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Deploy' });
    const dialogRuns = dialog.getByRole('list', { name: 'Next scheduled runs' }).getByRole('listitem');
    await expect.poll(() => dialogRuns.allTextContents(), POLL).toEqual(formRuns);
    await page.screenshot({ path: '/tmp/weft-forms-starter-schedule.png' });

    // A bad interval is named instead of runs.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await every.fill('abc');
    await every.press('Enter');
    await status.getByText('Run Every (minutes) must be a number of minutes or seconds like "10s", got "abc"', { exact: true }).waitFor();
    expect(await status.getByRole('list', { name: 'Next runs' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("lists the workspace's other workflows in the workflow block's picker and stores the chosen one", async () => {
    const wf = await newWorkflow('Picker', { name: 'Parent flow' });
    const other = async (name: string) => (await wf.call<{ id: string }>('POST', '/api/workflows', { workspaceId: wf.owner.workspaceId, name })).body.id;
    const billing = await other('Billing digest');
    const alerts = await other('Alerts fan-out');
    // Another user's workflow is not offered.
    const stranger: TestUser = await signUp('Stranger');
    await as(stranger)('POST', '/api/workflows', { workspaceId: stranger.workspaceId, name: 'Not yours' });

    const { page, errors } = await wf.open(chromium());
    const block = await addFromPalette(page, 'Workflow', 'workflow');
    const panel = await panelOf(page, block);
    const picker = panel.getByRole('combobox', { name: 'Select Workflow', exact: true });
    await expect
      .poll(() => picker.locator('option').evaluateAll((os) => os.map((o) => [o.getAttribute('value'), o.textContent])), POLL)
      .toEqual([
        ['', 'Select a workflow'],
        [alerts, 'Alerts fan-out'],
        [billing, 'Billing digest'],
      ]);
    await picker.selectOption({ label: 'Billing digest' });
    await expect.poll(() => wf.stored(block, 'workflowId'), POLL).toBe(billing);
    expect(await picker.inputValue()).toBe(billing);
    expect(errors).toEqual([]);
  });

  it("adds input-format rows to the starter: a field's name and type are stored", async () => {
    const wf = await newWorkflow('Input format');
    const { page, errors } = await wf.open(chromium());
    const starter = wf.starter;
    const panel = await panelOf(page, starter);
    // Advanced mode shows the input format of a manual start.
    await panel.getByRole('checkbox', { name: 'Advanced mode', exact: true }).check();
    const label = 'Input Format (for API calls)';
    await panel.getByRole('button', { name: 'Add field', exact: true }).click();
    const name1 = panel.getByRole('textbox', { name: `${label} 1 name`, exact: true });
    await name1.fill('city');
    await name1.blur();
    await panel.getByRole('combobox', { name: `${label} 1 type`, exact: true }).selectOption('string');
    await panel.getByRole('button', { name: 'Add field', exact: true }).click();
    const name2 = panel.getByRole('textbox', { name: `${label} 2 name`, exact: true });
    await name2.fill('days');
    await name2.blur();
    const type2 = panel.getByRole('combobox', { name: `${label} 2 type`, exact: true });
    expect(await type2.inputValue()).toBe('string');
    await type2.selectOption('number');
    const rows = async () => ((await wf.stored(starter, 'inputFormat')) as Array<Record<string, unknown>> | undefined)?.map((r) => [r['name'], r['type']]);
    await expect.poll(rows, POLL).toEqual([
      ['city', 'string'],
      ['days', 'number'],
    ]);
    // Removing the first leaves the second, first.
    await panel.getByRole('button', { name: `Remove ${label} 1`, exact: true }).click();
    await expect.poll(rows, POLL).toEqual([['days', 'number']]);
    expect(await panel.getByRole('textbox', { name: `${label} 1 name`, exact: true }).inputValue()).toBe('days');
    expect(await panel.getByRole('combobox', { name: `${label} 1 type`, exact: true }).inputValue()).toBe('number');
    expect(errors).toEqual([]);
  });

  it("gives the Response builder's value cell the < menu of a text field and stores the row's value", async () => {
    const { wf, errors, blockId: block, panel } = await withBlock(chromium, 'Response value', 'Response', 'response');
    const label = 'Response Structure';
    await panel.getByRole('button', { name: 'Add field', exact: true }).click();
    const name = panel.getByRole('textbox', { name: `${label} 1 name`, exact: true });
    await name.fill('answer');
    await name.blur();
    // `<` opens the block outputs' menu, as in any text field (a plain input before).
    const value = panel.getByRole('textbox', { name: `${label} 1 value`, exact: true });
    await value.click();
    await value.pressSequentially('<');
    await panel.getByRole('listbox', { name: 'Block outputs' }).waitFor();
    await value.fill('<start.input>');
    await value.press('Enter');
    const rows = async () => ((await wf.stored(block, 'builderData')) as Array<Record<string, unknown>> | undefined)?.map((r) => [r['name'], r['type'], r['value']]);
    await expect.poll(rows, POLL).toEqual([['answer', 'string', '<start.input>']]);
    expect(errors).toEqual([]);
  });

  it('offers and highlights references to blocks named with more than letters and digits (Agent-2, Résumé), as the run reads them', async () => {
    const wf = await newWorkflow('Reference names');
    const commands = [
      { type: 'addBlock', id: 'cv', blockType: 'agent', name: 'Résumé', position: { x: 420, y: 80 } },
      { type: 'addBlock', id: 'dash', blockType: 'agent', name: 'Agent-2', position: { x: 760, y: 80 } },
      { type: 'addBlock', id: 'writer', blockType: 'agent', name: 'Writer', position: { x: 1100, y: 80 } },
      { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Join', position: { x: 1100, y: 400 } },
      { type: 'addEdge', source: wf.starter, target: 'cv' },
      { type: 'addEdge', source: 'cv', target: 'dash' },
      { type: 'addEdge', source: 'dash', target: 'writer' },
      { type: 'addEdge', source: 'dash', target: 'fn' },
    ];
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands })).status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    const panel = await panelOf(page, 'writer');
    const prompt = panel.getByRole('textbox', { name: 'System Prompt', exact: true });
    const outputs = panel.getByRole('listbox', { name: 'Block outputs' });
    await prompt.click();
    // `-` and `é` keep the menu open (it closed at them: only letters, digits and _ were read as a reference).
    await prompt.pressSequentially('Join <agent-');
    await outputs.getByRole('option', { name: /^<agent-2\.content>/ }).waitFor();
    await prompt.pressSequentially('2.con');
    await prompt.press('Enter');
    await prompt.pressSequentially(' and <résu');
    // The first choice is Résumé's first output.
    // Polled: the menu narrows to Résumé's outputs a moment after the last key (read at once, the choice of an
    // earlier, wider list could be taken).
    await expect.poll(() => outputs.getByRole('option', { selected: true }).locator('.tok-ref').textContent(), POLL).toBe('<résumé.content>');
    await prompt.press('Enter');
    await expect.poll(() => prompt.inputValue(), POLL).toBe('Join <agent-2.content> and <résumé.content>');
    // Both are highlighted as references.
    await expect.poll(() => panel.locator('[data-field="systemPrompt"] .ref-backdrop .tok-ref').allTextContents(), POLL).toEqual(['<agent-2.content>', '<résumé.content>']);
    await prompt.press('Enter');
    await expect.poll(() => wf.stored('writer', 'systemPrompt'), POLL).toBe('Join <agent-2.content> and <résumé.content>');

    // A code field's menu reads them too, its first choice chosen: Enter takes it.
    const fnPanel = await panelOf(page, 'fn');
    const code = fnPanel.locator('.cm-content[aria-label="Code"]');
    await code.click();
    await page.keyboard.type('return <agent-2.con');
    const menu = page.locator('.cm-tooltip-autocomplete');
    await expect.poll(() => menu.locator('[aria-selected="true"]').first().textContent(), POLL).toContain('<agent-2.content>');
    await page.keyboard.press('Enter');
    await page.keyboard.type(' + <résumé.c');
    await expect.poll(() => menu.locator('[aria-selected="true"]').first().textContent(), POLL).toContain('<résumé.content>');
    await page.keyboard.press('Enter');
    await fnPanel.getByRole('heading', { name: 'Join' }).click();
    await expect.poll(() => wf.stored('fn', 'code'), POLL).toBe('return <agent-2.content> + <résumé.content>');
    expect(errors).toEqual([]);
  });

  it('adds an else-if row to a condition: a new row in the form, a new handle on the block, both stored', async () => {
    const { wf, page, errors, blockId: block, panel } = await withBlock(chromium, 'Else if', 'Condition', 'condition');
    const node = page.locator(`.react-flow__node[data-id="${block}"]`);
    const handles = () => node.locator('.react-flow__handle[data-handleid^="condition-"]').evaluateAll((hs) => hs.map((h) => h.getAttribute('data-handleid')));
    expect(await handles()).toHaveLength(2);
    const first = panel.getByRole('textbox', { name: 'Condition 1 (if)', exact: true });
    await first.fill('1 > 2');
    await first.blur();

    await panel.getByRole('button', { name: 'Add else if', exact: true }).click();
    const added = panel.getByRole('textbox', { name: 'Condition 2 (else if)', exact: true });
    await added.fill("'b' === 'b'");
    await added.blur();
    type Row = { id: string; title: string; value: string };
    const rows = async () => JSON.parse(String((await wf.stored(block, 'conditions')) ?? '[]')) as Row[];
    await expect.poll(async () => (await rows()).map((r) => [r.title, r.value]), POLL).toEqual([
      ['if', '1 > 2'],
      ['else if', "'b' === 'b'"],
      ['else', ''],
    ]);
    // One handle per stored row, in order, on the block.
    const stored = await rows();
    await expect.poll(handles, POLL).toEqual(stored.map((r) => `condition-${r.id}`));
    await page.screenshot({ path: '/tmp/weft-forms-condition.png' });

    // The new handle connects like the others.
    const fn = 'after';
    await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, {
      commands: [
        { type: 'addBlock', id: fn, blockType: 'function', position: { x: 900, y: 300 } },
        { type: 'addEdge', source: block, target: fn, sourceHandle: `condition-${stored[1]?.id ?? ''}` },
      ],
    });
    await page.locator('.react-flow__edge').first().waitFor();

    // Removing it takes its row and handle away again.
    await panel.getByRole('button', { name: 'Remove condition 2', exact: true }).click();
    await expect.poll(async () => (await rows()).map((r) => r.title), POLL).toEqual(['if', 'else']);
    await expect.poll(async () => (await handles()).length, POLL).toBe(2);
    expect(errors).toEqual([]);
  });

  it("picks a custom tool made through the API in the agent's tool picker; the agent stores its schema and code", async () => {
    const wf = await newWorkflow('Custom tool');
    const schema = {
      type: 'function',
      function: { name: 'lookup_order', description: 'Looks up an order by its number', parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] } },
    };
    const made = await wf.call('POST', '/api/tools/custom', { tools: [{ id: 'orders', title: 'Order lookup', schema, code: 'return { order, status: "shipped" };' }] });
    expect(made.status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    const agent = await addAgent(page);
    const panel = await panelOf(page, agent);
    await panel.getByRole('button', { name: 'Add tool', exact: true }).click();
    const picker = panel.getByRole('dialog', { name: 'Add a tool' });
    await picker.getByText('Custom tools', { exact: true }).waitFor();
    await picker.getByRole('textbox', { name: 'Search tools' }).fill('order');
    await picker.getByRole('button', { name: /Order lookup$/ }).click();

    // The card names it with its description and how the model may use it.
    const list = panel.getByRole('list', { name: 'Tools' });
    await list.getByText('Order lookup', { exact: true }).waitFor();
    await list.getByText('Looks up an order by its number', { exact: true }).waitFor();
    await list.getByRole('combobox', { name: 'How Order lookup is used' }).selectOption('force');
    const tools = async () => (await wf.stored(agent, 'tools')) as Array<Record<string, unknown>> | undefined;
    await expect.poll(async () => (await tools())?.[0]?.['usageControl'], POLL).toBe('force');
    expect(await tools()).toEqual([{ type: 'custom-tool', title: 'Order lookup', params: {}, schema, code: 'return { order, status: "shipped" };', usageControl: 'force' }]);
    await page.screenshot({ path: '/tmp/weft-forms-custom-tool.png' });

    // Removed from the card, it leaves the block.
    await list.getByRole('button', { name: 'Remove tool Order lookup', exact: true }).click();
    await expect.poll(tools, POLL).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("closes the model list its toggle opened, and the agent's tool picker, on Escape and on a click elsewhere; a search without a match says so", async () => {
    const { page, errors, stored } = await openNewWorkflow(chromium(), 'Popups');
    const agent = await addAgent(page);
    const panel = await panelOf(page, agent);

    // The ▾ toggle opens the models; Escape closes them (the list used to stay open over the form).
    const models = panel.getByRole('listbox', { name: 'Model' });
    const toggle = panel.getByRole('button', { name: 'Show Model choices', exact: true });
    await toggle.click();
    await models.waitFor();
    await page.keyboard.press('Escape');
    await models.waitFor({ state: 'hidden' });
    // Opened again, a click elsewhere in the panel closes them; a choice from the list is still stored.
    await toggle.click();
    await models.waitFor();
    await panel.getByText('System Prompt', { exact: true }).click();
    await models.waitFor({ state: 'hidden' });
    await toggle.click();
    await models.getByRole('option', { name: 'o3', exact: true }).click();
    await models.waitFor({ state: 'hidden' });
    await expect.poll(() => stored(agent, 'model'), POLL).toBe('o3');

    // The tool picker: a search without a match says so instead of an empty "Tools" heading.
    const addTool = panel.getByRole('button', { name: 'Add tool', exact: true });
    const picker = panel.getByRole('dialog', { name: 'Add a tool' });
    await addTool.click();
    await picker.getByRole('textbox', { name: 'Search tools' }).fill('no-such-tool-zz');
    await picker.getByText('No tool matches “no-such-tool-zz”.', { exact: true }).waitFor();
    expect(await picker.getByText('Tools', { exact: true }).count()).toBe(0);
    await picker.screenshot({ path: '/tmp/weft-forms-tool-none.png' });
    // Escape closes it, focus back on its button, the block still selected; a click outside closes it too.
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate('document.activeElement?.textContent?.trim()')).toBe('Add tool');
    expect(await panel.isVisible()).toBe(true);
    await addTool.click();
    await picker.waitFor();
    expect(await picker.getByRole('textbox', { name: 'Search tools' }).inputValue()).toBe('');
    await panel.getByText('System Prompt', { exact: true }).click();
    await picker.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });
  it("shows the agent's Max Tokens placeholder whole in its half-width field", async () => {
    const wf = await newWorkflow('Max tokens');
    const { page, errors } = await wf.open(chromium());
    const panel = await panelOf(page, await addAgent(page));
    const input = panel.locator('[data-field="maxTokens"] input');
    expect(await input.getAttribute('placeholder')).toBe('e.g., 4096');
    // The placeholder's width in the field's font against the room inside its padding ("Enter max token…" was cut).
    const fit = (await page.evaluate(`(() => {
      const el = document.querySelector('[data-field="maxTokens"] input');
      const style = getComputedStyle(el);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.font;
      return { needed: context.measureText(el.placeholder).width, room: el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
    })()`)) as { needed: number; room: number };
    expect(fit.needed).toBeLessThanOrEqual(fit.room);
    expect(errors).toEqual([]);
  });
});
