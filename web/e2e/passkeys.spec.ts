import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { expect, expectAccessible, shot, test } from 'e2e/fixtures';
import { startPanel, type PanelProcess } from 'e2e/panel-process';

// Passkeys with Chromium's virtual authenticator (DevTools protocol WebAuthn domain): add one on the
// account page, sign in with it alone, then as the second step after the password. WebAuthn refuses an
// IP address as the relying party id, and the shared panel's APP_URL is http://127.0.0.1:…, so this
// spec runs its own panel at http://localhost:… (a secure context, as https would be).

const account = { email: 'pat@hatchery.test', password: 'browser-passkey-password' };

let panel: PanelProcess;
let work: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  work = mkdtempSync(join(tmpdir(), 'hatchery-passkeys-'));
  panel = await startPanel(work, { ADMIN_EMAIL: account.email, ADMIN_PASSWORD: account.password, ADMIN_USERNAME: 'pat' }, { hostname: 'localhost' });
});

test.afterAll(async () => {
  await panel?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A platform authenticator that holds discoverable credentials and verifies the user (as a fingerprint would). */
const addAuthenticator = async (page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
};

const signOut = async (page: Page) => {
  await page.getByRole('button', { name: /^Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
};

const servers = (page: Page) => expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
const held = (page: Page) => expect(page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in to continue' })).toBeVisible();

/** Changes the two-factor policy as the signed-in administrator, from the page (its cookie and origin). */
const setPolicy = async (page: Page, twoFactorPolicy: 'none' | 'admins') => {
  const status = await page.evaluate(
    async (body) => (await fetch('/api/admin/settings', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status,
    { twoFactorPolicy },
  );
  expect(status).toBe(200);
};

test('passkeys: add one (which lifts the two-factor policy hold), sign in with it alone, then as the second step after the password', async ({ browser }) => {
  test.slow(); // three sign-ins through the page, on a panel of its own
  const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.goto('/auth/login');
  const { cdp, authenticatorId } = await addAuthenticator(page);

  // A password sign-in (no passkey yet: no second step).
  await page.getByRole('textbox', { name: 'E-mail or username' }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await servers(page);

  // Administrators must have a second factor: this one is held at the setup, which offers a passkey.
  await setPolicy(page, 'admins');
  await page.goto('/account');
  await held(page);
  const setupCard = page.getByRole('region', { name: 'Passkeys' });
  await expect(setupCard.getByRole('heading', { name: 'No passkeys yet' })).toBeVisible();
  // Add a passkey: the browser's dialog is the virtual authenticator's, which answers at once.
  await setupCard.getByRole('button', { name: 'Add a passkey' }).click();
  await setupCard.getByRole('textbox', { name: 'Name' }).fill('Laptop');
  await setupCard.getByRole('button', { name: 'Create passkey' }).click();
  // Held no more: the account page itself.
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  const card = page.getByRole('region', { name: 'Passkeys' });
  const item = card.getByRole('listitem', { name: 'Laptop' });
  await expect(item).toContainText('never used');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // Renamed in place.
  await item.getByRole('button', { name: 'Rename passkey Laptop' }).click();
  await card.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('listitem', { name: 'Work laptop' })).toBeVisible();
  await expectAccessible(page);
  // Centred: scrolled to its top, the card's title would sit under the sticky header.
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot(page, 'account-passkeys', ['light', 'dark', 'mobile']);

  // Signed out, the sign-in page offers the passkey; it signs in with no password.
  await signOut(page);
  const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkeyButton).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'sign-in-passkey', ['light', 'dark', 'mobile']);
  await passkeyButton.click();
  await servers(page);
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('listitem', { name: 'Work laptop' })).toContainText('last used');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0].signCount).toBeGreaterThan(0);

  // With a passkey, the password alone no longer signs in: the next step asks for the passkey (no code: there is no TOTP).
  await signOut(page);
  await page.getByRole('textbox', { name: 'E-mail or username' }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Authentication code' })).toHaveCount(0);
  const step = page.getByRole('button', { name: 'Use a passkey' });
  await expect(step).toBeVisible();
  await expectAccessible(page);
  await shot(page, 'sign-in-passkey-step', ['light']);
  await step.click();
  await servers(page);

  // Removed (the sign-in just now is recent enough), the password alone signs in again, and the
  // policy holds the administrator at its setup once more.
  await page.goto('/account');
  const signedInCard = page.getByRole('region', { name: 'Passkeys' });
  await signedInCard.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
  await page.getByRole('dialog', { name: 'Remove this passkey?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(signedInCard.getByRole('heading', { name: 'No passkeys yet' })).toBeVisible();
  await signOut(page);
  await page.getByRole('textbox', { name: 'E-mail or username' }).fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await held(page);
  await context.close();
});
