import { describe, expect, inject, it } from 'vitest';
import { chromiumPerSuite } from './support/browser.js';
import { as, signUp } from './support/session.js';
import { openWorkflow } from './support/editing.js';

describe('the signed-in user’s settings (GET/PATCH /api/settings)', () => {
  const chromium = chromiumPerSuite();

  it('keeps the layout choices per user, refuses bad ones naming the field, and needs a session', async () => {
    const owner = await signUp('Settings user');
    const asOwner = as(owner);
    expect((await asOwner('GET', '/api/settings')).body).toEqual({ data: { layout: {} } });
    const changed = await asOwner('PATCH', '/api/settings', { layout: { paletteOpen: false, panelWidth: 400 } });
    expect(changed).toMatchObject({ status: 200, body: { data: { layout: { paletteOpen: false, panelWidth: 400 } } } });
    expect((await asOwner('PATCH', '/api/settings', { layout: { panelWidth: null } })).body).toEqual({ data: { layout: { paletteOpen: false } } });
    const bad = await asOwner<{ error: string }>('PATCH', '/api/settings', { layout: { panelWidth: 9000 } });
    expect(bad).toMatchObject({ status: 400, body: { error: 'layout.panelWidth must be at most 720' } });
    const other = await signUp('Other settings user');
    expect((await as(other)('GET', '/api/settings')).body).toEqual({ data: { layout: {} } });
    const anonymous = await fetch(new URL('/api/settings', inject('weftUrl')));
    expect(anonymous.status).toBe(401);
  });

  it('the layout chosen in one browser is the layout in another', async () => {
    const owner = await signUp('Layout follows');
    const asOwner = as(owner);
    const workflowId = (await asOwner<{ id: string }>('POST', '/api/workflows', { workspaceId: owner.workspaceId })).body.id;
    const first = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    const palette = (page: typeof first.page) => page.getByRole('complementary', { name: 'Block palette', exact: true });
    await first.page.getByRole('button', { name: 'Hide block palette' }).click();
    await expect.poll(() => palette(first.page).isVisible()).toBe(false);
    await expect.poll(async () => (await asOwner<{ data: { layout: Record<string, unknown> } }>('GET', '/api/settings')).body.data.layout).toEqual({ paletteOpen: false });

    // Another browser (its own context, nothing stored in it): the palette is hidden there too.
    const second = await openWorkflow(chromium(), owner.headers.cookie ?? '', workflowId);
    await second.page.getByRole('button', { name: 'Show block palette' }).waitFor({ timeout: 15_000 });
    expect(await palette(second.page).isVisible()).toBe(false);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
});
