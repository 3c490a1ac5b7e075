import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { docScreenshot, expect, expectAccessible, expectNoHorizontalScroll, test } from 'e2e/fixtures';

// The dashboard `/` against the built panel, its live-status socket `/api/ws` and Wings simulators.
// Every test names its servers with its own tag and searches for it, so tests running side by side
// on the same owner do not see each other's servers.

const tag = () => `t${randomBytes(3).toString('hex')}`;

const card = (page: Page, name: string) => page.getByRole('article', { name });

test.describe('dashboard', () => {
  test('a server started through the API turns running with its CPU, memory and disk bars', async ({ ownerPage: page, api, createServer }) => {
    const t = tag();
    const server = await createServer({ name: `Survival ${t}` });
    await page.goto(`/?q=${t}`);
    const survival = card(page, `Survival ${t}`);
    await expect(survival).toBeVisible();
    await expect(survival.getByRole('link', { name: `Survival ${t}` })).toHaveAttribute('href', `/server/${server.uuid.slice(0, 8)}`);

    await expect.poll(async () => (await api.admin('GET', `/api/admin/servers/${server.id}`)).installStatus, { timeout: 15_000 }).toBeNull();
    await expect(survival.getByText('Offline', { exact: true })).toBeVisible({ timeout: 15_000 });
    await api.admin('POST', `/api/client/servers/${server.uuid}/power`, { action: 'start' });
    await expect(survival.getByText('Running', { exact: true })).toBeVisible({ timeout: 15_000 });
    for (const what of ['CPU', 'Memory', 'Disk']) {
      await expect(survival.getByRole('progressbar', { name: new RegExp(`^${what}: `) })).toBeAttached();
    }
    await expect(survival.getByRole('progressbar', { name: /^Memory: .* of 2 GiB$/ })).toBeAttached();
    // The change was announced politely.
    await expect(page.locator('[aria-live="polite"]')).toContainText(`Survival ${t}: Running`);
    await expectAccessible(page);

    // Screenshots: light, dark, and a 390 px phone (cards stacked, no sideways scrolling).
    for (const variant of ['light', 'dark', 'mobile'] as const) {
      await page.evaluate((s) => window.localStorage.setItem('hatchery-color-scheme', s), variant === 'dark' ? 'dark' : 'light');
      await page.setViewportSize(variant === 'mobile' ? { width: 390, height: 844 } : { width: 1280, height: 800 });
      await page.reload();
      await expect(survival.getByText('Running', { exact: true })).toBeVisible({ timeout: 15_000 });
      if (variant === 'mobile') {
        await expectNoHorizontalScroll(page);
      }
      await docScreenshot(page, `dashboard-${variant}.png`);
      // The whole page, app shell included, at 1280 and 390 px; in dark, the colours of the same page.
      await expectAccessible(page, variant === 'dark' ? { only: 'colours' } : {});
    }
    await page.evaluate(() => window.localStorage.removeItem('hatchery-color-scheme'));
  });

  test("a node that stops answering marks its own servers unreachable while the other node's keep updating", async ({ ownerPage: page, api, createServer, panel }) => {
    test.setTimeout(90_000);
    const t = tag();
    // A second node with its own simulator, in this worker so the test can switch it off.
    const key = await api.admin('POST', '/api/account/api-keys', { name: `node ${t}`, permissions: ['nodes.read'] });
    const location = ((await api.raw.request<{ id: string }[]>('GET', '/api/admin/locations', { session: api.adminSession })) ?? [])[0];
    const port = 20_000 + (parseInt(t.slice(1), 16) % 20_000);
    const node = await api.admin('POST', '/api/admin/nodes', { name: `far ${t}`, fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 100000, locationId: location.id });
    await api.admin('POST', `/api/admin/nodes/${String(node.id)}/allocations`, { ip: '0.0.0.0', ports: ['27015-27020'] });
    const config = await api.raw.request<{ token_id: string; token: string }>('GET', `/api/admin/daemon/nodes/${String(node.id)}/configuration`, { apiKey: String(key.key) });
    const far = new WingsSimulator({
      panelUrl: panel.baseURL,
      tokenId: config.token_id,
      token: config.token,
      port,
      allowedOrigins: [panel.baseURL],
      timing: { lineDelayMs: 5, statsIntervalMs: 100, installDurationMs: 20, tokenCheckIntervalMs: 100 },
    });
    await far.start();
    try {
      const near = await createServer({ name: `Near ${t}` });
      const away = await createServer({ name: `Away ${t}`, node_id: node.id });
      for (const s of [near, away]) {
        await expect.poll(async () => (await api.admin('GET', `/api/admin/servers/${s.id}`)).installStatus, { timeout: 15_000 }).toBeNull();
        await api.admin('POST', `/api/client/servers/${s.uuid}/power`, { action: 'start' });
      }
      await page.goto(`/?q=${t}`);
      await expect(card(page, `Near ${t}`).getByText('Running', { exact: true })).toBeVisible({ timeout: 15_000 });
      await expect(card(page, `Away ${t}`).getByText('Running', { exact: true })).toBeVisible({ timeout: 15_000 });

      far.faults.down = true;
      await expect(card(page, `Away ${t}`).getByText('Node not answering')).toBeVisible({ timeout: 20_000 });
      await expect(card(page, `Away ${t}`).getByRole('progressbar')).toHaveCount(0);
      await expect(card(page, `Near ${t}`).getByText('Running', { exact: true })).toBeVisible();
      // The near node's card still follows its server: stopping it shows.
      await api.admin('POST', `/api/client/servers/${near.uuid}/power`, { action: 'stop' });
      await expect(card(page, `Near ${t}`).getByText('Offline', { exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(card(page, `Away ${t}`).getByText('Node not answering')).toBeVisible();

      far.resetFaults();
      await expect(card(page, `Away ${t}`).getByText('Running', { exact: true })).toBeVisible({ timeout: 20_000 });
    } finally {
      far.resetFaults();
      await far.stop();
    }
  });

  test('tabs and search live in the URL; all servers only for administrators', async ({ ownerPage, adminPage, createServer }) => {
    const t = tag();
    await createServer({ name: `Lobby ${t}` });
    await createServer({ name: `Arena ${t}` });

    await ownerPage.goto('/');
    await expect(ownerPage.getByRole('tab', { name: 'All my servers' })).toHaveAttribute('aria-selected', 'true');
    await expect(ownerPage.getByRole('tab', { name: 'All servers (admin)' })).toHaveCount(0);
    const search = ownerPage.getByRole('searchbox', { name: 'Search servers' });
    await search.fill(`lobby ${t}`);
    await expect(ownerPage).toHaveURL(new RegExp(`[?&]q=lobby(\\+|%20)${t}`));
    await expect(ownerPage.getByRole('article')).toHaveCount(1);
    await expect(card(ownerPage, `Lobby ${t}`)).toBeVisible();
    await expect(ownerPage.getByText(`1 server matches “lobby ${t}”`)).toBeVisible();

    await search.fill(`nothing-${t}`);
    await expect(ownerPage.getByRole('heading', { name: `No servers match “nothing-${t}”` })).toBeVisible();
    await ownerPage.getByRole('button', { name: 'Clear the search' }).click();
    await expect(search).toHaveValue('');
    await expect(card(ownerPage, `Arena ${t}`)).toBeVisible();

    await ownerPage.getByRole('tab', { name: 'Shared with me' }).click();
    await expect(ownerPage).toHaveURL(/[?&]tab=shared/);
    await expect(ownerPage.getByRole('heading', { name: 'Nothing shared with you' })).toBeVisible();
    await expectAccessible(ownerPage);

    // The administrator owns none of these, and finds them under "All servers", with their owner.
    await adminPage.goto(`/?tab=all&q=${t}`);
    await expect(adminPage.getByRole('tab', { name: 'All servers (admin)' })).toHaveAttribute('aria-selected', 'true');
    await expect(card(adminPage, `Arena ${t}`).getByText('Owner: owner')).toBeVisible();
    await adminPage.getByRole('tab', { name: 'All my servers' }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/\\?q=${t}$`));
    await expect(adminPage.getByRole('heading', { name: `No servers match “${t}”` })).toBeVisible();
  });
});
