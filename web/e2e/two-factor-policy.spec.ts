import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { expect, expectAccessible, shot, test } from 'e2e/fixtures';
import { PanelApi } from 'e2e/panel-api';
import { startPanel, type PanelProcess } from 'e2e/panel-process';

// The two-factor policy on a panel of its own (it holds every administrator of the panel it is set on,
// which would stop the other specs' administrator on the shared one): the administrator requires
// two-factor sign-in of administrators, is held at the setup page at once (their API key too), sets
// up an authenticator app there, and has the whole panel back.

const ADMIN = { email: 'policy-admin@hatchery.test', password: 'policy-admin-password' };
const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

test.describe('two-factor policy', () => {
  let panel: PanelProcess | undefined;
  let work: string | undefined;
  test.describe.configure({ mode: 'default' });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    work = mkdtempSync(join(tmpdir(), 'hatchery-policy-'));
    panel = await startPanel(work, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_USERNAME: 'policy_admin' });
  });
  test.afterAll(async () => {
    await panel?.stop();
    if (work) {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('an administrator requires two-factor of administrators, is held at its setup, and has the panel back once it is on', async ({ browser }) => {
    test.slow(); // a panel of its own, and the whole setup through the page
    const { baseURL } = panel!;
    const api = new PanelApi(baseURL);
    const session = await api.signIn(ADMIN.email, ADMIN.password);
    const key = await api.request<{ key: string }>('POST', '/api/account/api-keys', { session, body: { name: 'billing' } });
    const keyStatus = async () => (await fetch(`${baseURL}/api/admin/users`, { headers: { authorization: `Bearer ${key.key}` } })).status;
    expect(await keyStatus()).toBe(200);

    const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    const signedIn = await page.request.post('/api/auth/sign-in/email', { data: ADMIN, headers: { Origin: baseURL } });
    expect(signedIn.status()).toBe(200);
    await page.goto('/admin/settings');
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await expect(card.getByRole('radio', { name: 'Nobody' })).toBeChecked();
    await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
    await card.getByRole('radio', { name: 'Administrators' }).check();
    await expectAccessible(page);
    await shot(page, 'admin-settings', ['light', 'dark', 'mobile']);
    await card.getByRole('button', { name: 'Save' }).click();

    // The policy now covers the one who set it: the setup, in place of every page.
    await expect(page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in to continue' })).toBeVisible();
    expect(await keyStatus()).toBe(403);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Set up two-factor sign-in to continue' })).toBeVisible();
    await expectAccessible(page);
    await shot(page, 'two-factor-required', ['light', 'dark', 'mobile']);

    const setup = page.getByRole('region', { name: 'Two-factor sign-in' });
    await setup.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = ((await setup.getByTestId('two-factor-secret').textContent()) ?? '').trim();
    await setup.getByRole('textbox', { name: 'Code from the app' }).fill(codeAt(secret, Date.now()));
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await expect(setup.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').first()).toBeVisible();
    await setup.getByRole('checkbox', { name: 'I have saved my recovery codes' }).check();
    await setup.getByRole('button', { name: 'Done' }).click();

    // Everything opens: the page asked for, and the key.
    await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
    expect(await keyStatus()).toBe(200);
    await context.close();
  });
});
