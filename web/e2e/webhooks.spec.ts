import { createHmac, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { WebhookReceiver } from 'test/utils/webhook-receiver';
import { expect, expectAccessibleInBothSchemes, expectNoHorizontalScroll, openDialog, shot, signIn, test } from 'e2e/fixtures';

// Webhooks: an administrator's and a server's, made in the dialog, tested from their page, with the
// deliveries listed, against a receiver on loopback (the browser tests' panel runs with
// OUTBOUND_ALLOW_PRIVATE) that checks the signature with the secret the page showed once.

/** The Jest suite's receiver (test/utils/webhook-receiver.ts): records every request, answers 200 unless told to fail a path. */
const startReceiver = async (): Promise<WebhookReceiver> => {
  const rx = new WebhookReceiver();
  await rx.start();
  return rx;
};

/** axe in light and dark, no sideways scrolling at 390 px. */
const checkPage = async (page: Page): Promise<void> => {
  await expectAccessibleInBothSchemes(page);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize(size);
};

test.describe('webhooks', () => {
  test('an administrator adds a signed webhook, copies its secret once, tests it, and sees an event delivered', async ({ adminPage: page, api, createServer, installed }) => {
    test.slow();
    const rx = await startReceiver();
    try {
      const s = randomBytes(3).toString('hex');
      const name = `Ops ${s}`;
      const server = await createServer({ name: `Watched ${s}` });
      await installed(server);

      await page.goto('/admin/webhooks');
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 2, exact: true })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();
      await page.getByRole('button', { name: 'New webhook' }).first().click();
      const dialog = await openDialog(page, 'New webhook');
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('URL').fill(rx.url(`/ops-${s}`));
      // No event chosen: the form says so before anything is sent.
      await dialog.getByRole('button', { name: 'New webhook' }).click();
      await expect(dialog.getByText('Choose at least one event, or all events.')).toBeVisible();
      await dialog.getByRole('checkbox', { name: 'Server suspended', exact: true }).check();
      await expect(dialog.getByText('Choose at least one event, or all events.')).toHaveCount(0);
      await dialog.getByRole('checkbox', { name: 'Node not answering (2 minutes)' }).check();
      await expect(dialog.getByText('Has not answered the panel for 2 minutes')).toBeVisible();
      // Tall enough for the whole form.
      const size = page.viewportSize()!;
      await page.setViewportSize({ width: size.width, height: 1300 });
      await shot(page, 'webhook-form', ['light', 'dark']);
      await page.setViewportSize(size);
      await dialog.getByRole('button', { name: 'New webhook' }).click();
      await expect(dialog).toBeHidden();

      // The secret, once, with how to check a request.
      const secret = (await page.getByTestId('webhook-secret').textContent())!;
      expect(secret).toMatch(/^whsec_/);
      await expect(page.getByText('Checking a request')).toBeVisible();
      await expect(page.getByText('sha256=<hex of HMAC-SHA256(secret, "<X-Hatchery-Timestamp>.<raw body>")>')).toBeVisible();
      const card = page.getByRole('listitem', { name });
      await expect(card).toContainText('2 events');
      await expect(card).toContainText('Signed');
      await checkPage(page);
      await shot(page, 'admin-webhooks', ['light', 'dark', 'mobile']);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await expect(page.getByTestId('webhook-secret')).toHaveCount(0);

      // Its page: a test is delivered at once, and shows in the deliveries.
      await card.getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
      await page.getByRole('button', { name: 'Send test' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'The test was delivered: HTTP 200' })).toBeVisible();
      const deliveries = page.getByRole('region', { name: 'Deliveries' });
      // The webhook also hears "node not answering" of the nodes other tests left behind with their
      // simulators stopped (two minutes on, during a slow run): those deliveries are not this walk's.
      const own = deliveries.getByRole('listitem').filter({ hasNotText: 'Node not answering (2 minutes)' });
      await expect(own).toHaveCount(1);
      await expect(own.first()).toContainText('Delivered');

      // An event: suspending the server is sent by the panel's delivery job, signed with the secret,
      // and the page, which reads its deliveries again every 10 s, shows it.
      await api.admin('POST', `/api/admin/servers/${server.id}/suspend`);
      await expect.poll(() => rx.received.filter((r) => r.headers['x-hatchery-event'] === 'server.suspended').length, { timeout: 15_000 }).toBe(1);
      await expect(deliveries.getByRole('listitem').filter({ hasText: 'Server suspended' })).toContainText('Delivered', { timeout: 15_000 });
      const suspended = rx.received.find((r) => r.headers['x-hatchery-event'] === 'server.suspended')!;
      const timestamp = String(suspended.headers['x-hatchery-timestamp']);
      expect(suspended.headers['x-hatchery-signature']).toBe(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${suspended.body}`).digest('hex')}`);
      expect(JSON.parse(suspended.body)).toMatchObject({ event: 'server.suspended', server: { uuid: server.uuid } });
      const row = deliveries.getByRole('listitem').filter({ hasText: 'Server suspended' });
      await row.getByRole('button', { name: /^Details of server\.suspended/ }).click();
      await expect(row.getByText('"event": "server.suspended"')).toBeVisible();
      await checkPage(page);
      await shot(page, 'admin-webhook', ['light', 'dark', 'mobile']);
      await api.admin('POST', `/api/admin/servers/${server.id}/unsuspend`);

      // An endpoint that answers 500: the test says so, and the delivery is failed.
      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = await openDialog(page, `Edit ${name}`);
      await expect(edit.getByLabel('URL')).toHaveValue(rx.url(`/ops-${s}`));
      rx.failFirst(`/broken-${s}`, Infinity);
      await edit.getByLabel('URL').fill(rx.url(`/broken-${s}`));
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toBeHidden();
      await expect(page.getByText(rx.url(`/broken-${s}`))).toBeVisible();
      await page.getByRole('button', { name: 'Send test' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'The test was not delivered: HTTP 500' })).toBeVisible();
      await expect(own.first()).toContainText('Failed');
      await expect(own.first()).toContainText('1 attempt · HTTP 500');

      // A new secret is shown once too; then the webhook goes.
      await page.getByRole('button', { name: 'New secret' }).click();
      await page.getByRole('dialog', { name: 'Make a new signing secret?' }).getByRole('button', { name: 'Make a new secret' }).click();
      await expect(page.getByTestId('webhook-secret')).not.toHaveText(secret);
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 2, exact: true })).toBeVisible();
      await expect(page.getByRole('listitem', { name })).toHaveCount(0);
    } finally {
      await rx.close();
    }
  });

  test("a server's owner adds a Discord webhook for the server's events; its token stays hidden", async ({ ownerPage: page, createServer, installed }) => {
    const rx = await startReceiver();
    try {
      const server = await createServer();
      await installed(server);
      const id = server.uuid.slice(0, 8);
      await page.goto(`/server/${id}/webhooks`);
      await expect(page.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
      await page.getByRole('button', { name: 'New webhook' }).click();
      const dialog = await openDialog(page, 'New webhook');
      await dialog.getByLabel('Name').fill('Crashes to Discord');
      await dialog.getByText('Discord', { exact: true }).click();
      await expect(dialog.getByLabel('Signing secret')).toHaveCount(0);
      await dialog.getByLabel('URL').fill(rx.url('/api/webhooks/42/t0ken-s3cret'));
      // A server's webhook is offered its server's events only.
      await expect(dialog.getByRole('checkbox', { name: 'Node not answering (2 minutes)' })).toHaveCount(0);
      await dialog.getByRole('checkbox', { name: 'Server crashed', exact: true }).check();
      await dialog.getByRole('checkbox', { name: 'Backup failed' }).check();
      await dialog.getByRole('button', { name: 'New webhook' }).click();
      await expect(dialog).toBeHidden();
      const card = page.getByRole('listitem', { name: 'Crashes to Discord' });
      await expect(card).toContainText('/api/webhooks/42/…');
      await expect(page.getByText('t0ken-s3cret')).toHaveCount(0);
      await checkPage(page);
      await shot(page, 'server-webhooks', ['light', 'dark', 'mobile']);

      await card.getByRole('link', { name: 'Crashes to Discord' }).click();
      await page.getByRole('button', { name: 'Send test' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'The test was delivered: HTTP 200' })).toBeVisible();
      expect(JSON.parse(rx.received[0].body)).toMatchObject({ username: 'Hatchery', embeds: [{ title: 'Test from Hatchery' }] });
      // Editing keeps the hidden URL unless a new one is typed.
      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = await openDialog(page, 'Edit Crashes to Discord');
      await expect(edit.getByText('Leave empty to keep the current URL, whose token is hidden.')).toBeVisible();
      await edit.getByLabel('Name').fill('Crashes');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toBeHidden();
      await expect(page.getByRole('heading', { name: 'Crashes', level: 2 })).toBeVisible();
      await page.getByRole('button', { name: 'Send test' }).click();
      await expect.poll(() => rx.received.length).toBe(2);
      expect(rx.received[1].path).toBe('/api/webhooks/42/t0ken-s3cret');
    } finally {
      await rx.close();
    }
  });

  test('the Webhooks tab is for subusers given "Manage the server\'s webhooks"', async ({ ownerPage, createServer, newSubuser, browser, panel }) => {
    const server = await createServer();
    const id = server.uuid.slice(0, 8);
    // The owner's subuser editor offers the permission.
    await ownerPage.goto(`/server/${id}/users`);
    await ownerPage.getByRole('button', { name: 'Add subuser' }).first().click();
    const dialog = await openDialog(ownerPage, 'Add a subuser');
    await expect(dialog.getByRole('checkbox', { name: "Manage the server's webhooks and see their deliveries" })).toBeVisible();

    const pageOf = async (permissions: string[]): Promise<Page> => {
      const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
      const page = await context.newPage();
      await signIn(page, await newSubuser(server.uuid, permissions));
      return page;
    };
    const without = await pageOf(['server.view', 'server.activity.read']);
    await without.goto(`/server/${id}/activity`);
    await expect(without.getByRole('tab', { name: 'Activity', selected: true })).toBeVisible();
    await expect(without.getByRole('tab', { name: 'Webhooks' })).toHaveCount(0);
    await without.context().close();

    const allowed = await pageOf(['server.view', 'server.webhook']);
    await allowed.goto(`/server/${id}/webhooks`);
    await expect(allowed.getByRole('tab', { name: 'Webhooks', selected: true })).toBeVisible();
    await expect(allowed.getByRole('heading', { name: 'No webhooks yet' })).toBeVisible();
    await allowed.context().close();
  });
});
