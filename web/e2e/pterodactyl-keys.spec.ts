import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, expectAccessibleInBothSchemes, expectFitsPhone, openDialog, shot, test } from 'e2e/fixtures';

// Keys in Pterodactyl's format, made in the UI and used as a tool written for Pterodactyl would use
// them: client keys (ptlc_) on /account/api-keys, application keys (ptla_) on /admin/application-keys.

const ACCEPT = 'Application/vnd.pterodactyl.v1+json';

/** A request with a Pterodactyl key, as a client library sends it. */
const call = (baseURL: string, method: string, path: string, key: string, body?: unknown): Promise<Response> =>
  fetch(`${baseURL}${path}`, {
    method,
    headers: { accept: ACCEPT, authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** The secret of the shown-once box: 48 characters, the identifier first. */
const shownKey = async (page: Page, testId: string, prefix: string): Promise<string> => {
  const key = ((await page.getByTestId(testId).textContent()) ?? '').trim();
  expect(key).toMatch(new RegExp(`^${prefix}[A-Za-z0-9]{43}$`));
  return key;
};

test.describe('Pterodactyl-compatible keys', () => {
  test('a client key made in the account opens the Pterodactyl client API, only from its addresses, until it is deleted', async ({ ownerPage: page, panel, createServer }) => {
    test.slow();
    const server = await createServer();
    const s = randomBytes(3).toString('hex');
    await page.goto('/account/api-keys');
    const section = page.getByRole('region', { name: 'Keys for Pterodactyl tools' });
    await expect(section.getByTestId('pterodactyl-panel-url')).toHaveText(`${panel.baseURL}/pterodactyl`);

    // Any address: the owner's servers, in Fractal's shape.
    await section.getByRole('button', { name: 'Create Pterodactyl key' }).click();
    let dialog = await openDialog(page, 'New key for a Pterodactyl tool');
    await dialog.getByRole('textbox', { name: 'Description' }).fill(`bot ${s}`);
    // The addresses are checked in the browser, as the panel checks them.
    const ips = dialog.getByRole('textbox', { name: 'Allowed IP addresses' });
    await ips.fill('203.0.113.7\nexample.com\n10.0.0.0/33');
    await expect(dialog.getByText('Not an IP address or CIDR range: example.com, 10.0.0.0/33')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Create Pterodactyl key' })).toBeDisabled();
    await ips.fill('');
    await expectAccessibleInBothSchemes(page);
    await dialog.getByRole('button', { name: 'Create Pterodactyl key' }).click();
    await expect(dialog).toBeHidden();
    const key = await shownKey(page, 'new-pterodactyl-key', 'ptlc_');

    const list = await call(panel.baseURL, 'GET', `/pterodactyl/api/client?filter[uuid]=${server.uuid}`, key);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { object: string; data: { object: string; attributes: { uuid: string; name: string; server_owner: boolean } }[]; meta: { pagination: { total: number } } };
    expect(body.object).toBe('list');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ object: 'server', attributes: { uuid: server.uuid, name: server.name, server_owner: true } });
    // Only its own API: Hatchery's refuses it.
    expect((await call(panel.baseURL, 'GET', '/api/account', key)).status).toBe(401);

    // Restricted to an address the test does not call from: refused.
    await section.getByRole('button', { name: 'Create Pterodactyl key' }).click();
    dialog = await openDialog(page, 'New key for a Pterodactyl tool');
    await dialog.getByRole('textbox', { name: 'Description' }).fill(`far ${s}`);
    await dialog.getByRole('textbox', { name: 'Allowed IP addresses' }).fill('203.0.113.7\n198.51.100.0/24');
    await dialog.getByRole('button', { name: 'Create Pterodactyl key' }).click();
    await expect(dialog).toBeHidden();
    const far = await shownKey(page, 'new-pterodactyl-key', 'ptlc_');
    expect((await call(panel.baseURL, 'GET', '/pterodactyl/api/client', far)).status).toBe(403);

    const keys = section.getByRole('list', { name: 'Keys for Pterodactyl tools' });
    const bot = keys.getByRole('listitem').filter({ hasText: `bot ${s}` });
    const farItem = keys.getByRole('listitem').filter({ hasText: `far ${s}` });
    await expect(bot).toContainText(key.slice(0, 16));
    await expect(bot).toContainText('From any address');
    await expect(farItem).toContainText('Only from 203.0.113.7, 198.51.100.0/24');
    await expectAccessibleInBothSchemes(page);
    await section.evaluate((el) => el.scrollIntoView());
    await shot(page, 'account-pterodactyl-keys', ['light', 'dark', 'mobile']);

    // Shown once; the use is recorded.
    await page.reload();
    await expect(bot).toContainText('last used');
    await expect(page.getByTestId('new-pterodactyl-key')).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);
    await expectFitsPhone(page, 'Keys for Pterodactyl tools');

    for (const [name, secret] of [[`bot ${s}`, key], [`far ${s}`, far]] as const) {
      await keys.getByRole('button', { name: `Delete the Pterodactyl key ${name}` }).click();
      await page.getByRole('dialog', { name: 'Delete Pterodactyl key?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(keys.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
      expect((await call(panel.baseURL, 'GET', '/pterodactyl/api/client', secret)).status).toBe(401);
    }
  });

  test('an application key made in the administration carries its permissions, per resource and per access', async ({ adminPage: page, panel }) => {
    test.slow();
    const s = randomBytes(3).toString('hex');
    await page.goto('/admin/application-keys');
    await expect(page.getByRole('heading', { name: 'Application keys', level: 2, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Application keys', selected: true })).toBeVisible();

    await page.getByRole('button', { name: 'Create application key' }).click();
    const dialog = await openDialog(page, 'New application key');
    await dialog.getByRole('textbox', { name: 'Description' }).fill(`billing ${s}`);
    // Nothing is granted until chosen.
    for (const resource of ['Servers', 'Nodes', 'Allocations', 'Users', 'Locations', 'Nests', 'Eggs', 'Database hosts', 'Server databases']) {
      await expect(dialog.getByRole('radio', { name: `${resource}: None`, exact: true })).toBeChecked();
    }
    await dialog.getByRole('radio', { name: 'Users: Read', exact: true }).check();
    await expectAccessibleInBothSchemes(page);
    await dialog.getByRole('button', { name: 'Create application key' }).click();
    await expect(dialog).toBeHidden();

    const key = await shownKey(page, 'new-application-key', 'ptla_');
    const created = page.getByRole('status').filter({ hasText: `Application key “billing ${s}” created` });
    await expect(created).toContainText(`${panel.baseURL}/api/application`);
    await expect(created).toContainText(`${panel.baseURL}/pterodactyl`);

    const item = page.getByRole('list', { name: 'Application keys' }).getByRole('listitem', { name: `billing ${s}` });
    await expect(item.getByRole('list', { name: 'Permissions' }).getByRole('listitem')).toHaveText(['Users: read']);
    await expect(item).toContainText(key.slice(0, 16));

    // Read on users, and nothing else.
    const users = await call(panel.baseURL, 'GET', '/api/application/users', key);
    expect(users.status).toBe(200);
    expect(((await users.json()) as { object: string }).object).toBe('list');
    const made = await call(panel.baseURL, 'POST', '/api/application/users', key, { email: `ptla-${s}@hatchery.test`, username: `ptla_${s}`, first_name: 'Bill', last_name: 'Ing' });
    expect(made.status).toBe(403);
    expect((await call(panel.baseURL, 'GET', '/api/application/nodes', key)).status).toBe(403);

    await expectAccessibleInBothSchemes(page);
    await shot(page, 'admin-application-keys', ['light', 'dark', 'mobile']);
    await expectFitsPhone(page, 'Application keys');

    await item.getByRole('button', { name: `Delete the application key billing ${s}` }).click();
    await page.getByRole('dialog', { name: 'Delete application key?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(item).toHaveCount(0);
    expect((await call(panel.baseURL, 'GET', '/api/application/users', key)).status).toBe(401);
  });
});
