import { describe, expect, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { fitView } from './support/editing.js';
import { webhookPathField } from './support/webhookPath.js';
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
    const pathField = webhookPathField(config);
    const storedPath = async () => ((await wf.stored('hook', 'webhookConfig')) as { path?: string } | undefined)?.path;

    // `hooks/./orders` goes out as `hooks/orders`: no URL is shown for it, the reason is.
    await pathField.refused('Webhook Path "hooks/./orders" cannot have a "." segment: browsers and HTTP clients remove "." and ".." from a URL, so calls would not reach it');

    // Characters a path may not use are named too.
    await pathField.enter('hooks/orders?x=1');
    await expect.poll(storedPath).toBe('hooks/orders?x=1');
    await pathField.refused('Webhook Path may use letters, digits, ".", "_", "~", "-" and "/" between segments');

    // A usable path: its URL, no error.
    await pathField.enter('hooks/orders');
    await pathField.shows(`${origin}/api/webhooks/trigger/hooks/orders`);
    await expect.poll(storedPath).toBe('hooks/orders');
    expect(errors).toEqual([]);
  });
});
