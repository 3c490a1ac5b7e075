import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { FakeCaptchaServer } from 'test/utils/fake-captcha';
import { expect, expectAccessible, shot, test } from 'e2e/fixtures';
import { startPanel, type PanelProcess } from 'e2e/panel-process';

// Sign-in and forgot-password on panels with a CAPTCHA configured (Turnstile; reCAPTCHA v3): a panel
// process of their own (the shared one has no CAPTCHA), verifying tokens against a local fake
// siteverify endpoint. The browser gets a stand-in for the provider's script (same URL, same API) that
// hands out tokens the fake endpoint passes (Turnstile's draws a checkbox); the panel's CSP must let it load.

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

/** reCAPTCHA v3 in miniature: `ready`, and `execute` for a token per action. */
const FAKE_RECAPTCHA = `window.grecaptcha = {
  ready(callback) { callback(); },
  execute(siteKey, options) { return window.fakeCaptchaToken(siteKey, options.action); },
};`;
const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js?*';

interface CaptchaPanel {
  panel: PanelProcess;
  fake: FakeCaptchaServer;
}

/**
 * A panel of its own with this CAPTCHA provider, for the tests of the describe around the call (run
 * one after another in one worker), verifying against a fake siteverify endpoint.
 */
const captchaPanel = (provider: 'turnstile' | 'recaptcha'): CaptchaPanel => {
  const stack = {} as CaptchaPanel;
  let work: string | undefined;
  test.describe.configure({ mode: 'default' });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    stack.fake = await FakeCaptchaServer.start(provider, SECRET);
    work = mkdtempSync(join(tmpdir(), 'hatchery-captcha-'));
    stack.panel = await startPanel(work, {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: 'captcha_admin',
      CAPTCHA_PROVIDER: provider,
      CAPTCHA_SITE_KEY: SITE_KEY,
      CAPTCHA_SECRET_KEY: SECRET,
      CAPTCHA_VERIFY_URL: stack.fake.url,
    });
  });
  test.afterAll(async () => {
    await stack.panel?.stop();
    await stack.fake?.close();
    if (work) {
      rmSync(work, { recursive: true, force: true });
    }
  });
  return stack;
};

interface SignedOutPage {
  page: Page;
  /** The tokens the stand-in provider handed out, in order. */
  issued: string[];
  /** The actions the page asked the provider for, in order (Turnstile's render, reCAPTCHA's execute). */
  actions: string[];
  /** The reCAPTCHA score of the next tokens (the fake siteverify answers with it). */
  score: { next: number };
}

/** A signed-out page on the CAPTCHA panel whose provider script is the stand-in. */
const signedOutPage = async (browser: Browser, { panel, fake }: CaptchaPanel): Promise<SignedOutPage> => {
  const context = await browser.newContext({
    baseURL: panel.baseURL,
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  const result: SignedOutPage = {
    page,
    issued: [],
    actions: [],
    score: { next: 0.9 },
  };
  await page.exposeFunction('fakeCaptchaToken', (sitekey: string, action: string) => {
    expect(sitekey, 'the site key the page used').toBe(SITE_KEY);
    const token = fake.pass(result.score.next);
    result.issued.push(token);
    result.actions.push(action);
    return token;
  });
  if (fake.provider === 'recaptcha') {
    await page.route(RECAPTCHA_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_RECAPTCHA }));
  } else {
    await page.route(TURNSTILE_SCRIPT, (route) => route.fulfill({ contentType: 'text/javascript', body: FAKE_TURNSTILE }));
  }
  return result;
};

const verified = (fake: FakeCaptchaServer) => fake.requests.map((r) => r.form.response);

test.describe('Turnstile', () => {
  const stack = captchaPanel('turnstile');

  test('sign-in asks for the CAPTCHA, sends the solved token once, and asks again after a failed attempt', async ({ browser }) => {
    const { page, issued } = await signedOutPage(browser, stack);
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
    expect(verified(stack.fake)).toContain(issued[0]);

    // Solved again with the right password: signed in.
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    await human.check();
    await expect.poll(() => issued.length).toBe(2);
    const right = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await right).headers()['x-captcha-response']).toBe(issued[1]);
    await expect(page).toHaveURL(`${stack.panel.baseURL}/`);
    expect(verified(stack.fake)).toContain(issued[1]);
    await page.context().close();
  });

  test('forgot-password sends the solved token with the request', async ({ browser }) => {
    const { page, issued } = await signedOutPage(browser, stack);
    await page.goto('/auth/password');
    await page.getByLabel('E-mail address').fill('nobody@hatchery.test');
    await page.getByRole('checkbox', { name: 'Verify you are human' }).check();
    await expect.poll(() => issued.length).toBe(1);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/forget-password'));
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect((await sent).headers()['x-captcha-response']).toBe(issued[0]);
    await expect(page.getByRole('status')).toContainText('nobody@hatchery.test');
    expect(verified(stack.fake)).toContain(issued[0]);
    await page.context().close();
  });

  test('a CAPTCHA script that cannot load is told, and Try again loads it', async ({ browser }) => {
    const { page } = await signedOutPage(browser, stack);
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
});

test.describe('reCAPTCHA v3', () => {
  const stack = captchaPanel('recaptcha');

  test('sign-in asks reCAPTCHA for a fresh token at each submit; a low score is refused with the message', async ({ browser }) => {
    const signedOut = await signedOutPage(browser, stack);
    const { page, issued, actions, score } = signedOut;
    await page.goto('/auth/login');
    await page.getByLabel('E-mail or username').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN.password);
    // No checkbox: v3 asks nothing of the visitor.
    await expect(page.getByRole('checkbox')).toHaveCount(0);

    score.next = 0.1;
    const low = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await low).headers()['x-captcha-response']).toBe(issued[0]);
    await expect(page.getByRole('alert')).toContainText('The CAPTCHA was not accepted. Try it again.');
    await expectAccessible(page);

    score.next = 0.9;
    const high = page.waitForRequest((r) => r.url().endsWith('/api/auth/sign-in/email'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await high).headers()['x-captcha-response']).toBe(issued[1]);
    await expect(page).toHaveURL(`${stack.panel.baseURL}/`);
    expect(actions).toEqual(['sign_in', 'sign_in']);
    expect(verified(stack.fake)).toEqual(expect.arrayContaining(issued));
    await page.context().close();
  });

  test('forgot-password sends a reCAPTCHA token for its own action', async ({ browser }) => {
    const { page, issued, actions } = await signedOutPage(browser, stack);
    await page.goto('/auth/password');
    await page.getByLabel('E-mail address').fill('nobody@hatchery.test');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/forget-password'));
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect((await sent).headers()['x-captcha-response']).toBe(issued[0]);
    expect(actions).toEqual(['forget_password']);
    await expect(page.getByRole('status')).toContainText('nobody@hatchery.test');
    await page.context().close();
  });
});
