import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';

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
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(inject('weftUrl'));
    await page.getByRole('button', { name: 'New workflow' }).click();
    const starter = page.locator('.react-flow__node.block-starter');
    await starter.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await starter.textContent()).toContain('Start');
    expect(await page.getByRole('list', { name: 'Workflows' }).getByRole('button').count()).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: path.join(tmpdir(), 'weft-canvas.png') });
    expect(errors).toEqual([]);
  });
});
