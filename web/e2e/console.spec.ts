import { CONSOLE_TOKEN_TTL_SECONDS } from 'e2e/panel-api';
import { docScreenshot, expect, expectAccessible, test } from 'e2e/fixtures';

// The server console (/server/$id) against the built panel and the simulator. The panel signs
// console tokens for CONSOLE_TOKEN_TTL_SECONDS here (global-setup.ts), so every page renews its
// token within seconds.

test.describe('server console', () => {
  test('shows output, sends a command, starts and stops the server, and keeps output flowing across a token renewal', async ({ ownerPage: page, createServer, installed }) => {
    const server = await createServer();
    await installed(server);
    let credentialRequests = 0;
    page.on('request', (r) => {
      if (r.url().endsWith(`/api/client/servers/${server.uuid}/websocket`)) {
        credentialRequests++;
      }
    });
    await page.goto(`/server/${server.uuid}`);
    const output = page.getByRole('region', { name: 'Console output' });
    const status = page.getByRole('status').filter({ hasText: /node/ });
    await expect(status).toHaveText('Connected to the node');
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByText('Running', { exact: true })).toBeVisible();
    await expect(output).toContainText('[simulator] preparing world...');

    const command = page.getByRole('textbox', { name: 'Command' });
    await command.fill('say before renewal');
    await command.press('Enter');
    await expect(output).toContainText('say before renewal');
    await expect(command).toHaveValue('');
    await command.press('ArrowUp');
    await expect(command).toHaveValue('say before renewal');
    await command.fill('');

    // A renewal: a second credentials request, and the same socket goes on carrying output.
    const before = credentialRequests;
    await expect.poll(() => credentialRequests, { timeout: (CONSOLE_TOKEN_TTL_SECONDS + 3) * 1000 }).toBeGreaterThan(before);
    await expect(status).toHaveText('Connected to the node');
    await command.fill('say after renewal');
    await command.press('Enter');
    await expect(output).toContainText('say after renewal');
    await expect(page.getByRole('img', { name: /^CPU: between/ })).toBeVisible();

    await expectAccessible(page);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByText('Offline', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  });

  test('reconnects after the connection drops and keeps the earlier output above the separator', async ({ ownerPage: page, createServer, installed, newNode }) => {
    // On a node of its own: the test cuts that simulator's console sockets.
    const node = await newNode();
    const server = await createServer({ node_id: node.id });
    await installed(server);
    await page.goto(`/server/${server.uuid}`);
    const output = page.getByRole('region', { name: 'Console output' });
    const status = page.getByRole('status').filter({ hasText: /node/ });
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByText('Running', { exact: true })).toBeVisible();
    const command = page.getByRole('textbox', { name: 'Command' });
    await command.fill('say kept in scrollback');
    await command.press('Enter');
    await expect(output).toContainText('say kept in scrollback');

    expect(node.sim.dropConsoles(server.uuid)).toBeGreaterThan(0);
    await expect(output).toContainText('reconnected');
    await expect(status).toHaveText('Connected to the node');
    // Kept, not replayed only: the line is there before the separator (the terminal was not cleared).
    const text = await output.innerText();
    expect(text.indexOf('say kept in scrollback')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('say kept in scrollback')).toBeLessThan(text.indexOf('reconnected'));
    await command.fill('say after reconnect');
    await command.press('Enter');
    await expect(output).toContainText('say after reconnect');
  });

  test('a subuser without console and power permissions sees neither the command line nor the power buttons', async ({ page, createServer, installed, newSubuser }) => {
    const server = await createServer();
    await installed(server);
    const subuser = await newSubuser(server.uuid, ['server.view', 'websocket.connect']);
    // Signed in on the sign-in page, whose content-security policy names no node: the console page it goes on to
    // must be loaded with the subuser's own policy (their server's node) for the socket to connect.
    await page.goto(`/server/${server.uuid}`);
    await page.getByRole('textbox', { name: 'E-mail or username' }).fill(subuser.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(subuser.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`/server/${server.uuid}$`));
    await expect(page.getByRole('status').filter({ hasText: /node/ })).toHaveText('Connected to the node');
    await expect(page.getByRole('region', { name: 'Console output' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Command' })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Power' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toHaveCount(0);
  });

  test('says in plain words that the node is down', async ({ ownerPage: page, createServer, installed, newNode }) => {
    // On a node of its own: taking it down leaves the other specs' node alone.
    const node = await newNode();
    const server = await createServer({ node_id: node.id });
    await installed(server);
    node.sim.faults.down = true;
    await page.goto(`/server/${server.uuid}`);
    const alert = page.getByRole('alert').filter({ hasText: 'The console cannot reach the node' });
    await expect(alert).toContainText('The node this server runs on is not answering');
    node.sim.resetFaults();
    // The page also retries on its own: whichever comes first, Retry now or its own retry, connects.
    const retry = alert.getByRole('button', { name: 'Retry now' });
    if (await retry.isVisible()) {
      await retry.click({ timeout: 5_000 }).catch(() => undefined);
    }
    await expect(page.getByRole('status').filter({ hasText: /node/ })).toHaveText('Connected to the node');
    await expect(alert).toHaveCount(0);

    // A node that hangs (takes connections, never answers) is named as fast as the dashboard names
    // it (the live-status timeout, 5 s here), with the power buttons off; back when it answers again.
    node.sim.faults.hang = true;
    await page.reload();
    await expect(page.getByText('Node not answering', { exact: true })).toBeVisible({ timeout: 12_000 });
    await expect(alert).toContainText('The node this server runs on is not answering');
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath('console-node-hung.png') });
    node.sim.resetFaults();
    await expect(page.getByRole('status').filter({ hasText: /node/ })).toHaveText('Connected to the node', { timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  });

  test('screenshots: light, dark and 390 px', async ({ ownerPage: page, createServer, installed }) => {
    const server = await createServer();
    await installed(server);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/server/${server.uuid}`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expect(page.getByText('Running', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Console output' })).toContainText('[simulator] preparing world...');
    await expect(page.getByRole('img', { name: /^Memory: between/ })).toBeVisible();
    // The server's 2048 MiB, written as the dashboard card writes it (not the node's container limit).
    await expect(page.getByText(/^[\d.]+ [KMG]iB of 2 GiB$/)).toBeVisible();
    await docScreenshot(page, 'console.png', { fullPage: true });
    // The scheme is "System" by default: the page follows the emulated preference.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.getByRole('region', { name: 'Console output' })).toContainText('[simulator] preparing world...');
    await docScreenshot(page, 'console-dark.png', { fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('region', { name: 'Console output' })).toContainText('[simulator] preparing world...');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await docScreenshot(page, 'console-390.png', { fullPage: true });
  });
});
