/**
 * A model block other than the agent whose answer is cut off at the max tokens limit: the translate
 * block, on the OpenAI-compatible fake (finish_reason length) and on the Anthropic fake (stop_reason
 * max_tokens). Its output carries a `warning` (the runner's modelOutput), which the run console shows
 * on the block's row, live and from the history, and not for the next, whole answer. The agent's
 * case is in webConsole.test.ts. The stack's model fake does not speak Gemini's API, so Gemini's
 * MAX_TOKENS is covered by the integrations service's own tests (gemini.unit.test.ts) only.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPerSuite } from './support/browser.js';
import { scriptAnthropic, scriptModel } from './support/modelScripts.js';
import { consoleOf, entryStatus, logOf, runStatus } from './support/runConsole.js';
import { newWorkflow } from './support/workflows.js';

/** The warning callModel gives an answer cut off at the max tokens limit, with how the provider said so. */
const cutShort = (stop: string) => `The answer was cut off at the max tokens limit (${stop}): it is incomplete`;

/** A translate block after the starter: `text` into `language` with `model` (the stack's fakes answer every provider). */
const translate = (starter: string, id: string, name: string, y: number, fields: { text: string; language: string; model: string; apiKey: string }) => [
  { type: 'addBlock', id, blockType: 'translate', name, position: { x: 400, y } },
  { type: 'setSubBlockValue', id, subBlockId: 'context', value: fields.text },
  { type: 'setSubBlockValue', id, subBlockId: 'targetLanguage', value: fields.language },
  { type: 'setSubBlockValue', id, subBlockId: 'model', value: fields.model },
  { type: 'setSubBlockValue', id, subBlockId: 'apiKey', value: fields.apiKey },
  { type: 'addEdge', id: `to-${id}`, source: starter, target: id },
];

/** The warning line under a block's row (`role="note"`), or null while there is none. */
const warningOf = async (page: Page, blockName: string) => {
  const note = logOf(page, blockName).getByRole('note', { name: `Warning of ${blockName}` });
  return (await note.count()) === 0 ? null : note.textContent();
};

/** The title of the warning badge on a block's row, or null while there is none. */
const badgeOf = async (page: Page, blockName: string) => {
  const badge = logOf(page, blockName).locator('.log-row .badge.warning');
  return (await badge.count()) === 0 ? null : badge.getAttribute('title');
};

describe('a translate block cut off at the max tokens limit in the run console', () => {
  const chromium = chromiumPerSuite();

  it('shows the warning of each provider on its row (OpenAI finish_reason length, Anthropic stop_reason max_tokens), none for a whole answer, and the first run’s again from the history', async () => {
    const marker = `[cut-translate-${randomUUID()}]`;
    // The first run's answers are cut off; the next ones are whole.
    await scriptModel(marker, [{ content: 'Le début d’une', finishReason: 'length' }, { content: 'Une traduction entière.' }]);
    await scriptAnthropic(marker, [{ content: 'Der Anfang einer', finishReason: 'max_tokens' }, { content: 'Eine ganze Übersetzung.' }]);
    const { call, workflowId, starter, open } = await newWorkflow('Cut-off translator');
    const text = `A long story to translate ${marker}`;
    const edit = await call('POST', `/api/workflows/${workflowId}/commands`, {
      commands: [
        ...translate(starter, 'french', 'French', -120, { text, language: 'French', model: 'gpt-4o', apiKey: 'sk-e2e' }),
        ...translate(starter, 'german', 'German', 150, { text, language: 'German', model: 'claude-sonnet-4-0', apiKey: 'sk-ant-e2e' }),
      ],
    });
    expect(edit.status).toBe(200);
    const { page, errors } = await open(chromium());
    const console_ = consoleOf(page);
    const openai = cutShort('openai finish_reason length');
    const anthropic = cutShort('Anthropic stop_reason max_tokens');

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    // Each block succeeded with what it had: done, its provider's warning on its row without opening it, no error.
    await expect.poll(() => warningOf(page, 'French')).toBe(openai);
    await expect.poll(() => warningOf(page, 'German')).toBe(anthropic);
    expect([await badgeOf(page, 'French'), await badgeOf(page, 'German')]).toEqual([openai, anthropic]);
    expect([await entryStatus(page, 'French'), await entryStatus(page, 'German')]).toEqual(['Done', 'Done']);
    expect(await console_.locator('.log-error').count()).toBe(0);
    expect(await console_.getByRole('alert').count()).toBe(0);
    expect(await console_.getByRole('note').count()).toBe(2);
    // The cut answer is the block's output all the same.
    const french = logOf(page, 'French');
    await french.getByRole('button').first().click();
    await french.getByRole('group', { name: 'Output of French' }).getByText('Le début d’une', { exact: false }).first().waitFor();
    await page.screenshot({ path: path.join(tmpdir(), 'weft-console-cut-translate.png') });

    // Run again: the whole answers show no warning.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => console_.getByRole('note').count()).toBe(0);
    await expect.poll(() => runStatus(page), { timeout: 60_000 }).toBe('Succeeded');
    expect([await entryStatus(page, 'French'), await entryStatus(page, 'German')]).toEqual(['Done', 'Done']);
    const german = logOf(page, 'German');
    await german.getByRole('button').first().click();
    await german.getByRole('group', { name: 'Output of German' }).getByText('Eine ganze Übersetzung.', { exact: false }).first().waitFor();
    expect(await console_.getByRole('note').count()).toBe(0);
    expect([await badgeOf(page, 'French'), await badgeOf(page, 'German')]).toEqual([null, null]);

    // The first run opened from the history (newest first): its stored log shows the same warnings.
    await console_.getByRole('tab', { name: 'History' }).click();
    const runs = console_.getByRole('list', { name: 'Past runs' }).getByRole('button');
    await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(2);
    await runs.last().click();
    await expect.poll(() => warningOf(page, 'French'), { timeout: 15_000 }).toBe(openai);
    await expect.poll(() => warningOf(page, 'German')).toBe(anthropic);
    expect([await badgeOf(page, 'French'), await badgeOf(page, 'German')]).toEqual([openai, anthropic]);
    expect(errors).toEqual([]);
  });
});
