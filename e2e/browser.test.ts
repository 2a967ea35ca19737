import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createAccount } from './support/accounts.js';
import { showSidebar } from './support/layout.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the web app in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    // Playwright gives each launch a fresh temporary profile.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a workflow and shows its starter block on the canvas', async () => {
    // The app needs a session: sign an account up and hand its cookie to the browser.
    const { cookie } = await createAccount('Browser Tester');
    const context = await browser.newContext();
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url: inject('weftUrl') };
      }),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(inject('weftUrl'));
    await (await showSidebar(page)).getByRole('button', { name: 'New workflow' }).click();
    const starter = page.locator('.react-flow__node.block-starter');
    await starter.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await starter.textContent()).toContain('Start');
    // The sidebar list refreshes on its own schedule; wait for it rather than sample it once.
    await expect.poll(() => page.getByRole('list', { name: 'Workflows' }).getByRole('button').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-canvas.png') });
    expect(errors).toEqual([]);
  });
});
