import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, expectAccessibleInBothSchemes, expectNoHorizontalScroll, openDialog, shot, signIn, test } from 'e2e/fixtures';
import { freePort } from 'e2e/panel-process';

// Administrator roles: a full administrator makes a role in the UI and gives it on the user's page; its
// holder sees only the tabs it grants and no button for what it may only read; a role limited to a node
// without servers sees none of the servers the full administrator sees.

/** A page of its own for an account signed in through the API, closed with the test. */
const pageOf = async (browser: Browser, baseURL: string, account: { email: string; password: string }): Promise<Page> => {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await signIn(page, account);
  return page;
};

const tabNames = async (page: Page): Promise<string[]> => {
  await expect(page.getByRole('tablist', { name: 'Administration pages' })).toBeVisible();
  return page.getByRole('tablist', { name: 'Administration pages' }).getByRole('tab').allTextContents();
};

test.describe('administration: roles', () => {
  test('a role made in the UI and given on the user page shows its holder only its tabs; a node-limited role sees only its nodes', async ({
    adminPage: page,
    api,
    browser,
    panel,
    newUser,
    createServer,
  }) => {
    test.slow();
    const s = randomBytes(3).toString('hex');
    const roleName = `Support ${s}`;
    const server = await createServer({ name: `Roles ${s}` });

    // The full administrator makes the role: users read, servers read & write, on every node.
    await page.goto('/admin/roles');
    await expect(page.getByRole('heading', { name: 'Roles', level: 2, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Roles', selected: true })).toBeVisible();
    await page.getByRole('button', { name: 'New role' }).first().click();
    const dialog = await openDialog(page, 'New role');
    await dialog.getByLabel('Name').fill(roleName);
    await dialog.getByRole('radiogroup', { name: 'Users' }).getByRole('radio', { name: 'Read', exact: true }).check();
    await dialog.getByRole('radiogroup', { name: 'Servers' }).getByRole('radio', { name: 'Read & write' }).check();
    // The audit log can only be read.
    await expect(dialog.getByRole('radiogroup', { name: 'Audit log' }).getByRole('radio')).toHaveCount(2);
    await expect(dialog.getByRole('radiogroup', { name: 'Which nodes' }).getByRole('radio', { name: 'All nodes' })).toBeChecked();
    await expectAccessibleInBothSchemes(page);
    await shot(page, 'admin-role-form');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: test.info().outputPath('admin-role-form-mobile.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await dialog.getByRole('button', { name: 'New role' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    const card = page.getByRole('listitem', { name: roleName });
    await expect(card).toContainText('Read & write: Servers');
    await expect(card).toContainText('Read: Users');
    await expect(card).toContainText('Nodes: All nodes');
    await expect(card).toContainText('0 holders');
    await expectAccessibleInBothSchemes(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, 'admin-roles', ['light', 'dark', 'mobile']);

    // Given to a new user on the user's page.
    const support = await newUser();
    await page.goto(`/admin/users/${support.id}`);
    await page.getByRole('combobox', { name: 'Administrator roles' }).click();
    await page.getByRole('option', { name: roleName, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save roles' }).click();
    await expect(page.getByText('Role holder', { exact: true })).toBeVisible();
    expect((await api.admin('GET', `/api/admin/users/${support.id}`)).roleIds).toHaveLength(1);

    // The holder: only the Servers and Users tabs (and application keys, open to every administrator),
    // /admin goes to the first; users without a create button.
    const holder = await pageOf(browser, panel.baseURL, support);
    await holder.goto('/admin');
    await expect(holder).toHaveURL(/\/admin\/servers$/);
    expect(await tabNames(holder)).toEqual(['Servers', 'Users', 'Application keys']);
    await holder.getByRole('tab', { name: 'Users' }).click();
    await expect(holder.getByRole('heading', { name: 'Users', level: 2, exact: true })).toBeVisible();
    await expect(holder.getByText(/\d+ users?$/)).toBeVisible();
    await expect(holder.getByRole('button', { name: 'New user' })).toHaveCount(0);
    await holder.goto(`/admin/servers?q=${encodeURIComponent(server.name)}`);
    await holder.getByRole('link', { name: server.name, exact: true }).click();
    await expect(holder.getByRole('heading', { name: server.name })).toBeVisible();
    await holder.context().close();

    // A role that may only read servers, nodes and eggs: the server's page without its Manage tab (even
    // when asked for in the address), every field and button of the others disabled; the node's page
    // without its Configuration tab (its config.yml holds the daemon token), its settings disabled; an
    // egg that can be exported but not deleted, its editors read only.
    const readers = await api.admin('POST', '/api/admin/roles', {
      name: `Readers ${s}`,
      permissions: [
        { area: 'servers', access: 'read' },
        { area: 'nodes', access: 'read' },
        { area: 'eggs', access: 'read' },
        { area: 'mounts', access: 'read' },
      ],
    });
    const readerAccount = await newUser();
    await api.admin('PATCH', `/api/admin/users/${readerAccount.id}`, { roleIds: [String(readers.id)] });
    const reader = await pageOf(browser, panel.baseURL, readerAccount);
    await reader.goto(`/admin/servers/${server.id}?tab=manage`);
    await expect(reader.getByRole('heading', { name: server.name })).toBeVisible();
    await expect(reader.getByText("Your roles let you read this server's administration, not change it.")).toBeVisible();
    expect(await reader.getByRole('tablist', { name: 'Server administration' }).getByRole('tab').allTextContents()).toEqual(['Details', 'Build', 'Startup', 'Mounts']);
    await expect(reader.getByRole('tab', { name: 'Details', selected: true })).toBeVisible();
    await expect(reader.getByLabel('Server name')).toHaveValue(server.name);
    await expect(reader.getByLabel('Server name')).toBeDisabled();
    await expect(reader.getByRole('button', { name: 'Save' })).toBeDisabled();
    await reader.getByRole('tab', { name: 'Build' }).click();
    await expect(reader.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessibleInBothSchemes(reader);
    await shot(reader, 'admin-server-read-only', ['light', 'dark', 'mobile']);
    await reader.goto(`/admin/nodes/${panel.nodeId}?tab=configuration`);
    await expect(reader.getByText('Your roles let you read this node, not change it.')).toBeVisible();
    expect(await reader.getByRole('tablist', { name: 'Node pages' }).getByRole('tab').allTextContents()).toEqual(['Settings', 'Allocations', 'Servers', 'Usage']);
    await expect(reader.getByRole('tab', { name: 'Settings', selected: true })).toBeVisible();
    await expect(reader.getByRole('textbox', { name: 'Name', exact: true })).toBeDisabled();
    // Its roles may not list the locations: the node's own still shows, by its number, not as "No location".
    const { locationId } = await api.admin('GET', `/api/admin/nodes/${panel.nodeId}`);
    await expect(reader.getByRole('combobox', { name: 'Location', exact: true })).toHaveValue(`Location #${String(locationId)}`);
    await expect(reader.getByRole('button', { name: 'Delete node' })).toBeDisabled();
    await expectAccessibleInBothSchemes(reader);
    await shot(reader, 'admin-node-read-only', ['light', 'dark', 'mobile']);
    await reader.goto(`/admin/eggs/${panel.eggId}`);
    await expect(reader.getByText('Your roles let you read and export this egg, not change it.')).toBeVisible();
    await expect(reader.getByRole('button', { name: 'Export' })).toBeEnabled();
    await expect(reader.getByRole('button', { name: 'Delete egg' })).toHaveCount(0);
    await expect(reader.getByRole('textbox', { name: 'Configuration files' })).toHaveAttribute('aria-readonly', 'true');
    await expect(reader.getByRole('button', { name: 'Save' })).toBeDisabled();
    await expectAccessibleInBothSchemes(reader);
    await shot(reader, 'admin-egg-read-only', ['light']);
    // A mount it may read: what it is linked to, without the controls that change it.
    const mount = await api.admin('POST', '/api/admin/mounts', { name: `Maps ${s}`, source: `/srv/maps-${s}`, target: '/mnt/maps' });
    await api.admin('POST', `/api/admin/mounts/${String(mount.id)}/eggs`, { eggIds: [panel.eggId] });
    await api.admin('POST', `/api/admin/mounts/${String(mount.id)}/nodes`, { nodeIds: [panel.nodeId] });
    await reader.goto(`/admin/mounts/${String(mount.id)}`);
    await expect(reader.getByText('Your roles let you read this mount, not change it or what it is linked to.')).toBeVisible();
    const eggsCard = reader.getByRole('region', { name: 'Eggs', exact: true });
    await expect(eggsCard.getByRole('listitem')).toHaveCount(1);
    await expect(reader.getByRole('region', { name: 'Nodes', exact: true }).getByRole('listitem')).toHaveCount(1);
    await expect(reader.getByRole('button', { name: /^(Link|Unlink|Edit|Delete)/ })).toHaveCount(0);
    await expectAccessibleInBothSchemes(reader);
    await reader.screenshot({ path: test.info().outputPath('admin-mount-read-only.png') });
    await api.admin('DELETE', `/api/admin/mounts/${String(mount.id)}`);
    // An application key of its own: what its roles do not give is off (the key would be refused it on use).
    await reader.goto('/admin/application-keys');
    await reader.getByRole('button', { name: 'Create application key' }).click();
    const keyDialog = await openDialog(reader, 'New application key');
    await expect(keyDialog.getByText('What your roles do not give is off: a key never does more than its owner.')).toBeVisible();
    await expect(keyDialog.getByRole('radio', { name: 'Servers: Read', exact: true })).toBeEnabled();
    await expect(keyDialog.getByRole('radio', { name: 'Servers: Read & write', exact: true })).toBeDisabled();
    await expect(keyDialog.getByRole('radio', { name: 'Users: Read', exact: true })).toBeDisabled();
    await keyDialog.getByRole('button', { name: 'All read & write' }).click();
    for (const [resource, level] of [['Servers', 'Read'], ['Allocations', 'Read'], ['Eggs', 'Read'], ['Users', 'None'], ['Database hosts', 'None']]) {
      await expect(keyDialog.getByRole('radio', { name: `${resource}: ${level}`, exact: true })).toBeChecked();
    }
    await reader.screenshot({ path: test.info().outputPath('application-key-read-only-roles.png') });
    await keyDialog.getByRole('button', { name: 'Cancel' }).click();
    await reader.context().close();

    // A role limited to a second node (no daemon, no servers): its holder sees an empty servers list.
    const location = (await api.raw.request<{ id: string }[]>('GET', '/api/admin/locations', { session: api.adminSession }))[0];
    const node = await api.admin('POST', '/api/admin/nodes', { name: `roles ${s}`, fqdn: '127.0.0.1', scheme: 'http', daemonListen: await freePort(), memory: 1024, disk: 1024, locationId: location.id });
    const limitedRole = await api.admin('POST', '/api/admin/roles', { name: `Node team ${s}`, permissions: [{ area: 'servers', access: 'write' }], nodeIds: [String(node.id)] });
    const team = await newUser();
    await api.admin('PATCH', `/api/admin/users/${team.id}`, { roleIds: [String(limitedRole.id)] });
    const limited = await pageOf(browser, panel.baseURL, team);
    await limited.goto('/admin');
    await expect(limited).toHaveURL(/\/admin\/servers$/);
    expect(await tabNames(limited)).toEqual(['Servers', 'Application keys']);
    await expect(limited.getByText('No servers on your nodes')).toBeVisible();
    // Server creation needs every node: no button.
    await expect(limited.getByRole('link', { name: /Create server|New server/ })).toHaveCount(0);
    await shot(limited, 'admin-roles-limited');
    await limited.context().close();
    await page.goto('/admin/servers');
    await expect(page.getByText(/^\d+ servers?$/)).toBeVisible();
    await expect(page.getByText('No servers yet')).toHaveCount(0);

    // Deleting the role says it is taken from its holder.
    await page.goto('/admin/roles');
    await page.getByRole('button', { name: `Delete ${roleName}` }).click();
    const confirm = await openDialog(page, 'Delete role');
    await expect(confirm).toContainText('It is taken from its 1 holder');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('listitem', { name: roleName })).toHaveCount(0);
    await api.admin('DELETE', `/api/admin/roles/${String(limitedRole.id)}`);
    await api.admin('DELETE', `/api/admin/roles/${String(readers.id)}`);
    await api.admin('DELETE', `/api/admin/nodes/${String(node.id)}`);
  });
});
