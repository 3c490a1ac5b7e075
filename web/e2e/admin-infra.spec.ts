import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { expect, expectAccessibleInBothSchemes, expectNoHorizontalScroll, openDialog, shot, test } from 'e2e/fixtures';
import { freePort } from 'e2e/panel-process';

// The administration of users, nodes (with their allocations and Wings configuration), locations,
// database hosts and the audit log, driven through the pages of the built panel.

const codeAt = (secret: string, ms: number): string => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const suffix = (): string => randomBytes(3).toString('hex');

/** axe in light and dark, no sideways scrolling at 390 px, and the README's screenshots. */
const checkPage = async (page: Page, name: string): Promise<void> => {
  await expectAccessibleInBothSchemes(page);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  // The navigation becomes a drawer: wait for the layout to settle before measuring.
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoHorizontalScroll(page);
  await page.setViewportSize(size);
  await shot(page, name, ['light', 'dark', 'mobile']);
};

/** The status and body of a sign-in, as a script would try it. */
const trySignIn = async (baseURL: string, email: string, password: string): Promise<{ status: number; code?: string; cookie?: string }> => {
  const res = await fetch(`${baseURL}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { code?: string };
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('hatchery_session='))?.split(';')[0];
  return { status: res.status, code: body.code, cookie };
};

test.describe('administration: users, nodes, locations, database hosts, audit log', () => {
  // The shared panel is set up by global setup (location, the simulator's node, the Paper egg, the owner), so
  // the empty checklist is the API's test (test/e2e/admin-overview.e2e-spec.ts); here, the page as it stands.
  test('overview: the setup checklist ticks what is done and links where each step is done; counts open their lists; version and health', async ({ adminPage: page }) => {
    const { version } = JSON.parse(await readFile(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    await page.goto('/admin');
    const checklist = page.getByRole('list', { name: 'Getting started' });
    for (const step of ['Create a location', 'Add a node', 'Install and configure Wings', 'Import an egg', 'Add a user']) {
      await expect(checklist.getByRole('listitem').filter({ hasText: step })).toHaveAttribute('data-done', 'true');
    }
    const services = page.getByRole('list', { name: 'Services' });
    await expect(services.getByRole('listitem').filter({ hasText: 'Database' })).toContainText('Answering');
    await expect(services.getByRole('listitem').filter({ hasText: 'Mail (SMTP)' })).toContainText('Not configured');
    await expect(services.getByRole('listitem').filter({ hasText: 'Redis' })).toContainText('Not configured');
    await expect(page.getByRole('list', { name: 'Nodes' }).getByRole('listitem').filter({ has: page.getByRole('link', { name: 'sim', exact: true }) })).toContainText('Reachable');
    await expect(page.getByTestId('panel-version')).toHaveText(`Hatchery ${version}`);
    await checkPage(page, 'admin-overview');

    await checklist.getByRole('link', { name: 'Create a location' }).click();
    await expect(page).toHaveURL(/\/admin\/locations\?create=true$/);
    await (await openDialog(page, 'New location')).getByRole('button', { name: 'Close' }).click();
    await page.goto('/admin');
    await checklist.getByRole('link', { name: 'Import an egg' }).click();
    await expect(page.getByRole('heading', { name: 'Egg gallery', exact: true })).toBeVisible();
    await page.goto('/admin');
    await page.getByRole('link', { name: /^\d+ nodes?: open the list$/ }).click();
    await expect(page).toHaveURL(/\/admin\/nodes$/);
  });


  test('users: create, make admin, reset two-factor, suspend (sign-in refused), lift it', async ({ adminPage: page, api, panel }) => {
    test.slow();
    const s = suffix();
    const user = { username: `ops_${s}`, email: `ops-${s}@hatchery.test`, name: `Ops ${s}`, password: `password-${s}` };

    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 2, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Users', selected: true })).toBeVisible();
    await page.getByRole('button', { name: 'New user' }).click();
    const create = await openDialog(page, 'New user');
    await create.getByLabel('Username').fill(user.username);
    await create.getByLabel('E-mail').fill(user.email);
    await create.getByLabel('Name', { exact: true }).fill(user.name);
    await create.getByLabel('Password', { exact: true }).fill(user.password);
    await create.getByRole('button', { name: 'New user' }).click();

    // The new account's page: make it an administrator.
    await expect(page.getByRole('heading', { name: user.username, level: 2 })).toBeVisible();
    const uid = /\/admin\/users\/(\d+)/.exec(page.url())![1];
    await page.getByRole('checkbox', { name: 'Administrator' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved')).toBeVisible();
    expect(await api.admin('GET', `/api/admin/users/${uid}`)).toMatchObject({ username: user.username, email: user.email, name: user.name, admin: true, suspended: false });

    // Two-factor on, set up by the user through the API; the admin turns it off.
    const session = await api.raw.signIn(user.email, user.password);
    const setup = await api.raw.request<{ secret: string }>('POST', '/api/user/2fa/setup', { session });
    await api.raw.request('POST', '/api/user/2fa/enable', { session, body: { code: codeAt(setup.secret, Date.now()) } });
    expect((await api.admin('GET', `/api/admin/users/${uid}`)).twoFactorEnabled).toBe(true);
    await page.reload();
    await expect(page.getByText('On', { exact: true })).toBeVisible();
    await checkPage(page, 'admin-user');
    await page.getByRole('button', { name: 'Reset two-factor' }).click();
    await (await openDialog(page, 'Turn two-factor sign-in off?')).getByRole('button', { name: 'Reset two-factor' }).click();
    await expect(page.getByText(`Two-factor sign-in is off for ${user.username}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reset two-factor' })).toBeDisabled();
    expect((await api.admin('GET', `/api/admin/users/${uid}`)).twoFactorEnabled).toBe(false);
    const plain = await trySignIn(panel.baseURL, user.email, user.password);
    expect(plain.status).toBe(200);

    // Suspension: signed out at once, and no new sign-in.
    await page.getByRole('button', { name: 'Suspend sign-in' }).click();
    await (await openDialog(page, 'Suspend sign-in?')).getByRole('button', { name: 'Suspend sign-in' }).click();
    await expect(page.getByText(`${user.username} is suspended`)).toBeVisible();
    await expect(page.getByText('Suspended', { exact: true })).toBeVisible();
    expect(await trySignIn(panel.baseURL, user.email, user.password)).toMatchObject({ status: 403, code: 'ACCOUNT_SUSPENDED' });
    expect((await fetch(`${panel.baseURL}/api/account`, { headers: { cookie: plain.cookie! } })).status).toBe(401);

    // The list finds them by search (kept in the address) and shows the state.
    await page.goto('/admin/users');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(`ops-${s}`);
    await expect(page).toHaveURL(new RegExp(`q=ops-${s}`));
    const row = page.getByRole('listitem', { name: user.username });
    await expect(row).toContainText('Suspended');
    await expect(row).toContainText('Admin');
    await expect(page.getByRole('listitem')).toHaveCount(1);
    await checkPage(page, 'admin-users');

    // Lifted: the password works again.
    await row.getByRole('link', { name: `Manage ${user.username}` }).click();
    await page.getByRole('button', { name: 'Lift suspension' }).click();
    await (await openDialog(page, 'Lift the suspension?')).getByRole('button', { name: 'Lift suspension' }).click();
    // Exact: the dialog itself says "… can sign in again, and their API keys work again" while the request runs.
    await expect(page.getByText(`${user.username} can sign in again`, { exact: true })).toBeVisible();
    expect(await trySignIn(panel.baseURL, user.email, user.password)).toEqual({ status: 200, code: undefined, cookie: expect.any(String) });
  });

  test('users: deleting one who owns servers is refused and explained; one without is deleted', async ({ adminPage: page, api, newUser, createServer }) => {
    const owner = await newUser();
    await createServer({ owner_id: owner.id });
    await page.goto(`/admin/users/${owner.id}`);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await (await openDialog(page, 'Delete this user?')).getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('alert')).toContainText('This user still owns servers.');
    expect((await api.admin('GET', `/api/admin/users/${owner.id}`)).id).toBe(owner.id);

    const other = await newUser();
    await page.goto(`/admin/users/${other.id}`);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await (await openDialog(page, 'Delete this user?')).getByRole('button', { name: 'Delete user' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await api.raw.request('GET', `/api/admin/users/${other.id}`, { session: api.adminSession, expect: 404 });
  });

  test('nodes: create one on a location, config.yml and deploy command, healthy once Wings runs, allocations', async ({ adminPage: page, api, panel, ownSims }) => {
    test.slow();
    const s = suffix();
    const port = await freePort();

    // A location first, through its page.
    await page.goto('/admin/locations');
    await page.getByRole('button', { name: 'New location' }).click();
    const newLocation = await openDialog(page, 'New location');
    await newLocation.getByLabel('Short code').fill(`lab-${s}`);
    await newLocation.getByLabel('Description').fill(`Lab ${s}`);
    await newLocation.getByRole('button', { name: 'New location' }).click();
    await expect(page.getByRole('listitem', { name: `lab-${s}` })).toContainText(`Lab ${s}`);
    await checkPage(page, 'admin-locations');

    // The node, pointing at a simulator that is not running yet.
    await page.goto('/admin/nodes');
    await page.getByRole('button', { name: 'New node' }).click();
    const form = await openDialog(page, 'New node');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(`Node ${s}`);
    await form.getByRole('combobox', { name: 'Location' }).click();
    await page.getByRole('option', { name: `lab-${s} (Lab ${s})` }).click();
    await form.getByLabel('Address (FQDN or IP)').fill('127.0.0.1');
    await form.getByText('HTTP', { exact: true }).click();
    await form.getByLabel('Daemon port').fill(String(port));
    await form.getByLabel('Memory (MiB)').fill('16384');
    await form.getByLabel('Disk (MiB)').fill('200000');
    await form.getByRole('button', { name: 'New node' }).click();
    await expect(page).toHaveURL(/\/admin\/nodes\/\d+\?tab=configuration/);
    const nid = /\/admin\/nodes\/(\d+)/.exec(page.url())![1];
    const node = await api.admin('GET', `/api/admin/nodes/${nid}`);
    expect(node).toMatchObject({ name: `Node ${s}`, fqdn: '127.0.0.1', scheme: 'http', daemonListen: port, memory: 16384, disk: 200000, baseUrl: `http://127.0.0.1:${port}` });
    // Nothing listens yet, and Wings never called: the page waits for it, says how to start it, and works on.
    await expect(page.getByTestId(`health-${nid}`)).toHaveText('Waiting for Wings');
    await expect(page.getByText("start Wings on the machine with this node's configuration")).toBeVisible();
    await shot(page, 'admin-node-waiting', ['light']);

    // config.yml through the browser.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download config.yml' }).click()]);
    expect(download.suggestedFilename()).toBe('config.yml');
    const yamlText = await readFile(await download.path(), 'utf8');
    const config = parseYaml(yamlText) as { uuid: string; token_id: string; token: string; remote: string; api: { port: number } };
    expect(config).toMatchObject({ uuid: node.uuid, token_id: node.tokenIdentifier, remote: panel.baseURL, api: { port } });
    expect(config.token).toMatch(/^\S{32,}$/);

    // The deploy command: its key reads the same file, as the command's curl would.
    await page.getByRole('button', { name: 'Create deploy command' }).click();
    const command = (await page.getByTestId('deploy-command').textContent())!;
    const match = /^curl -fsSL -H "Authorization: Bearer (\S+)" "(\S+)" -o \/etc\/pterodactyl\/config\.yml$/.exec(command);
    expect(match, command).not.toBeNull();
    expect(match![2]).toBe(`${panel.baseURL}/api/admin/daemon/nodes/${nid}/configuration?format=yaml`);
    const fetched = await fetch(match![2], { headers: { Authorization: `Bearer ${match![1]}` } });
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(yamlText);
    const keys = await api.admin('GET', '/api/account/api-keys') as unknown as { start: string; permissions: string[]; expiresAt: string }[];
    const deployKey = keys.find((k) => match![1].startsWith(k.start))!;
    expect(deployKey.permissions).toEqual(['nodes.read']);
    expect(new Date(deployKey.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(86_400_000 + 60_000);
    await page.getByTestId('deploy-command').scrollIntoViewIfNeeded();
    // The pointer stays where the deploy button was; after the scroll it may rest on (and darken) another button.
    await page.mouse.move(0, 0);
    await checkPage(page, 'admin-node-config');

    // Wings (the simulator) with that configuration: the node is healthy.
    const sim = new WingsSimulator({ panelUrl: config.remote, tokenId: config.token_id, token: config.token, port, allowedOrigins: [panel.baseURL], remoteTimeoutMs: 5000 });
    await sim.start();
    ownSims.push(sim);
    await page.goto('/admin/nodes');
    await expect(page.getByTestId(`health-${nid}`)).toHaveText('Healthy');
    await expect(page.getByRole('listitem', { name: `Node ${s}` })).toContainText('CPUs');
    await checkPage(page, 'admin-nodes');

    // Allocations: a range and a single port, then one deleted alone and two together.
    await page.getByRole('link', { name: `Manage Node ${s}` }).click();
    await page.getByRole('tab', { name: 'Allocations' }).click();
    await expect(page.getByText('No allocations yet')).toBeVisible();
    await page.getByLabel('Ports').fill('80');
    await expect(page.getByText('Ports go from 1024 to 65535')).toBeVisible();
    await page.getByLabel('Ports').fill('27200-27205, 27300');
    await page.getByLabel('Alias').fill('play.example.test');
    await expect(page.getByText('Adds 7 ports.')).toBeVisible();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByText('7 allocations')).toBeVisible();
    const listed = async () => (await api.admin('GET', `/api/admin/nodes/${nid}/allocations`)) as unknown as { id: string; port: number; alias: string | null }[];
    expect((await listed()).map((a) => [a.port, a.alias])).toEqual([27200, 27201, 27202, 27203, 27204, 27205, 27300].map((p) => [p, 'play.example.test']));
    await checkPage(page, 'admin-node-allocations');
    await page.getByRole('button', { name: 'Delete play.example.test:27300' }).click();
    await (await openDialog(page, 'Delete allocations?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('6 allocations')).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select play.example.test:27200' }).check();
    await page.getByRole('checkbox', { name: 'Select play.example.test:27201' }).check();
    await page.getByRole('button', { name: 'Delete 2 selected' }).click();
    await (await openDialog(page, 'Delete allocations?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('4 allocations')).toBeVisible();
    expect((await listed()).map((a) => a.port)).toEqual([27202, 27203, 27204, 27205]);


    // The location holds a node now: deleting it is refused, and says why.
    await page.goto('/admin/locations');
    await page.getByRole('button', { name: `Delete lab-${s}` }).click();
    await (await openDialog(page, 'Delete this location?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Nodes still stand in this location.')).toBeVisible();

    // The audit log has these changes, and filters them.
    await page.goto(`/admin/audit`);
    await page.getByRole('combobox', { name: 'Action' }).fill('node.created');
    await expect(page).toHaveURL(/action=node\.created/);
    const entry = page.getByRole('button', { name: new RegExp(`^Created node Node ${s} by `) });
    await expect(entry).toBeVisible();
    await expect(page.getByRole('button', { name: /^Created location/ })).toHaveCount(0);
    await entry.click();
    await expect(page.getByText(`"name": "Node ${s}"`)).toBeVisible();
  });

  test("nodes: a node's Servers tab lists the servers on it, each opening to its administration", async ({ adminPage: page, api, newNode, createServer }) => {
    test.slow();
    const s = suffix();
    const node = await newNode();
    await page.goto(`/admin/nodes/${node.id}`);
    await page.getByRole('tablist', { name: 'Node pages' }).getByRole('tab', { name: 'Servers' }).click();
    await expect(page).toHaveURL(/tab=servers/);
    await expect(page.getByText('No servers on this node')).toBeVisible();

    const onNode = await createServer({ node_id: node.id, name: `On node ${s}` });
    // A server elsewhere is not listed here.
    await createServer({ name: `Elsewhere ${s}` });
    await page.reload();
    await expect(page.getByText('1 server on this node')).toBeVisible();
    const table = page.getByRole('table', { name: 'Servers' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row', { name: new RegExp(`On node ${s}`) });
    await expect(row).toContainText(':27100');
    await expect(row).toContainText('owner');
    await checkPage(page, 'admin-node-servers');
    await row.getByRole('link', { name: `On node ${s}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/servers/${onNode.id}`));
    await api.admin('DELETE', `/api/admin/servers/${onNode.id}`);
  });

  test('database hosts: create, test (connected and refused, explained), edit, delete', async ({ adminPage: page, api, newNode }) => {
    test.slow();
    const s = suffix();
    // Linked to a node of this test only, and taking no databases: no other test's server is given them.
    const { id: nodeId } = await newNode();
    const nodeName = ((await api.admin('GET', `/api/admin/nodes/${nodeId}`)) as { name: string }).name;
    const fill = async (dialog: Locator, name: string, password: string) => {
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      await dialog.getByRole('textbox', { name: 'Host', exact: true }).fill('127.0.0.1');
      await dialog.getByLabel('Port').fill('3306');
      await dialog.getByLabel('Username').fill('root');
      await dialog.getByLabel('Password', { exact: true }).fill(password);
      await dialog.getByLabel('Most databases').fill('0');
      await dialog.getByRole('combobox', { name: 'Node' }).click();
      await page.getByRole('option', { name: nodeName }).click();
    };

    await page.goto('/admin/database-hosts');
    await expect(page.getByRole('heading', { name: 'Database hosts', level: 2, exact: true })).toBeVisible();
    // The page's button, in main: the dialog's submit button has the same name, and a closing dialog is
    // still in the document for its transition.
    const newHost = page.getByRole('main').getByRole('button', { name: 'New database host' });
    await newHost.click();
    let dialog = await openDialog(page, 'New database host');
    await fill(dialog, `maria-${s}`, '');
    await dialog.getByRole('button', { name: 'New database host' }).click();
    await expect(dialog).toBeHidden();
    const good = page.getByRole('listitem', { name: `maria-${s}` });
    await expect(good).toContainText('root@127.0.0.1:3306');
    await expect(good).toContainText(nodeName);

    await newHost.click();
    dialog = await openDialog(page, 'New database host');
    await fill(dialog, `wrong-${s}`, 'not-the-password');
    await dialog.getByRole('button', { name: 'New database host' }).click();
    await expect(dialog).toBeHidden();
    const bad = page.getByRole('listitem', { name: `wrong-${s}` });
    await expect(bad).toBeVisible();

    await good.getByRole('button', { name: `Test the connection to maria-${s}` }).click();
    await expect(good.getByRole('status')).toContainText('Connected');
    await expect(good.getByRole('status')).toContainText('The panel signed in to the host (10.');
    await bad.getByRole('button', { name: `Test the connection to wrong-${s}` }).click();
    await expect(bad.getByRole('alert')).toContainText('Could not connect');
    await expect(bad.getByRole('alert')).toContainText('Check the host, port, username and password');
    await checkPage(page, 'admin-database-hosts');

    // The password is never shown back; an edit that leaves it empty keeps it.
    const hosts = (await api.admin('GET', '/api/admin/database-hosts')) as unknown as { id: string; name: string; nodeId: string; maxDatabases: number }[];
    const goodHost = hosts.find((h) => h.name === `maria-${s}`)!;
    expect(goodHost).toMatchObject({ nodeId, maxDatabases: 0 });
    expect(JSON.stringify(hosts)).not.toContain('not-the-password');
    await good.getByRole('button', { name: `Edit maria-${s}` }).click();
    dialog = await openDialog(page, `Edit maria-${s}`);
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(`maria-${s}-renamed`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('listitem', { name: `maria-${s}-renamed` });
    await renamed.getByRole('button', { name: `Test the connection to maria-${s}-renamed` }).click();
    await expect(renamed.getByRole('status')).toContainText('Connected');

    for (const name of [`maria-${s}-renamed`, `wrong-${s}`]) {
      await page.getByRole('button', { name: `Delete ${name}` }).click();
      await (await openDialog(page, 'Delete this database host?')).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('listitem', { name })).toHaveCount(0);
    }
    const left = (await api.admin('GET', '/api/admin/database-hosts')) as unknown as { name: string }[];
    expect(left.filter((h) => h.name.endsWith(s) || h.name.endsWith(`${s}-renamed`))).toEqual([]);
  });

  test('audit log: filters by action and by who, kept in the address; entries open to their changes', async ({ adminPage: page, api, newUser }) => {
    const s = suffix();
    const location = await api.admin('POST', '/api/admin/locations', { short: `audit-${s}`, long: 'Audited' });
    // Another admin's change, which the "done by" filter must leave out.
    const other = await newUser({ admin: true });
    const otherSession = await api.raw.signIn(other.email, other.password);
    await api.raw.request('PATCH', `/api/admin/locations/${String(location.id)}`, { session: otherSession, body: { long: 'Audited again' } });
    const me = await api.admin('GET', '/api/account');

    await page.goto('/admin/audit');
    await expect(page.getByRole('heading', { name: 'Audit log', level: 2, exact: true })).toBeVisible();
    await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Done by' }).click();
    await page.getByRole('option', { name: String(me.username), exact: true }).click();
    await page.getByRole('combobox', { name: 'Action' }).fill('location');
    await page.getByRole('option', { name: 'location.created', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`actorId=.*${String(me.id)}`));
    await expect(page).toHaveURL(/action=location\.created/);
    const mine = page.getByRole('button', { name: `Created location audit-${s} by ${String(me.username)}` });
    await expect(mine).toBeVisible();
    await expect(page.getByRole('button', { name: /^Updated location/ })).toHaveCount(0);
    // Retried: while the action filter's page loads, the list may still show the "done by" page.
    await expect(page.getByTestId('audit-entry').filter({ hasNotText: 'Created location' })).toHaveCount(0);
    // The target by name, linked to its page.
    await expect(page.getByTestId('audit-entry').filter({ has: mine }).getByRole('link', { name: `audit-${s}`, exact: true })).toHaveAttribute('href', '/admin/locations');

    // Reloading keeps the filters; the entry opens to what was recorded.
    await page.reload();
    await mine.click();
    await expect(page.getByText(`"short": "audit-${s}"`)).toBeVisible();
    await checkPage(page, 'admin-audit');

    // The other admin's update, by action alone.
    await page.goto(`/admin/audit?action=location.updated`);
    await expect(page.getByRole('button', { name: `Updated location audit-${s} by ${other.username}` })).toBeVisible();
  });
});
