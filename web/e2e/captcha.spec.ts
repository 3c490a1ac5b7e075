import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { FakeCaptchaServer } from 'test/utils/fake-captcha';
import { expect, expectAccessible, shot, test } from 'e2e/fixtures';
import { startPanel, type PanelProcess } from 'e2e/panel-process';

// Sign-in and forgot-password on a panel with Turnstile configured: a second panel process of its
// own (the shared one has no CAPTCHA), verifying tokens against a local fake siteverify endpoint. The
// browser gets a stand-in for Turnstile's script (same URL, same explicit-render API) that draws a
// checkbox and hands out tokens the fake endpoint passes; the panel's CSP must let it load.

const SITE_KEY = '1x-browser-test-site-key';
const SECRET = 'browser-test-secret';
const ADMIN = { email: 'captcha-admin@hatchery.test', password: 'captcha-admin-password' };
const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?*';

/** Turnstile's explicit-render API in miniature: render, reset, remove, and the `onload` callback of the URL. */
const FAKE_TURNSTILE = `(() => {
  const widgets = new Map();
  let next = 0;
  window.turnstile = {
    render(container, options) {
      const id = 'fake-' + ++next;
      const label = document.createElement('label');
      label.style.cssText = 'display:flex;align-items:center;gap:10px;box-sizing:border-box;width:300px;height:65px;padding:0 14px;border:1px solid #868e96;border-radius:4px;font:14px system-ui,sans-serif';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.style.cssText = 'width:22px;height:22px;margin:0';
      label.append(box, 'Verify you are human');
      box.addEventListener('change', async () => {
        if (box.checked) {
          options.callback(await window.fakeCaptchaToken(options.sitekey, options.action));
        }
      });
      container.append(label);
      widgets.set(id, box);
      return id;
    },
    reset(id) {
      widgets.get(id).checked = false;
    },
    remove(id) {
      widgets.get(id)?.closest('label').remove();
      widgets.delete(id);
    },
  };
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload) window[onload]();
})();`;

let panel: PanelProcess;
let fake: FakeCaptchaServer;
let work: string;

// One panel for the file: its tests run one after another in a worker.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fake = await FakeCaptchaServer.start('turnstile', SECRET);
  work = mkdtempSync(join(tmpdir(), 'hatchery-captcha-'));
  panel = await startPanel(work, {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ADMIN_USERNAME: 'captcha_admin',
    CAPTCHA_PROVIDER: 'turnstile',
    CAPTCHA_SITE_KEY: SITE_KEY,
    CAPTCHA_SECRET_KEY: SECRET,
    CAPTCHA_VERIFY_URL: fake.url,
  });
});

test.afterAll(async () => {
  await panel?.stop();
  await fake?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A signed-out page on the CAPTCHA panel whose Turnstile script is the fake; `issued` collects the tokens it hands out. */
const signedOutPage = async (browser: Browser): Promise<{ page: Page; issued: string[] }> => {
  const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  const issued: string[] = [];
  await page.exposeFunction('fakeCaptchaToken', (sitekey: string) => {
    expect(sitekey, 'the site key the widget was rendered with').toBe(SITE_KEY);
    const token = fake.pass();
    issued.push(token);
    return token;
  });
  await page.route(TURNSTILE_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE }));
  return { page, issued };
};

const verified = () => fake.requests.map((r) => r.form.response);

test('sign-in asks for the CAPTCHA, sends the solved token once, and asks again after a failed attempt', async ({ browser }) => {
  const { page, issued } = await signedOutPage(browser);
  await page.goto('/auth/login');
  const human = page.getByRole('checkbox', { name: 'Verify you are human' });
  await expect(human).toBeVisible();
  await page.getByLabel('E-mail or username').fill(ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);

  // Unsolved: the panel refuses, and the page says why.
  const unsolved = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect((await unsolved).headers()['x-captcha-response']).toBeUndefined();
  await expect(page.getByRole('alert')).toContainText('Complete the CAPTCHA first.');
  await expectAccessible(page);
  await shot(page, 'sign-in-captcha', ['light', 'dark', 'mobile']);

  // Solved, but the wrong password: refused, and the spent token is not offered again.
  await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
  await human.check();
  await expect.poll(() => issued.length).toBe(1);
  const wrong = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect((await wrong).headers()['x-captcha-response']).toBe(issued[0]);
  await expect(page.getByRole('alert')).toContainText('The e-mail or username and password do not match.');
  await expect(human).not.toBeChecked();
  expect(verified()).toContain(issued[0]);

  // Solved again with the right password: signed in.
  await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
  await human.check();
  await expect.poll(() => issued.length).toBe(2);
  const right = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect((await right).headers()['x-captcha-response']).toBe(issued[1]);
  await expect(page).toHaveURL(`${panel.baseURL}/`);
  expect(verified()).toContain(issued[1]);
  await page.context().close();
});

test('forgot-password sends the solved token with the request', async ({ browser }) => {
  const { page, issued } = await signedOutPage(browser);
  await page.goto('/auth/password');
  await page.getByLabel('E-mail address').fill('nobody@hatchery.test');
  await page.getByRole('checkbox', { name: 'Verify you are human' }).check();
  await expect.poll(() => issued.length).toBe(1);
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/forget-password'));
  await page.getByRole('button', { name: 'Send the link' }).click();
  expect((await sent).headers()['x-captcha-response']).toBe(issued[0]);
  await expect(page.getByRole('status')).toContainText('nobody@hatchery.test');
  expect(verified()).toContain(issued[0]);
  await page.context().close();
});

test('a CAPTCHA script that cannot load is told, and Try again loads it', async ({ browser }) => {
  const { page } = await signedOutPage(browser);
  // A content blocker: the first request for the script fails; the next one goes through.
  await page.route(TURNSTILE_SCRIPT, (route) => route.abort('blockedbyclient'), { times: 1 });
  await page.goto('/auth/login');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The CAPTCHA could not be loaded');
  await expect(page.getByRole('checkbox', { name: 'Verify you are human' })).toHaveCount(0);
  await expectAccessible(page);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('checkbox', { name: 'Verify you are human' })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await page.context().close();
});
