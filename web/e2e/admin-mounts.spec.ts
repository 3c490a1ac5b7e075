import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectAccessibleInBothSchemes, expectNoHorizontalScroll, openDialog, shot, test } from 'e2e/fixtures';

// Mounts: defined with their path rules, linked to an egg and a node, attached to a server on its
// administration page, and shown to the server's owner.

/** axe in light and dark, no sideways scrolling at 390 px, a look for the reviewer, and the README's screenshots. */
const checkPage = async (page: Page, name: string): Promise<void> => {
  await expectAccessibleInBothSchemes(page);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.setViewportSize(size);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  await shot(page, name, ['light', 'dark', 'mobile']);
};

test.describe('administration: mounts', () => {
  test('create a mount (the path rules refuse a Wings directory), link the egg and node, attach it to a server, the owner sees it', async ({
    adminPage: page,
    ownerPage,
    api,
    panel,
    createServer,
    installed,
  }) => {
    test.slow();
    const s = randomBytes(3).toString('hex');
    const name = `Maps ${s}`;
    const server = await createServer({ name: `Mounted ${s}` });
    await installed(server);

    await page.goto('/admin/mounts');
    await expect(page.getByRole('heading', { name: 'Mounts', level: 2, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Mounts', selected: true })).toBeVisible();
    await page.getByRole('button', { name: 'New mount' }).click();
    const dialog = await openDialog(page, 'New mount');
    await expect(dialog.getByLabel('Path rules')).toContainText('/home/container');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Description').fill('Adventure maps for every lobby');
    await dialog.getByLabel('Source (on the node)').fill('/var/lib/pterodactyl/volumes');
    await dialog.getByLabel('Target (in the server)').fill('/mnt/maps/');
    await dialog.getByLabel('Read only').check();
    await dialog.getByRole('button', { name: 'New mount' }).click();
    await expect(dialog.getByText("source must not be, lie under or contain /var/lib/pterodactyl (Wings' own files and every server's data are there)")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('admin-mount-form.png') });
    await dialog.getByLabel('Source (on the node)').fill(`/srv/maps-${s}`);
    await dialog.getByRole('button', { name: 'New mount' }).click();
    await expect(dialog).toBeHidden();

    // The new mount's page: paths normalised, nothing linked yet.
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expect(page.getByText(`/srv/maps-${s} → /mnt/maps`)).toBeVisible();
    const eggs = page.getByRole('region', { name: 'Eggs' });
    const nodes = page.getByRole('region', { name: 'Nodes' });
    await expect(eggs).toContainText('No egg linked.');
    await eggs.getByRole('combobox', { name: 'Link eggs' }).click();
    // Other tests import Paper into nests of their own: the option of this server's egg, by its id.
    await page.locator(`[role="option"][value="${panel.eggId}"]`).click();
    await page.keyboard.press('Escape');
    await eggs.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(eggs.getByRole('button', { name: 'Unlink Paper' })).toBeVisible();
    await nodes.getByRole('combobox', { name: 'Link nodes' }).click();
    await page.getByRole('option', { name: 'sim', exact: true }).click();
    await page.keyboard.press('Escape');
    await nodes.getByRole('button', { name: 'Link', exact: true }).click();
    await expect(nodes.getByRole('button', { name: 'Unlink sim' })).toBeVisible();
    await expect(nodes).toContainText('config.yml');
    await checkPage(page, 'admin-mount');

    // The list finds it.
    await page.getByRole('link', { name: '← All mounts' }).click();
    await page.getByLabel('Search mounts').fill(s);
    await expect(page.getByRole('listitem', { name })).toContainText(`/srv/maps-${s} → /mnt/maps`);
    await checkPage(page, 'admin-mounts');

    // Attach it on the server's Mounts tab.
    await page.goto(`/admin/servers/${server.id}?tab=mounts`);
    const card = page.getByRole('listitem', { name });
    await card.getByRole('button', { name: `Attach ${name}` }).click();
    await expect(page.getByText(`${name} attached; the node applies it at the server’s next restart`)).toBeVisible();
    await expect(card.getByText('Attached', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: `Detach ${name}` })).toBeVisible();
    await checkPage(page, 'admin-server-mounts');
    const attached = (await api.raw.request<{ id: string; attached: boolean }[]>('GET', `/api/admin/servers/${server.id}/mounts`, { session: api.adminSession })) ?? [];
    expect(attached.filter((m) => m.attached)).toHaveLength(1);

    // The owner sees it on the server's settings page.
    await ownerPage.goto(`/server/${server.uuid}/settings`);
    const mounts = ownerPage.getByRole('region', { name: 'Mounts' });
    await expect(mounts).toContainText(name);
    await expect(mounts).toContainText('/mnt/maps');
    await expect(mounts).toContainText('Read only');
    await checkPage(ownerPage, 'server-settings-mounts');

    // Detach and delete it, so that the shared panel stays as it was.
    await card.getByRole('button', { name: `Detach ${name}` }).click();
    await expect(card.getByRole('button', { name: `Attach ${name}` })).toBeVisible();
    await card.getByRole('link', { name }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await (await openDialog(page, 'Delete the mount?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/admin\/mounts$/);
  });
});
