import type { Page } from 'playwright-core';

/** A block's run state on the canvas (`data-run` of its card). */
export const runState = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"] .node-card`).getAttribute('data-run');
/** The run console below the canvas. */
export const consoleOf = (page: Page) => page.getByRole('region', { name: 'Run console' });
/** The run status the console shows (Running, Succeeded, Failed, …). */
export const runStatus = (page: Page) => consoleOf(page).getByLabel('Run status').textContent();
/** A block's entry in the console ("Log of <block name>"): its row, and its output once opened. */
export const logOf = (page: Page, blockName: string) => consoleOf(page).getByRole('listitem', { name: `Log of ${blockName}` });
/** The status a block's console entry shows (Running, Done, Skipped, …). */
export const entryStatus = (page: Page, blockName: string) => logOf(page, blockName).locator('.log-row .run-status').textContent();
