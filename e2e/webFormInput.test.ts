import { describe, expect, it } from 'vitest';
import { chromiumPerSuite, openSignedIn } from './support/browser.js';
import { as, signUp } from './support/session.js';

describe('form input that used to be lost or taken silently (helper-140 QA)', () => {
  const chromium = chromiumPerSuite();

  it('names a bad environment variable key beside its row before saving, keeps every row, and shows a refused save’s reason', async () => {
    const owner = await signUp('Env rows');
    const asOwner = as(owner);
    const saved = async () => (await asOwner<{ data: Record<string, { value: string }> }>('GET', '/api/environment')).body.data;
    const { page, errors } = await openSignedIn(chromium(), owner.headers.cookie ?? '', '/settings/environment');
    await page.getByText('No variables yet.', { exact: false }).waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: 'Key 1' }).fill('my key!');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: 'Key 2' }).fill('OPENAI_API_KEY');
    await page.locator('input[aria-label="Value 2"]').fill('sk-kept');
    // The form turns the space into _; the registry's rule is shown beside row 1, and Save waits.
    expect(await page.getByRole('textbox', { name: 'Key 1' }).inputValue()).toBe('my_key!');
    await page.getByRole('alert').filter({ hasText: "Environment variable name 'my_key!' must start with a letter or _ and hold only letters, digits and _" }).waitFor();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Key 1' }).getAttribute('aria-invalid')).toBe('true');

    // Fixed, it saves both rows.
    await page.getByRole('textbox', { name: 'Key 1' }).fill('MY_KEY');
    expect(await page.getByRole('alert').count()).toBe(0);
    await save.click();
    await expect.poll(saved).toEqual({ MY_KEY: { key: 'MY_KEY', value: '' }, OPENAI_API_KEY: { key: 'OPENAI_API_KEY', value: 'sk-kept' } });

    // A save the server refuses anyway: the toast gives the spec's words and the server's reason.
    await page.route('**/api/environment', (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Environment variables are locked' }) }) : route.fallback(),
    );
    await page.locator('input[aria-label="Value 1"]').fill('changed');
    await save.click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Failed to save environment variables: Bad Request. Environment variables are locked');
    expect(errors).toEqual([]);
  });
});
