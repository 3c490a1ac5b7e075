import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, expectNoHorizontalScroll, openDialog, shot, signIn, test } from 'e2e/fixtures';

// The account pages (/account, /account/api-keys, /account/ssh-keys, /account/sessions) against the
// built panel. Every test signs a fresh account in, so what one test changes no other test sees.

const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

/** A new ed25519 public key as an OpenSSH line, and its SHA256 fingerprint as `ssh-keygen -l` prints it. */
const sshPublicKey = (comment: string): { line: string; fingerprint: string } => {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.from(jwk.x!, 'base64url'))]);
  return { line: `ssh-ed25519 ${blob.toString('base64')} ${comment}`, fingerprint: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}` };
};

/** A request with an API key or a session cookie, as a script would send it. */
const status = async (baseURL: string, path: string, auth: { apiKey?: string; cookie?: string }): Promise<number> => {
  const headers: Record<string, string> = {};
  if (auth.apiKey) {
    headers.authorization = `Bearer ${auth.apiKey}`;
  }
  if (auth.cookie) {
    headers.cookie = auth.cookie;
  }
  return (await fetch(`${baseURL}${path}`, { headers })).status;
};

const twoFactorCard = (page: Page) => page.getByRole('region', { name: 'Two-factor sign-in' });

test.describe('account', () => {
  test('two-factor: set up with the QR code and secret, save the recovery codes, then sign in with a TOTP code', async ({ page, newUser }) => {
    test.slow(); // a sign-out and a sign-in through the page
    const user = await newUser({ name: 'Tess Totp' });
    await signIn(page, user);
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    const card = twoFactorCard(page);
    await expect(card.getByText('Off', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText(user.email);
    await expectAccessible(page);
    await shot(page, 'account-profile', ['light', 'dark', 'mobile']);

    await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect(card.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await card.getByTestId('two-factor-secret').textContent() ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expectAccessible(page);
    await card.evaluate((el) => el.scrollIntoView());
    await shot(page, 'account-two-factor-setup', ['light']);

    // A wrong code says why and keeps the step.
    await card.getByRole('textbox', { name: 'Code from the app' }).fill('000000');
    await card.getByRole('button', { name: 'Turn on' }).click();
    await expect(card.getByRole('alert')).toContainText('That code does not match.');
    await card.getByRole('textbox', { name: 'Code from the app' }).fill(codeAt(secret, Date.now()));
    await card.getByRole('button', { name: 'Turn on' }).click();

    // The recovery codes, once: the page does not call two-factor on until they are saved.
    const codes = card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes.first()).toBeVisible();
    const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
    expect(recoveryCodes.length).toBeGreaterThanOrEqual(8);
    await expect(card.getByText('Save your codes to finish')).toBeVisible();
    await expect(card.getByText('On', { exact: true })).toHaveCount(0);
    const done = card.getByRole('button', { name: 'Done' });
    await expect(done).toBeDisabled();
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe(`hatchery-recovery-codes-${user.username}.txt`);
    const file = await readFile(await download.path(), 'utf8');
    for (const code of recoveryCodes) {
      expect(file).toContain(code);
    }
    await expectAccessible(page);
    await card.evaluate((el) => el.scrollIntoView());
    await shot(page, 'account-recovery-codes', ['light', 'mobile']);
    await card.getByRole('checkbox', { name: 'I have saved my recovery codes' }).check();
    await done.click();
    await expect(card.getByText('On', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Turn off two-factor sign-in' })).toBeVisible();

    // Signed out, the sign-in now asks for the code; the one of the next period (this one was spent).
    await page.getByRole('button', { name: 'Account menu for Tess Totp' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await page.getByRole('textbox', { name: 'E-mail or username' }).fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(codeAt(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();

    // And off again, with the password.
    await page.goto('/account');
    await twoFactorCard(page).getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await twoFactorCard(page).getByLabel('Current password').fill(user.password);
    await twoFactorCard(page).getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(twoFactorCard(page).getByText('Off', { exact: true })).toBeVisible();

    // Account → Activity lists both changes in words, newest first, and filters to one of them.
    await page.getByRole('tablist', { name: 'Account pages' }).getByRole('tab', { name: 'Activity' }).click();
    await expect(page).toHaveURL(/\/account\/activity$/);
    await expect(page.getByTestId('activity-what')).toHaveText(['Turned off two-factor sign-in', 'Turned on two-factor sign-in']);
    await expectAccessible(page);
    await shot(page, 'account-activity', ['light', 'dark', 'mobile']);
    await page.getByRole('button', { name: 'Show only this event: user.two_factor_enabled' }).click();
    await expect(page).toHaveURL(/event=user\.two_factor_enabled/);
    await expect(page.getByTestId('activity-what')).toHaveText(['Turned on two-factor sign-in']);
  });

  test('an API key created in the page is shown once and works as a bearer token until it is deleted', async ({ page, panel, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    await page.goto('/account/api-keys');
    await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible();
    // Each kind of key says what it is for; billing systems are sent to an administrator's application key.
    await expect(page.getByRole('region', { name: 'API keys' })).toContainText("For your own scripts and tools using Hatchery's API");
    const ptero = page.getByRole('region', { name: 'Keys for Pterodactyl tools' });
    await expect(ptero).toContainText('For bots, scripts and client libraries written for Pterodactyl');
    await expect(ptero).toContainText('made by an administrator in Administration → Application keys');
    await expect(ptero.getByRole('link', { name: 'Open Application keys' })).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = await openDialog(page, 'New API key');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('backup script');
    await dialog.getByRole('textbox', { name: 'Valid for (days)' }).fill('30');
    // Admin permissions are for administrators only.
    await expect(dialog.getByText('Admin permissions')).toHaveCount(0);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create API key' }).click();

    const key = (await page.getByTestId('new-api-key').textContent())!.trim();
    expect(key.length).toBeGreaterThan(20);
    const list = page.getByRole('list', { name: 'API keys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('backup script');
    await expect(list).toContainText('No admin permissions');

    // A real request with the key, as a script would make it.
    const res = await fetch(`${panel.baseURL}/api/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { email: string } }).data.email).toBe(user.email);
    await expectAccessible(page);
    await shot(page, 'account-api-keys', ['light', 'dark', 'mobile']);

    // Shown once: gone after a reload, the list keeps only its start.
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    await expect(page.getByText(key)).toHaveCount(0);

    await list.getByRole('button', { name: 'Delete the API key backup script' }).click();
    await page.getByRole('dialog', { name: 'Delete API key?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: 'No API keys yet' })).toBeVisible();
    expect(await status(panel.baseURL, '/api/account', { apiKey: key })).toBe(401);
  });

  test('an administrator can give a key admin permissions', async ({ page, newUser, panel }) => {
    const admin = await newUser({ admin: true });
    await signIn(page, admin);
    await page.goto('/account/api-keys');
    await expect(page.getByRole('link', { name: 'Open Application keys' })).toHaveAttribute('href', '/admin/application-keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('node deploy');
    await dialog.getByRole('checkbox', { name: 'nodes.read' }).check();
    await dialog.getByRole('checkbox', { name: 'webhooks.read' }).check();
    await dialog.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!.trim();
    await expect(page.getByRole('list', { name: 'API keys' }).getByText('nodes.read')).toBeVisible();
    // The key reads nodes, and nothing it was not given.
    expect(await status(panel.baseURL, '/api/admin/nodes', { apiKey: key })).toBe(200);
    expect(await status(panel.baseURL, '/api/admin/webhooks', { apiKey: key })).toBe(200);
    expect(await status(panel.baseURL, '/api/admin/users', { apiKey: key })).toBe(403);
  });

  test('SSH keys: add by paste with the fingerprint shown, refuse a bad key, delete', async ({ page, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    await page.goto('/account/ssh-keys');
    await expect(page.getByRole('heading', { name: 'No SSH keys yet' })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Add SSH key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an SSH key' });
    await dialog.getByRole('textbox', { name: 'Public key' }).fill('ssh-ed25519 not-a-key me@laptop');
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('me@laptop'); // the key's comment
    await dialog.getByRole('button', { name: 'Add SSH key' }).click();
    await expect(dialog.getByText(/publicKey is not an OpenSSH public key/)).toBeVisible();

    const key = sshPublicKey('me@laptop');
    await dialog.getByRole('textbox', { name: 'Public key' }).fill(key.line);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('laptop');
    await dialog.getByRole('button', { name: 'Add SSH key' }).click();
    await expect(dialog).toBeHidden();
    const list = page.getByRole('list', { name: 'SSH keys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('laptop');
    await expect(list).toContainText(key.fingerprint);
    await expectAccessible(page);
    await shot(page, 'account-ssh-keys', ['light', 'dark', 'mobile']);

    await list.getByRole('button', { name: 'Delete the SSH key laptop' }).click();
    await page.getByRole('dialog', { name: 'Delete SSH key?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('heading', { name: 'No SSH keys yet' })).toBeVisible();

    // From a .pub file: the key is read in, named after its comment.
    const desk = sshPublicKey('me@desk');
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'id_ed25519.pub', mimeType: 'text/plain', buffer: Buffer.from(`${desk.line}\n`) });
    await expect(dialog.getByRole('textbox', { name: 'Public key' })).toHaveValue(desk.line);
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('me@desk');
    await dialog.getByRole('button', { name: 'Add SSH key' }).click();
    await expect(list).toContainText(desk.fingerprint);
  });

  test('a list that fails to load says why, with the request id, and loads on Retry', async ({ page, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    // Down until the test says otherwise (a 5xx is retried twice before the page gives up).
    let down = true;
    await page.route('**/api/account/sessions', async (route) => {
      if (!down) {
        await route.continue();
        return;
      }
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, code: 'DATABASE_UNAVAILABLE', message: 'down', requestId: 'req-down-1' }) });
    });
    await page.goto('/account/sessions');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Your sessions could not be loaded');
    await expect(alert).toContainText('The panel cannot reach its database right now.');
    await expect(alert).toContainText('req-down-1');
    await expectAccessible(page);
    down = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);
  });

  test('sessions: revoking another session ends it, and so does signing out all others', async ({ page, api, panel, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    const other = await api.raw.signIn(user.email, user.password);
    expect(await status(panel.baseURL, '/api/account', other)).toBe(200);

    await page.goto('/account/sessions');
    const list = page.getByRole('list', { name: 'Sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const mine = list.getByRole('listitem').filter({ hasText: 'This session' });
    await expect(mine).toContainText('Headless Chrome on Linux');
    await expect(mine.getByRole('button')).toHaveCount(0); // this session is ended by signing out
    const theirs = list.getByRole('listitem').filter({ hasNotText: 'This session' });
    await expect(theirs).toContainText('Node.js');
    await expect(theirs).toContainText(/IP address: \S+/);
    await expectAccessible(page);
    await shot(page, 'account-sessions', ['light', 'dark', 'mobile']);

    await theirs.getByRole('button', { name: /^Sign out Node\.js at / }).click();
    await page.getByRole('dialog', { name: 'Sign out this session?' }).getByRole('button', { name: 'Sign out' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    expect(await status(panel.baseURL, '/api/account', other)).toBe(401);

    // Two more elsewhere, then all others at once; this page's session stays.
    const more = [await api.raw.signIn(user.email, user.password), await api.raw.signIn(user.email, user.password)];
    await page.reload();
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await expect(confirm).toContainText('2 other sessions will have to sign in again.');
    await confirm.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    for (const session of more) {
      expect(await status(panel.baseURL, '/api/account', session)).toBe(401);
    }
    await expect(page.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);
  });

  test('e-mail and password: the current password is asked for and checked', async ({ page, api, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    await page.goto('/account');
    const email = page.getByRole('region', { name: 'Change e-mail address' });
    const changed = user.email.replace('@', '+new@');
    await email.getByRole('textbox', { name: 'New e-mail address' }).fill(changed);
    await email.getByLabel('Current password').fill('not-the-password');
    await email.getByRole('button', { name: 'Change e-mail address' }).click();
    await expect(email.getByRole('alert')).toContainText('The current password is not correct.');
    await expect(email.getByRole('alert')).toContainText(/Request ID: \S+/);
    await expectAccessible(page);
    await email.getByLabel('Current password').fill(user.password);
    await email.getByRole('button', { name: 'Change e-mail address' }).click();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText(changed);

    const password = page.getByRole('region', { name: 'Change password' });
    await password.getByLabel('Current password').fill(user.password);
    await password.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
    await password.getByRole('textbox', { name: 'Repeat the new password' }).fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(password.getByText('Use at least 8 characters.')).toBeVisible();
    await password.getByRole('textbox', { name: 'New password', exact: true }).fill('a-brand-new-password');
    await password.getByRole('textbox', { name: 'Repeat the new password' }).fill('a-brand-new-password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed, and your other sessions were signed out.')).toBeVisible();
    await api.raw.signIn(changed, 'a-brand-new-password');
  });

  test('a change that needs a recent sign-in asks for the password again, then goes through', async ({ page, newUser }) => {
    const user = await newUser();
    await signIn(page, user);
    // The panel answers "not fresh" once, as it does 5 minutes after signing in.
    let refused = false;
    await page.route('**/api/account/email', async (route) => {
      if (refused) {
        await route.continue();
        return;
      }
      refused = true;
      await route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ statusCode: 403, code: 'SESSION_NOT_FRESH', message: 'Sign in again', requestId: 'req-fresh' }) });
    });
    await page.goto('/account');
    const email = page.getByRole('region', { name: 'Change e-mail address' });
    const changed = user.email.replace('@', '+fresh@');
    await email.getByRole('textbox', { name: 'New e-mail address' }).fill(changed);
    await email.getByLabel('Current password').fill(user.password);
    await email.getByRole('button', { name: 'Change e-mail address' }).click();
    const dialog = await openDialog(page, 'Confirm it is you');
    await expectAccessible(page);
    await dialog.getByLabel('Current password').fill(user.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText(changed);
    // Signing in again replaced the session instead of adding one.
    await page.goto('/account/sessions');
    await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);
  });

  test('every account page fits a 390 px phone without sideways scrolling, and the user menu leads there', async ({ page, newUser }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await newUser({ name: 'Mo Bile' });
    await signIn(page, user);
    await page.goto('/');
    await page.getByRole('button', { name: 'Account menu for Mo Bile' }).click();
    await page.getByRole('menuitem', { name: 'Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(twoFactorCard(page)).toBeVisible();
    await expectNoHorizontalScroll(page);
    // By keyboard, through the tabs.
    const tabs = page.getByRole('tablist', { name: 'Account pages' });
    for (const [name, path, ready] of [
      ['API keys', '/account/api-keys', 'No API keys yet'],
      ['SSH keys', '/account/ssh-keys', 'No SSH keys yet'],
      ['Sessions', '/account/sessions', 'Sessions'],
      ['Activity', '/account/activity', 'No activity yet'],
    ] as const) {
      await tabs.getByRole('tab', { name }).focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { name: ready, exact: true })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page);
    }
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Account' })).toBeInViewport();
  });
});
