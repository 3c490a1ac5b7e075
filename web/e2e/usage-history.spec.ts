import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessibleInBothSchemes, expectNoHorizontalScroll, shot, test } from 'e2e/fixtures';

// The usage history (docs/api.md#usage-history) on the console page and the node's Usage tab. The
// panel samples every 10 s here (global-setup.ts), so a started server has points within seconds.

/**
 * axe in both schemes, no sideways scroll at 390 px, and the history's screenshots (light, dark, phone),
 * each with the section scrolled into view.
 */
const checkHistory = async (page: Page, history: Locator, name: string): Promise<void> => {
  await expectAccessibleInBothSchemes(page);
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  // The graphs follow their cards' width (a resize observer), then nothing sticks out.
  await expectNoHorizontalScroll(page);
  // The section's title just under the app's header (scrolling it into view would leave it beneath).
  await history.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 64));
  await shot(page, name, ['mobile']);
  await page.setViewportSize(size);
  await expectNoHorizontalScroll(page);
  await history.scrollIntoViewIfNeeded();
  await shot(page, name, ['light', 'dark']);
};

test.describe('usage history', () => {
  test('a running server draws its history; a range with nothing recorded says so; the node page sums its servers', async ({
    ownerPage: page,
    adminPage,
    api,
    panel,
    createServer,
    installed,
  }) => {
    // Up to two minutes go by waiting for the sampler's minutes.
    test.setTimeout(180_000);
    const server = await createServer();
    await installed(server);
    await page.goto(`/server/${server.uuid}`);
    const history = page.getByRole('region', { name: 'Usage history' });
    await expect(history).toBeVisible();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByText('Running', { exact: true })).toBeVisible();

    // The node has been sampled since the panel started (on a fresh panel, wait for its first minute).
    const admin = { cookie: panel.admin.cookie };
    await expect
      .poll(async () => (await api.raw.request<{ points: unknown[] }>('GET', `/api/admin/nodes/${panel.nodeId}/resources/history?range=1h`, { session: admin })).points.length, {
        timeout: 90_000,
      })
      .toBeGreaterThanOrEqual(1);
    await adminPage.goto(`/admin/nodes/${panel.nodeId}?tab=usage`);
    await expect(adminPage.getByRole('tab', { name: 'Usage', selected: true })).toBeVisible();
    await expect(adminPage.getByText(/The node answered 100\s?% of the panel's samples/)).toBeVisible();
    await expect(adminPage.getByRole('img', { name: /^CPU: between/ })).toBeVisible();
    await checkHistory(adminPage, adminPage.getByRole('region', { name: 'Usage history' }), 'node-usage');

    // Rollups come every quarter of an hour: a week has nothing yet.
    const ranges = history.getByRole('radiogroup', { name: 'History range' });
    await ranges.getByText('7 days').click();
    await expect(history.getByText('Nothing recorded in this range yet.', { exact: false })).toBeVisible();
    await ranges.getByText('1 hour').click();

    // Two minutes with the server running (points are per minute), then the page's next read draws them.
    const owner = { cookie: panel.owner.cookie };
    await expect
      .poll(async () => (await api.raw.request<{ points: unknown[] }>('GET', `/api/client/servers/${server.uuid}/resources/history?range=1h`, { session: owner })).points.length, {
        timeout: 90_000,
      })
      .toBeGreaterThanOrEqual(2);
    await page.reload();
    await expect(history.getByRole('img', { name: /^CPU: between .*; peaks between/ })).toBeVisible();
    await expect(history.getByRole('img', { name: /^Memory: between/ })).toBeVisible();
    await expect(history.getByRole('img', { name: /^Network: in between/ })).toBeVisible();
    await checkHistory(page, history, 'usage-history');
  });
});
