import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/**
 * A webhook path field, in `group` (the starter's Webhook Path, a webhook block's Webhook
 * Configuration): its path box, the URL it shows for a usable path, the reason it shows instead for
 * a path the deploy refuses (`webhookPathError` of `@weft/catalog`).
 */
export function webhookPathField(group: Locator) {
  const pathBox = group.getByRole('textbox', { name: 'Webhook path' });
  const urlBox = group.getByRole('textbox', { name: 'Webhook URL' });
  return {
    pathBox,
    urlBox,
    /** Types `path` and sends it (Enter). */
    async enter(path: string): Promise<void> {
      await pathBox.fill(path);
      await pathBox.press('Enter');
    },
    /** `reason` shows, no URL does, and the path box is marked invalid. */
    async refused(reason: string): Promise<void> {
      await group.getByRole('alert').filter({ hasText: reason }).waitFor();
      expect(await urlBox.count()).toBe(0);
      expect(await pathBox.getAttribute('aria-invalid')).toBe('true');
    },
    /** `url` shows, no reason does, and the path box is valid. */
    async shows(url: string): Promise<void> {
      await expect.poll(() => urlBox.inputValue().catch(() => '')).toBe(url);
      expect(await group.getByRole('alert').count()).toBe(0);
      expect(await pathBox.getAttribute('aria-invalid')).toBe('false');
    },
  };
}
