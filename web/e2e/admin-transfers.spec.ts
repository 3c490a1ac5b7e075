import { expect, expectAccessible, shot, test } from 'e2e/fixtures';

// Moving a server between two nodes from the admin server page (docs/admin-guide.md#transfers), in real
// Chromium against the built panel and two Wings simulators: the dialog, the live progress to completed,
// the owner's "transferring" banner with power disabled, a cancel; then the node page's drain.

test.describe('admin transfers', () => {
  test('the Transfer dialog moves a server to another node with live progress; a second transfer is followed by the owner and cancelled', async ({
    adminPage: page,
    ownerPage,
    api,
    panel,
    newNode,
    createServer,
    installed,
  }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    test.setTimeout(180_000);
    const source = await newNode();
    const target = await newNode();
    const targetName = String((await api.admin('GET', `/api/admin/nodes/${target.id}`)).name);
    const sourceName = String((await api.admin('GET', `/api/admin/nodes/${source.id}`)).name);
    const server = await createServer({ node_id: source.id });
    await installed(server);

    await page.goto(`/admin/servers/${server.id}?tab=manage`);
    await expect(page.getByText('Transfer to another node')).toBeVisible();
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Transfer ${server.name}` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Target node' }).click();
    await page.getByRole('option', { name: targetName, exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Primary allocation' }).click();
    await page.getByRole('option', { name: '0.0.0.0:27100', exact: true }).click();
    await expectAccessible(page);
    await shot(page, 'admin-server-transfer-dialog', ['light']);

    // The target answers slowly: the page shows the transfer running before it completes.
    target.sim.faults.slowMs = 2500;
    await dialog.getByRole('button', { name: 'Start transfer' }).click();
    await expect(dialog).toBeHidden();
    const progress = page.getByTestId('transfer-progress');
    await expect(progress.getByTestId('transfer-state')).toHaveText(/State: (Pending|Archiving|Restoring)/);
    await expect(progress.getByRole('button', { name: 'Cancel transfer' })).toBeVisible();
    await shot(page, 'admin-server-transfer-running', ['light']);
    await expect(progress.getByTestId('transfer-state')).toHaveText('State: Completed', { timeout: 20_000 });
    await expect(progress.getByText(`The server now runs on ${targetName}`)).toBeVisible();
    await expect(page.getByText(`node ${targetName}`, { exact: false }).first()).toBeVisible();
    await expectAccessible(page);
    await shot(page, 'admin-server-transfer-completed', ['light', 'dark']);
    target.sim.resetFaults();
    expect(target.sim.servers.has(server.uuid)).toBe(true);
    expect(source.sim.servers.has(server.uuid)).toBe(false);

    // Back to the first node; the first node never reports, so the transfer stays running until it is cancelled.
    source.sim.faults.transferTargetSilent = true;
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Target node' }).click();
    await page.getByRole('option', { name: sourceName, exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Primary allocation' }).click();
    await page.getByRole('option').first().click();
    await dialog.getByRole('button', { name: 'Start transfer' }).click();
    await expect(progress.getByTestId('transfer-state')).toHaveText('State: Restoring', { timeout: 15_000 });

    // The owner sees it and cannot use power meanwhile.
    await ownerPage.goto(`/server/${server.uuid.slice(0, 8)}`);
    await expect(ownerPage.getByRole('status').filter({ hasText: 'Moving to another node' })).toBeVisible();
    await expect(ownerPage.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
    await expect(ownerPage.getByText('This server is being moved to another node')).toBeVisible();
    await expectAccessible(ownerPage);
    await shot(ownerPage, 'server-transferring-banner', ['light', 'mobile']);

    await progress.getByRole('button', { name: 'Cancel transfer' }).click();
    await expect(progress.getByTestId('transfer-state')).toHaveText('State: Cancelled');
    await expect(progress.getByRole('alert')).toContainText('Cancelled by');
    await shot(page, 'admin-server-transfer-cancelled', ['light']);
    source.sim.resetFaults();
    await ownerPage.reload();
    await expect(ownerPage.getByRole('button', { name: 'Start', exact: true })).toBeEnabled({ timeout: 15_000 });
    await expect(ownerPage.getByText('Moving to another node')).toBeHidden();

    // The first node, now empty, drains at once: the node page says so.
    await page.goto(`/admin/nodes/${source.id}`);
    const drain = page.getByRole('region', { name: 'Drain node' });
    await drain.getByRole('button', { name: 'Drain node' }).click();
    await expect(drain.getByTestId('drain-progress')).toContainText('Finished · 0 of 0 servers handled');
    await expectAccessible(page);
    await shot(page, 'admin-node-drain', ['light']);
  });
});
