import { Secret, TOTP } from 'otpauth';
import { expect, expectAccessible, expectNoHorizontalScroll, shot, test } from 'e2e/fixtures';
import type { Page } from '@playwright/test';

const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const fillPassword = async (page: Page, identifier: string, password: string) => {
  await page.getByRole('textbox', { name: 'E-mail or username' }).fill(identifier);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  // Exactly: opened at localhost (a host name), the page also offers "Sign in with a passkey".
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

test.describe('sign-in', () => {
  test('should sign in with a password, come back to the page asked for, and sign out', async ({ page, newUser }) => {
    const user = await newUser({ name: 'Pat Player' });
    await page.goto('/no-such-page?tab=2');
    await expect(page).toHaveURL(/\/auth\/login\?next=%2Fno-such-page%3Ftab%3D2$/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expectAccessible(page);

    await fillPassword(page, user.username, user.password);
    await expect(page).toHaveURL(/\/no-such-page\?tab=2$/);
    // The signed-in shell: navigation, the user's menu, and the in-shell "page not found".
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Servers' })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Account menu for Pat Player' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    // The session is gone on the server too: a signed-in page sends us back here.
    await page.goto('/somewhere');
    await expect(page).toHaveURL(/\/auth\/login\?next=%2Fsomewhere$/);
  });

  test('should say when the password is wrong, with the request id, and keep what was typed', async ({ page, newUser }) => {
    const user = await newUser();
    await page.goto('/auth/login');
    await fillPassword(page, user.email, 'not-the-password');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('The e-mail or username and password do not match.');
    await expect(alert).toContainText(/Request ID: \S+/);
    await expect(page.getByRole('textbox', { name: 'E-mail or username' })).toHaveValue(user.email);
    await expectAccessible(page);
  });

  test('should name the address the panel expects when it is opened at another one (APP_URL)', async ({ page, baseURL, newUser }) => {
    const user = await newUser();
    // The panel's APP_URL is http://127.0.0.1:<port>; the same panel opened as localhost is another origin.
    const other = baseURL!.replace('127.0.0.1', 'localhost');
    await page.goto(`${other}/auth/login`);
    await fillPassword(page, user.email, user.password);
    await expect(page.getByRole('alert')).toContainText(
      `This panel expects requests from ${baseURL} (APP_URL); this request came from ${other}. Set APP_URL to the address you open the panel at.`,
    );
    await shot(page, 'sign-in-other-address', ['light', 'dark', 'mobile']);
  });

  test('should ask for the authenticator code, then for a recovery code, when two-factor sign-in is on', async ({ page, api, newUser }) => {
    test.slow(); // two sign-ins through the page
    const user = await newUser();
    const session = await api.raw.signIn(user.email, user.password);
    const setup = await api.raw.request<{ secret: string }>('POST', '/api/user/2fa/setup', { session });
    const enabled = await api.raw.request<{ recoveryCodes: string[] }>('POST', '/api/user/2fa/enable', { session, body: { code: codeAt(setup.secret, Date.now()) } });

    await page.goto('/auth/login');
    await fillPassword(page, user.email, user.password);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expectAccessible(page);
    await shot(page, 'sign-in-two-factor', ['light']);

    // A wrong code keeps us on the step with the reason.
    await page.getByRole('textbox', { name: 'Authentication code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('That code is not valid, or was already used.');

    // The code of the next period: the one of this period was spent on enabling.
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(codeAt(setup.secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible(); // signed in: the dashboard at /

    // Signed out, the recovery code way.
    await page.context().clearCookies();
    await page.goto('/auth/login');
    await fillPassword(page, user.username, user.password);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(enabled.recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible(); // signed in: the dashboard at /
  });

  test('should fit a 390 px phone without sideways scrolling, with the navigation in a drawer', async ({ page, newUser }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await newUser({ name: 'Mo Bile' });
    await page.goto('/auth/login');
    await expectNoHorizontalScroll(page);
    await fillPassword(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible(); // signed in: the dashboard at /
    await expectNoHorizontalScroll(page);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    // Closed, the drawer is off screen and out of the tab order.
    await expect(nav.getByRole('link', { name: 'Servers' })).not.toBeInViewport();
    await expect(nav).toHaveAttribute('inert', '');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(nav.getByRole('link', { name: 'Servers' })).toBeInViewport();
    await expectAccessible(page);
    await expectNoHorizontalScroll(page);
  });
});

test.describe('password reset', () => {
  test('should send the reset link without telling whether the account exists', async ({ page }) => {
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/auth\/password$/);
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'E-mail address' }).fill('nobody@hatchery.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('status')).toContainText('If nobody@hatchery.test belongs to an account, a link to reset its password is on its way.');
    await expectAccessible(page);
  });

  test('should check the new password before sending, and explain a used or unknown link', async ({ page }) => {
    await page.goto('/auth/password/reset?token=not-a-real-token');
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
    await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('short');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect(page.getByText('Use at least 8 characters.')).toBeVisible();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('a-long-enough-password');
    await page.getByRole('textbox', { name: 'Repeat the new password' }).fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect(page.getByRole('alert')).toContainText('This reset link is invalid, was already used or has expired.');
    await expectAccessible(page);
  });
});

test.describe('theme', () => {
  test('should paint in the stored scheme before the app code runs (no flash)', async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('hatchery-color-scheme', 'dark'));
    // Hold the app's code back: what shows meanwhile is the page before React.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    // Module scripts hold DOMContentLoaded back, so wait only for the document.
    await page.goto('/auth/login', { waitUntil: 'commit' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await page.locator('#root').innerHTML()).toBe('');
    release();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('should switch between light, dark and the system scheme from the menu', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/auth/login');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.getByRole('button', { name: /^Colour scheme/ }).click();
    await page.getByRole('menuitem', { name: 'Light' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: /^Colour scheme/ }).click();
    await page.getByRole('menuitem', { name: 'System' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  test('should take README screenshots of the sign-in pages', async ({ page }) => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await shot(page, 'sign-in', ['light', 'dark', 'mobile']);
  });
});
