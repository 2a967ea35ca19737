import type { Locator, Page } from 'playwright-core';

/**
 * The workflow sidebar, opened from its rail first when it is collapsed (a window of 1366 px or less,
 * as the tests' 1280 px, starts so unless the user chose otherwise), as a user would.
 */
export async function showSidebar(page: Page): Promise<Locator> {
  const sidebar = page.getByRole('complementary', { name: 'Sidebar', exact: true });
  const show = page.getByRole('button', { name: 'Show sidebar', exact: true });
  await sidebar.or(show).waitFor({ timeout: 60_000 });
  if (await show.isVisible()) await show.click();
  await sidebar.waitFor();
  return sidebar;
}
