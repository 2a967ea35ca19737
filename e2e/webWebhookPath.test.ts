import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { fitView } from './support/editing.js';
import { newWorkflow } from './support/workflows.js';

describe('a webhook block’s path in the web app', () => {
  const chromium = chromiumPerSuite();

  it('shows why the deploy would refuse a path instead of its URL, and the URL once the path is usable', async () => {
    const wf = await newWorkflow('Webhook block path');
    const commands = [
      { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 400, y: 0 } },
      { type: 'setSubBlockValue', id: 'hook', subBlockId: 'webhookConfig', value: { path: 'hooks/./orders' } },
    ];
    expect((await wf.call('POST', `/api/workflows/${wf.workflowId}/commands`, { commands })).status).toBe(200);
    const { page, errors } = await wf.open(chromium());
    const origin = new URL(page.url()).origin;
    await fitView(page);
    await page.locator('.react-flow__node[data-id="hook"]').click({ position: { x: 8, y: 8 } });
    const config = page.getByRole('region', { name: 'Block', exact: true }).getByRole('group', { name: 'Webhook Configuration' });
    const pathBox = config.getByRole('textbox', { name: 'Webhook path' });
    const urlBox = config.getByRole('textbox', { name: 'Webhook URL' });

    // `hooks/./orders` goes out as `hooks/orders`: no URL is shown for it, the reason is.
    await config
      .getByRole('alert')
      .filter({ hasText: 'Webhook Path "hooks/./orders" cannot have a "." segment: browsers and HTTP clients remove "." and ".." from a URL, so calls would not reach it' })
      .waitFor();
    expect(await urlBox.count()).toBe(0);
    expect(await pathBox.getAttribute('aria-invalid')).toBe('true');

    // Characters a path may not use are named too.
    await pathBox.fill('hooks/orders?x=1');
    await pathBox.press('Enter');
    await expect.poll(async () => ((await wf.stored('hook', 'webhookConfig')) as { path?: string } | undefined)?.path).toBe('hooks/orders?x=1');
    await config.getByRole('alert').filter({ hasText: 'Webhook Path may use letters, digits, ".", "_", "~", "-" and "/" between segments' }).waitFor();
    expect(await urlBox.count()).toBe(0);

    // A usable path: its URL, no error.
    await pathBox.fill('hooks/orders');
    await pathBox.press('Enter');
    await expect.poll(() => urlBox.inputValue().catch(() => '')).toBe(`${origin}/api/webhooks/trigger/hooks/orders`);
    expect(await config.getByRole('alert').count()).toBe(0);
    expect(await pathBox.getAttribute('aria-invalid')).toBe('false');
    expect(errors).toEqual([]);
  });
});
