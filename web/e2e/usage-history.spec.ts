import { expect, expectAccessible, expectAccessibleInBothSchemes, expectNoHorizontalScroll, shot, test } from 'e2e/fixtures';

// The usage history (docs/api.md#usage-history) on the console page and the node's Usage tab. The
// panel samples every 10 s here (global-setup.ts), so a started server has points within seconds.

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

    // The node has been sampled since the panel started.
    await adminPage.goto(`/admin/nodes/${panel.nodeId}?tab=usage`);
    await expect(adminPage.getByRole('tab', { name: 'Usage', selected: true })).toBeVisible();
    await expect(adminPage.getByText(/The node answered 100\s?% of the panel's samples/)).toBeVisible();
    await expect(adminPage.getByRole('img', { name: /^CPU: between/ })).toBeVisible();
    await expectAccessibleInBothSchemes(adminPage);
    await shot(adminPage, 'node-usage', ['light', 'dark']);

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
    await expectAccessibleInBothSchemes(page);
    // At 390 px the three graphs stack, each as wide as the phone, with nothing sideways.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, { only: 'layout' });
    await page.setViewportSize(size);
    await history.scrollIntoViewIfNeeded();
    await shot(page, 'usage-history', ['light', 'dark']);
    await page.setViewportSize({ width: 390, height: 844 });
    await history.getByRole('img', { name: /^Memory: between/ }).scrollIntoViewIfNeeded();
    await shot(page, 'usage-history', ['mobile']);
    await page.setViewportSize(size);
  });
});
