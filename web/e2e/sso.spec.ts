import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { OidcIssuer } from 'test/utils/oidc-issuer';
import { expect, openDialog, shot, signIn, test } from 'e2e/fixtures';

// Single sign-on through the pages: an administrator adds an OpenID Connect provider (a real
// oidc-provider on loopback, which the browser tests' panel may reach: OUTBOUND_ALLOW_PRIVATE), a
// newcomer signs in with it from the sign-in page and gets an account, and an existing account links
// and unlinks it on its account page.

/** Plays the person at the provider's own (development) pages: its login form, then its consent. */
const atProvider = async (page: Page, issuer: OidcIssuer, sub: string): Promise<void> => {
  await page.waitForURL((url) => url.href.startsWith(issuer.issuer));
  await page.locator('input[name="login"]').fill(sub);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
};

test.describe('single sign-on', () => {
  test('an administrator adds an OpenID Connect provider; a newcomer signs in with it; an account links and unlinks it', async ({ adminPage: page, browser, baseURL, newUser }) => {
    test.slow();
    const issuer = await OidcIssuer.start();
    const s = randomBytes(3).toString('hex');
    const name = `Company ID ${s}`;
    try {
      await page.goto('/admin/auth-providers');
      await expect(page.getByRole('tab', { name: 'Sign-in providers', selected: true })).toBeVisible();
      await page.getByRole('button', { name: 'Add provider' }).first().click();
      const dialog = await openDialog(page, 'Add a sign-in provider');
      // Picking a preset fills its name and scopes; back to OpenID Connect for our issuer.
      await dialog.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'GitHub' }).click();
      await expect(dialog.getByLabel('Name')).toHaveValue('GitHub');
      await expect(dialog.getByLabel('Scopes')).toHaveValue('read:user user:email');
      await expect(dialog.getByLabel('Issuer URL')).toHaveCount(0);
      await dialog.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'OpenID Connect' }).click();
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Issuer URL').fill(issuer.issuer);
      await dialog.getByLabel('Client ID').fill(issuer.clientId);
      await dialog.getByLabel('Client secret').fill(issuer.clientSecret);
      await dialog.getByRole('switch', { name: 'May create accounts' }).check({ force: true });
      const size = page.viewportSize()!;
      await page.setViewportSize({ width: size.width, height: 1100 });
      await shot(page, 'sso-provider-form', ['light']);
      await page.setViewportSize(size);
      await dialog.getByRole('button', { name: 'Add provider' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('listitem', { name });
      await expect(card.getByText('Creates accounts')).toBeVisible();
      const redirectUri = (await card.locator('code').textContent())!;
      expect(redirectUri).toMatch(new RegExp(`^${baseURL}/api/auth/oauth/\\d+/callback$`));
      issuer.setRedirectUris([redirectUri]);
      await shot(page, 'sso-providers', ['light', 'dark']);
      // The secret is write-only: the edit form says one is set and shows nothing of it.
      await card.getByRole('button', { name: 'Edit' }).click();
      const edit = await openDialog(page, `Edit ${name}`);
      await expect(edit.getByLabel('Client secret')).toHaveValue('');
      await expect(edit.getByText('A secret is set. Leave empty to keep it, or enter a new one.')).toBeVisible();
      await edit.getByRole('button', { name: 'Cancel' }).click();

      // A newcomer, signed out, from the sign-in page.
      const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
      try {
        const visitor = await context.newPage();
        const sub = `newcomer-${s}`;
        issuer.accounts.set(sub, { email: `newcomer-${s}@example.test`, email_verified: true, preferred_username: `newcomer-${s}`, name: 'New Comer' });
        await visitor.goto('/auth/login');
        const button = visitor.getByRole('link', { name: `Continue with ${name}` });
        await expect(button).toBeVisible();
        await shot(visitor, 'sso-sign-in', ['light', 'dark']);
        await button.click();
        await atProvider(visitor, issuer, sub);
        await visitor.waitForURL(`${baseURL}/`);
        const session = await visitor.request.get(`${baseURL}/api/auth/session`);
        expect(((await session.json()) as { data: { user: { username: string } } }).data.user.username).toBe(`newcomer-${s}`);

        // Its account has no password: the account page offers an e-mailed link to choose one, not a
        // "current password" it never had (this panel has no mail server, and says so).
        await visitor.goto('/account');
        const password = visitor.getByRole('region', { name: 'Password', exact: true });
        await expect(password).toContainText(`we e-mail a link to newcomer-${s}@example.test`);
        await expect(visitor.getByRole('region', { name: 'Change e-mail address' })).toContainText('choose one first');
        await expect(visitor.getByLabel('Current password')).toHaveCount(0);
        await expect(visitor.getByRole('region', { name: 'Two-factor sign-in' })).toContainText('after the account you sign in with');
        await password.getByRole('button', { name: 'E-mail me a link' }).click();
        await expect(password.getByRole('status')).toContainText('This panel cannot send e-mail.');
        await password.scrollIntoViewIfNeeded();
        await shot(visitor, 'sso-choose-password', ['light']);

        // Signing in again as someone the provider may not create (an address an account has) is refused on the page.
        const taken = await newUser();
        issuer.accounts.set(`taken-${s}`, { email: taken.email, email_verified: true });
        await context.clearCookies();
        await visitor.goto('/auth/login');
        await visitor.getByRole('link', { name: `Continue with ${name}` }).click();
        await atProvider(visitor, issuer, `taken-${s}`);
        await expect(visitor.getByRole('alert')).toContainText('An account already uses this e-mail address.');
      } finally {
        await context.close();
      }

      // An existing account links the provider on its account page, then unlinks it.
      const member = await newUser();
      const memberContext = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
      try {
        const own = await memberContext.newPage();
        await signIn(own, member);
        await own.goto('/account');
        const linked = own.getByRole('region', { name: 'Linked accounts' });
        await expect(linked.getByText('No account is linked.')).toBeVisible();
        issuer.accounts.set(`member-${s}`, { email: `elsewhere-${s}@example.test`, email_verified: true });
        await linked.getByRole('link', { name: `Link ${name}` }).click();
        await atProvider(own, issuer, `member-${s}`);
        await own.waitForURL(/\/account\?linked=\d+$/);
        await expect(linked.getByText(`${name} is linked: you can sign in with it now.`)).toBeVisible();
        await expect(linked.getByRole('listitem', { name })).toContainText(`elsewhere-${s}@example.test`);
        await linked.scrollIntoViewIfNeeded();
        await shot(own, 'sso-linked-accounts', ['light', 'dark']);
        await linked.getByRole('button', { name: 'Unlink' }).click();
        const confirm = await openDialog(own, `Unlink ${name}?`);
        await confirm.getByRole('button', { name: 'Unlink' }).click();
        await expect(confirm).toBeHidden();
        await expect(linked.getByText('No account is linked.')).toBeVisible();
      } finally {
        await memberContext.close();
      }
    } finally {
      await issuer.close();
    }
  });
});
