import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectAccessible, expectAccessibleInBothSchemes, expectFitsPhone, shot, signIn, test } from 'e2e/fixtures';

// Subusers (/server/$id/users) and backups (/server/$id/backups) in real Chromium against the built
// panel and the Wings simulator. Each test makes its own server.

test.describe('subusers', () => {
  test('the owner grants some permissions; the subuser sees only those tabs and buttons and the API refuses the rest', async ({ ownerPage: page, createServer, installed, newUser, browser, panel }) => {
    const server = await createServer({ backup_limit: 3 });
    await installed(server);
    const id = server.uuid.slice(0, 8);
    const friend = await newUser();

    await page.goto(`/server/${id}/users`);
    await expect(page.getByRole('heading', { name: 'No subusers yet' })).toBeVisible();
    // The dark scheme too: its filled orange buttons carry white text.
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('button', { name: 'Add subuser' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a subuser' });
    await dialog.getByLabel('E-mail address').fill(friend.email);
    // The owner holds everything, so nothing is disabled; select-all fills a group.
    await expect(dialog.getByRole('checkbox', { name: 'Restore backups (replaces files)' })).toBeEnabled();
    await dialog.getByRole('checkbox', { name: 'All Backups permissions' }).check();
    await expect(dialog.getByRole('checkbox', { name: 'Make backups' })).toBeChecked();
    // …then takes two back out: this subuser may see, make and download backups, and see the server.
    await dialog.getByRole('checkbox', { name: 'Restore backups (replaces files)' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Lock, unlock and delete backups' }).uncheck();
    await expect(dialog.getByRole('checkbox', { name: 'All Backups permissions' })).toHaveJSProperty('indeterminate', true);
    await dialog.getByRole('checkbox', { name: 'See the server and its status' }).check();
    await dialog.getByRole('checkbox', { name: 'See subusers' }).check();
    await expectAccessible(page);
    await shot(page, 'subusers-matrix', ['light']);
    await dialog.getByRole('button', { name: 'Add subuser' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem', { name: friend.email });
    await expect(card).toContainText('5 permissions');
    await expectAccessible(page);
    await expectFitsPhone(page, 'Subusers');
    await shot(page, 'subusers');
    await shot(page, 'subusers', ['mobile']);

    // The subuser, on a fresh context.
    const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const sub = await context.newPage();
    await signIn(sub, friend);
    await sub.goto(`/server/${id}/backups`);
    const tabs = sub.getByRole('tablist', { name: 'Server pages' });
    await expect(tabs.getByRole('tab', { name: 'Backups' })).toBeVisible();
    await expect(tabs.getByRole('tab', { name: 'Users' })).toBeVisible();
    await expect(tabs.getByRole('tab', { name: 'Files' })).toHaveCount(0);
    await expect(tabs.getByRole('tab', { name: 'Console' })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: 'Create backup' })).toBeVisible();
    // On the users page: the list, but no add, edit or remove.
    await tabs.getByRole('tab', { name: 'Users' }).click();
    await expect(sub.getByRole('listitem', { name: friend.email })).toBeVisible();
    await expect(sub.getByRole('button', { name: 'Add subuser' })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: `Edit the permissions of ${friend.email}` })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: `Remove ${friend.email}` })).toHaveCount(0);
    // The API refuses what was not granted.
    for (const [method, path] of [
      ['GET', `/api/client/servers/${id}/files/list?directory=/`],
      ['POST', `/api/client/servers/${id}/users`],
      ['GET', `/api/client/servers/${id}/databases`],
    ] as const) {
      const res = await sub.request.fetch(`${panel.baseURL}${path}`, { method, headers: { Origin: panel.baseURL }, data: method === 'POST' ? { email: 'x@hatchery.test', permissions: [] } : undefined });
      expect(res.status(), `${method} ${path}`).toBe(403);
    }
    await context.close();

    // Back as the owner: edit (the matrix starts from what was granted), then remove.
    await page.reload();
    await card.getByRole('button', { name: `Edit the permissions of ${friend.email}` }).click();
    const edit = page.getByRole('dialog', { name: /Permissions of/ });
    await expect(edit.getByRole('checkbox', { name: 'Make backups' })).toBeChecked();
    await edit.getByRole('checkbox', { name: 'Make backups' }).uncheck();
    await edit.getByRole('button', { name: 'Save permissions' }).click();
    await expect(card).toContainText('4 permissions');
    await card.getByRole('button', { name: `Remove ${friend.email}` }).click();
    await page.getByRole('dialog', { name: 'Remove this subuser?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('heading', { name: 'No subusers yet' })).toBeVisible();
  });

  test("an invitation no mail server sent: the owner is told, an administrator hands over a password link, and the invitee's first view shows the shared server, marked", async ({
    ownerPage: page,
    adminPage,
    createServer,
    browser,
    panel,
  }) => {
    const server = await createServer();
    const id = server.uuid.slice(0, 8);
    const email = `invitee-${id}@hatchery.test`;

    // The owner adds an address no account uses; this panel has no SMTP_URL, and says so.
    await page.goto(`/server/${id}/users`);
    await page.getByRole('button', { name: 'Add subuser' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a subuser' });
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByRole('button', { name: 'Add subuser' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'No e-mail was sent' });
    await expect(notice).toContainText(`No e-mail was sent to ${email}: this panel has no mail server configured.`);
    await expect(notice).toContainText('Make a password link');
    await expectAccessible(page);
    await shot(page, 'subusers-no-email', ['light']);

    // The administrator finds the account marked as invited, and makes a link.
    await adminPage.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    const row = adminPage.getByRole('listitem', { name: new RegExp(`^invitee-${id}_`) });
    await expect(row.getByText('Invited', { exact: true })).toBeVisible();
    await shot(adminPage, 'admin-users-invited', ['light', 'dark']);
    await row.getByRole('link', { name: /Manage/ }).click();
    await expect(adminPage.getByText('Never', { exact: true })).toBeVisible();
    await adminPage.getByRole('button', { name: 'Make a password link' }).click();
    const link = (await adminPage.getByTestId('password-link').textContent())!;
    expect(link).toMatch(new RegExp(`^${panel.baseURL}/auth/password/reset\\?token=[A-Za-z0-9_-]{43}$`));
    await expect(adminPage.getByRole('button', { name: 'Copy the password link' })).toBeVisible();
    await expectAccessible(adminPage);
    await shot(adminPage, 'admin-user-password-link');
    await shot(adminPage, 'admin-user-password-link', ['mobile']);

    // The invitee, in a fresh context: chooses a password through the link, signs in, and sees the server.
    const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const invitee = await context.newPage();
    await invitee.goto(link);
    await invitee.getByRole('textbox', { name: 'New password', exact: true }).fill('my first password');
    await invitee.getByRole('textbox', { name: 'Repeat the new password' }).fill('my first password');
    await invitee.getByRole('button', { name: 'Set the password' }).click();
    await invitee.getByRole('link', { name: 'Sign in' }).click();
    await invitee.getByRole('textbox', { name: 'E-mail or username' }).fill(email);
    await invitee.getByRole('textbox', { name: 'Password', exact: true }).fill('my first password');
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await expect(invitee).toHaveURL(`${panel.baseURL}/`);
    await expect(invitee.getByRole('tab', { name: 'All my servers' })).toHaveAttribute('aria-selected', 'true');
    const card = invitee.getByRole('article', { name: server.name });
    await expect(card.getByText('Shared by owner')).toBeVisible();
    await expectAccessible(invitee);
    await shot(invitee, 'dashboard-shared');
    await shot(invitee, 'dashboard-shared', ['mobile']);
    // The link is spent.
    const again = await invitee.request.post(`${panel.baseURL}/api/auth/reset-password`, { data: { token: new URL(link).searchParams.get('token'), newPassword: 'another password' } });
    expect(again.status()).toBe(400);
    await context.close();

    // The mark is gone once the account signed in.
    await adminPage.goto(`/admin/users?q=${encodeURIComponent(email)}`);
    await expect(row).toBeVisible();
    await expect(row.getByText('Invited', { exact: true })).toHaveCount(0);
  });

  test('a subuser cannot grant what they lack: those boxes are disabled', async ({ createServer, newSubuser, browser, panel }) => {
    const server = await createServer();
    const id = server.uuid.slice(0, 8);
    const manager = await newSubuser(server.uuid, ['server.view', 'server.subuser.read', 'server.subuser.create', 'server.files.read']);
    const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await signIn(page, manager);
    await page.goto(`/server/${id}/users`);
    await page.getByRole('button', { name: 'Add subuser' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add a subuser' });
    await expect(dialog.getByRole('checkbox', { name: 'See and download files' })).toBeEnabled();
    await expect(dialog.getByRole('checkbox', { name: 'Create and edit files' })).toBeDisabled();
    await expect(dialog.getByRole('checkbox', { name: 'All Backups permissions' })).toBeDisabled();
    await dialog.getByRole('checkbox', { name: 'All Files permissions' }).check();
    await expect(dialog.getByRole('checkbox', { name: 'See and download files' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Create and edit files' })).not.toBeChecked();
    await context.close();
  });
});

test.describe('backups', () => {
  test('makes a backup (completion shows live), restores it with the typed name, locks and deletes', async ({ ownerPage: page, createServer, installed, volume }) => {
    const server = await createServer({ backup_limit: 2 });
    await installed(server);
    const id = server.uuid.slice(0, 8);
    const root = volume(server);
    mkdirSync(join(root, 'world'), { recursive: true });
    writeFileSync(join(root, 'world', 'level.dat'), 'before');

    await page.goto(`/server/${id}/backups`);
    await expect(page.getByRole('heading', { name: 'No backups yet' })).toBeVisible();
    await expect(page.getByText('0 of 2 backups used')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create backup' }).click();
    const create = page.getByRole('dialog', { name: 'Create a backup' });
    await create.getByLabel('Name').fill('Before the update');
    await create.getByLabel('Ignored files').fill('*.log');
    await create.getByRole('button', { name: 'Create backup' }).click();
    const item = page.getByRole('listitem', { name: 'Before the update' });
    // The list polls while the backup runs: it turns Done with its checksum without a reload.
    await expect(item).toHaveAttribute('data-status', 'successful', { timeout: 20_000 });
    await expect(item.getByText(/^sha1:[0-9a-f]{40}$/)).toBeVisible();
    await expect(page.getByText('1 of 2 backups used')).toBeVisible();
    await expectAccessible(page);

    // Restore: the button waits for the typed name.
    writeFileSync(join(root, 'world', 'level.dat'), 'after');
    writeFileSync(join(root, 'new.txt'), 'made after the backup');
    await item.getByRole('button', { name: 'Actions for Before the update' }).click();
    await page.getByRole('menuitem', { name: 'Restore' }).click();
    const restore = page.getByRole('dialog', { name: 'Restore this backup?' });
    await expect(restore.getByRole('button', { name: 'Restore' })).toBeDisabled();
    await restore.getByLabel('Delete all files first').check();
    await restore.getByLabel('Type Before the update to confirm').fill('Before the updat');
    await expect(restore.getByRole('button', { name: 'Restore' })).toBeDisabled();
    await restore.getByLabel('Type Before the update to confirm').fill('Before the update');
    await expectAccessible(page);
    await restore.getByRole('button', { name: 'Restore' }).click();
    await expect(restore).toBeHidden();
    // "Delete all files first": between the deletion and the extraction the file is briefly absent.
    const restored = (): string => {
      if (existsSync(join(root, 'new.txt'))) {
        return 'new.txt still there';
      }
      try {
        return readFileSync(join(root, 'world', 'level.dat'), 'utf8');
      } catch {
        return 'level.dat not written yet';
      }
    };
    await expect.poll(restored, { timeout: 20_000 }).toBe('before');

    // Lock: delete goes from the menu; unlock brings it back; delete.
    await item.getByRole('button', { name: 'Actions for Before the update' }).click();
    await page.getByRole('menuitem', { name: 'Lock', exact: true }).click();
    await expect(item.getByRole('img', { name: 'Locked' })).toBeVisible();
    await item.getByRole('button', { name: 'Actions for Before the update' }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Unlock' }).click();
    await expect(item.getByRole('img', { name: 'Locked' })).toHaveCount(0);
    await expectFitsPhone(page, 'Backups');
    await shot(page, 'backups');
    await shot(page, 'backups', ['mobile']);
    await item.getByRole('button', { name: 'Actions for Before the update' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this backup?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: 'No backups yet' })).toBeVisible();
  });
});
