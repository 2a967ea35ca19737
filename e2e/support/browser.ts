import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless; Playwright gives each launch a fresh temporary profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * For a describe block: one Chromium for its tests, each test's pages (contexts) closed after it.
 * Answers a getter of the browser, valid inside the tests.
 */
export function chromiumPerSuite(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running (use the getter inside a test)');
    return browser;
  };
}

/** A page in its own browser context signed in with `cookie`, at `path`; page errors are collected in `errors`. */
export async function openSignedIn(browser: Browser, cookie: string, path: string): Promise<{ page: Page; errors: string[] }> {
  const url = inject('weftUrl');
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    }),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}${path}`);
  return { page, errors };
}
