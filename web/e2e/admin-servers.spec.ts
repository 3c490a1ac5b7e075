import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { chooseOption, expect, expectAccessible, expectAccessibleInBothSchemes, expectFitsPhone, expectNoHorizontalScroll, shot, test } from 'e2e/fixtures';

const EGGS = process.env.HATCHERY_EGG_FIXTURES ?? resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');

// The administration's servers (/admin/servers, /new, /$sid) in real Chromium against the built panel
// and the Wings simulator: the wizard creates a server that the node installs, then the server page
// changes, suspends, reinstalls and deletes it; a node that is gone needs a force delete.

test.describe('admin servers', () => {
  test('the wizard creates a server the node installs; the server page changes its build and startup, suspends, reinstalls and deletes it', async ({
    adminPage: page,
    ownerPage,
    api,
    panel,
    newNode,
  }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    test.setTimeout(300_000);
    const name = `Wizard ${randomBytes(3).toString('hex')}`;
    // A node of this test's own, with its own simulator: the shared one fills up with the other specs' servers
    // (their limits add up past its memory), and this one shows what reached the node.
    const node = await newNode();
    const nodeName = String((await api.admin('GET', `/api/admin/nodes/${node.id}`)).name);

    await page.goto('/admin/servers');
    await expect(page.getByRole('heading', { name: 'Servers', exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Servers', selected: true })).toBeVisible();
    await page.getByRole('link', { name: 'Create server' }).click();
    await expect(page).toHaveURL(/\/admin\/servers\/new$/);

    // 1. Name and owner; Next refuses an empty step and says what is missing.
    await expect(page.getByRole('heading', { name: 'Name and owner', level: 3, exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Choose the owner')).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('textbox', { name: 'Server name' }).fill(name);
    await chooseOption(page, 'Owner', 'owner@', /^owner · owner@hatchery\.test/);
    await page.getByRole('button', { name: 'Next' }).click();

    // 2. The node with its room; its first free address is the primary, one more is added.
    await expect(page.getByRole('heading', { name: 'Node and address', level: 3, exact: true })).toBeVisible();
    const radio = page.getByRole('radio', { name: new RegExp(`^${nodeName} \\(127\\.0\\.0\\.1\\)`) });
    await expect(radio).toBeEnabled();
    await radio.check();
    await expect(page.getByText(/^Memory: .* given to servers/).first()).toBeVisible();
    const primary = page.getByRole('combobox', { name: 'Primary address', exact: true });
    await expect(primary).toHaveValue(/^0\.0\.0\.0:\d+$/);
    const primaryAddress = await primary.inputValue();
    await page.getByRole('combobox', { name: 'Extra addresses' }).click();
    const extraOption = page.getByRole('option').first();
    const extraAddress = (await extraOption.textContent())?.trim() ?? '';
    await extraOption.click();
    await page.keyboard.press('Escape');
    await expectAccessibleInBothSchemes(page);
    await shot(page, 'admin-server-new-node', ['light']);
    await page.getByRole('button', { name: 'Next' }).click();

    // 3. Nest → egg; the egg's image and startup command are filled in.
    await expect(page.getByRole('heading', { name: 'Egg and startup', level: 3, exact: true })).toBeVisible();
    await chooseOption(page, 'Nest', 'Mine', 'Minecraft');
    await chooseOption(page, 'Egg', 'Pap', 'Paper');
    await expect(page.getByRole('textbox', { name: 'Startup command' })).toHaveValue(/-jar \{\{SERVER_JARFILE\}\}/);
    await expect(page.getByRole('combobox', { name: 'Docker image', exact: true })).toHaveValue(/ghcr\.io\/pterodactyl\/yolks:java_/);
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('button', { name: 'Next' }).click();

    // 4. Variables: defaults filled in, checked by the egg's rules before going on.
    await expect(page.getByRole('heading', { name: 'Variables', level: 3, exact: true })).toBeVisible();
    const jar = page.getByRole('textbox', { name: 'Server Jar File' });
    await expect(jar).toHaveValue('server.jar');
    await jar.fill('bad name.jar');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('The SERVER_JARFILE field format is invalid.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Variables', level: 3, exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await jar.fill('paper.jar');
    await page.getByRole('button', { name: 'Next' }).click();

    // 5. Limits: more memory than the node has free is refused on the field.
    await expect(page.getByRole('heading', { name: 'Limits', level: 3, exact: true })).toBeVisible();
    await page.getByRole('textbox', { name: 'Memory' }).fill('99999999');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(/^More than the node has free/)).toBeVisible();
    await page.getByRole('textbox', { name: 'Memory' }).fill('1536');
    await page.getByRole('textbox', { name: 'Disk' }).fill('4096');
    await page.getByRole('textbox', { name: 'CPU', exact: true }).fill('150');
    await page.getByRole('textbox', { name: 'Backups' }).fill('2');
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('button', { name: 'Next' }).click();

    // 6. Review, then create.
    await expect(page.getByRole('heading', { name: 'Review', level: 3, exact: true })).toBeVisible();
    await expect(page.getByText('Memory 1.5 GiB, disk 4 GiB, CPU 150%')).toBeVisible();
    // Warned of what the server goes without (databases at 0), not of what it has (2 backups, an extra address).
    const warnings = page.getByRole('note').filter({ hasText: 'Check before creating' });
    await expect(warnings).toContainText('This server can make no databases (database limit 0).');
    await expect(warnings).not.toContainText(/backups|primary address/);
    await expectAccessibleInBothSchemes(page);
    await shot(page, 'admin-server-new');
    await shot(page, 'admin-server-new', ['mobile']);
    await page.getByRole('button', { name: 'Create server' }).click();

    // The server page follows the install through.
    await expect(page).toHaveURL(/\/admin\/servers\/\d+$/);
    const id = /\/admin\/servers\/(\d+)$/.exec(page.url())![1];
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expect(page.getByText('Installed', { exact: true })).toBeVisible({ timeout: 15_000 });
    const made = await api.admin('GET', `/api/admin/servers/${id}`);
    expect(made).toMatchObject({
      name,
      ownerId: panel.owner.id,
      nodeId: node.id,
      eggId: panel.eggId,
      installStatus: null,
      limits: { memory: 1536, disk: 4096, cpu: 150 },
      featureLimits: { backups: 2 },
      allocations: { primary: { ip: '0.0.0.0', port: Number(primaryAddress.split(':')[1]) }, additional: [{ port: Number(extraAddress.split(':')[1]) }] },
    });
    // The node has it, with these limits, and installed it.
    const onNode = node.sim.servers.get(String(made.uuid));
    expect(onNode?.config.build).toMatchObject({ memory_limit: 1536, disk_space: 4096, cpu_limit: 150 });
    expect(onNode?.config.environment).toMatchObject({ SERVER_JARFILE: 'paper.jar' });
    expect(existsSync(onNode!.fs.root)).toBe(true);
    const startup = await api.admin('GET', `/api/admin/servers/${id}/startup`);
    expect((startup.variables as { envVariable: string; serverValue: string }[]).find((v) => v.envVariable === 'SERVER_JARFILE')?.serverValue).toBe('paper.jar');
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, name, () => expectAccessible(page));
    await shot(page, 'admin-server');

    // The owner sees it.
    await ownerPage.goto(`/server/${String(made.identifier)}`);
    await expect(ownerPage.getByRole('heading', { name })).toBeVisible();

    // Build: more memory, checked through the API.
    await page.getByRole('tab', { name: 'Build' }).click();
    await expect(page).toHaveURL(/tab=build/);
    await expect(page.getByRole('listitem', { name: primaryAddress })).toContainText('Primary');
    await page.getByRole('textbox', { name: 'Memory' }).fill('2048');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved, and the node has it')).toBeVisible();
    await expect.poll(async () => ((await api.admin('GET', `/api/admin/servers/${id}`)).limits as { memory: number }).memory).toBe(2048);
    await expect.poll(() => node.sim.servers.get(String(made.uuid))?.config.build.memory_limit).toBe(2048);
    // The extra address becomes the primary.
    await page.getByRole('button', { name: `Make ${extraAddress} primary` }).click();
    await expect(page.getByRole('listitem', { name: extraAddress })).toContainText('Primary');
    await shot(page, 'admin-server-build', ['light']);
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, name, () => expectAccessible(page));

    // Startup: the variable users cannot see is here, and editable.
    await page.getByRole('tab', { name: 'Startup' }).click();
    const dlPath = page.getByRole('textbox', { name: 'Download Path' });
    await expect(page.getByText(/DL_PATH · .*hidden from users/)).toBeVisible();
    await dlPath.fill('https://example.com/paper.jar');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved, and the node has it')).toBeVisible();
    await expect
      .poll(async () => ((await api.admin('GET', `/api/admin/servers/${id}/startup`)).variables as { envVariable: string; serverValue: string }[]).find((v) => v.envVariable === 'DL_PATH')?.serverValue)
      .toBe('https://example.com/paper.jar');
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, name, () => expectAccessible(page));

    // Manage: suspend (the owner's page says so), unsuspend.
    await page.getByRole('tab', { name: 'Manage' }).click();
    await page.getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('dialog', { name: 'Suspend this server?' }).getByRole('button', { name: 'Suspend' }).click();
    await expect(page.getByText('Suspended', { exact: true })).toBeVisible();
    await expect.poll(() => node.sim.servers.get(String(made.uuid))?.config.suspended).toBe(true);
    await shot(page, 'admin-server-manage', ['light']);
    await ownerPage.reload();
    await expect(ownerPage.getByText('This server is suspended: it cannot be started until an administrator lifts the suspension.')).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, name, () => expectAccessible(page));
    await page.getByRole('button', { name: 'Unsuspend' }).click();
    await expect(page.getByText('Installed', { exact: true })).toBeVisible();
    expect((await api.admin('GET', `/api/admin/servers/${id}`)).suspended).toBe(false);

    // Reinstall, with the name typed.
    await page.getByRole('button', { name: 'Reinstall' }).click();
    const reinstall = page.getByRole('dialog', { name: 'Reinstall this server?' });
    await expect(reinstall.getByRole('button', { name: 'Reinstall' })).toBeDisabled();
    await reinstall.getByRole('textbox', { name: `Type ${name} to confirm` }).fill(name);
    await reinstall.getByRole('button', { name: 'Reinstall' }).click();
    await expect(page.getByText('Reinstalling: the server shows “Installing” until the node is done')).toBeVisible();
    await expect(page.getByText('Installed', { exact: true })).toBeVisible({ timeout: 15_000 });

    // Delete, with the name typed: back on the list, and gone from the API.
    await page.getByRole('button', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete this server?' });
    await remove.getByRole('textbox', { name: `Type ${name} to confirm` }).fill(name);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/admin\/servers$/);
    await expect(page.getByText(`${name} was deleted`)).toBeVisible();
    await api.raw.request('GET', `/api/admin/servers/${id}`, { session: api.adminSession, expect: 404 });
    await expect.poll(() => node.sim.servers.has(String(made.uuid))).toBe(false);
  });

  test("changing the egg on the Startup tab: the new egg's variables with its defaults, checked by its rules, and the server not reinstalled", async ({ adminPage: page, api, panel, createServer, installed }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    const paper = await api.admin('GET', `/api/admin/eggs/${panel.eggId}`);
    const document = JSON.parse(readFileSync(resolve(EGGS, 'egg-vanilla-minecraft.json'), 'utf8')) as { name: string };
    document.name = `Vanilla ${randomBytes(3).toString('hex')}`;
    const vanilla = await api.admin('POST', `/api/admin/eggs/import?nestId=${String(paper.nestId)}`, document);
    const server = await createServer({ name: `Egg change ${randomBytes(2).toString('hex')}` });
    await installed(server);

    await page.goto(`/admin/servers/${server.id}?tab=startup`);
    await expect(page.getByRole('heading', { name: 'Egg', level: 3, exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Change egg' }).click();
    const dialog = page.getByRole('dialog', { name: "Change the server's egg" });
    await dialog.getByRole('combobox', { name: 'Egg', exact: true }).click();
    await page.getByRole('option', { name: document.name }).click();
    const version = dialog.getByRole('textbox', { name: /Server Version/ });
    await expect(version).toHaveValue('latest');
    await version.fill('x');
    await dialog.getByRole('button', { name: 'Change egg' }).click();
    await expect(dialog.getByText(/must be between 3 and 15 characters/)).toBeVisible();
    await version.fill('1.20.4');
    await expect(dialog.getByText(/must be between 3 and 15 characters/)).toHaveCount(0);
    await shot(page, 'admin-server-change-egg', ['light']);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Change egg' }).click();
    await expect(page.getByText('Saved, and the node has it')).toBeVisible();
    await expect(page.getByRole('textbox', { name: /Server Version/ })).toHaveValue('1.20.4');
    const after = await api.admin('GET', `/api/admin/servers/${server.id}`);
    expect([after.eggId, after.installStatus]).toEqual([vanilla.id, null]);
  });

  test('a server on a node that cannot be reached: the normal delete is refused and explained, force delete removes it', async ({ adminPage: page, createServer, installed, newNode, api }) => {
    const node = await newNode();
    const server = await createServer({ node_id: node.id, name: `Stranded ${randomBytes(2).toString('hex')}` });
    await installed(server);
    await node.sim.stop();

    await page.goto(`/admin/servers/${server.id}?tab=manage`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete this server?' });
    await remove.getByRole('textbox', { name: `Type ${server.name} to confirm` }).fill(server.name);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await expect(remove.getByText('The node cannot be reached')).toBeVisible();
    await expect(remove.getByText(/its files and container stay on the node/)).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await api.raw.request('GET', `/api/admin/servers/${server.id}`, { session: api.adminSession, expect: 200 });
    await remove.getByRole('button', { name: 'Force delete' }).click();
    await expect(page).toHaveURL(/\/admin\/servers$/);
    await expect(page.getByText(`${server.name} was removed from the panel; its files stay on the node`)).toBeVisible();
    await api.raw.request('GET', `/api/admin/servers/${server.id}`, { session: api.adminSession, expect: 404 });
  });

  test('the list searches and pages through the URL, and links to both server pages', async ({ adminPage: page, createServer, newUser, newNode, api }) => {
    test.setTimeout(90_000);
    const tag = randomBytes(3).toString('hex');
    // A node and an owner of this test's own, so these servers take no other spec's addresses and crowd
    // no other dashboard; they are deleted at the end.
    const owner = await newUser();
    const node = await newNode();
    const nodeName = String((await api.admin('GET', `/api/admin/nodes/${node.id}`)).name);
    await api.admin('POST', `/api/admin/nodes/${node.id}/allocations`, { ip: '0.0.0.0', ports: ['27200-27240'] });
    const made: string[] = [];
    const make = async (name: string) => {
      const server = await createServer({ name, node_id: node.id, owner_id: owner.id, memory: 0, disk: 0 });
      made.push(server.id);
      return server;
    };
    try {
      await listTest(page, tag, owner.username, nodeName, make);
    } finally {
      for (const id of made) {
        await api.admin('DELETE', `/api/admin/servers/${id}?force=true`);
      }
    }
  });

  test('the wizard at 390 px: every step fits the phone without sideways scrolling', async ({ adminPage: page, panel, newNode, api }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    const node = await newNode();
    const nodeName = String((await api.admin('GET', `/api/admin/nodes/${node.id}`)).name);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/servers/new');
    // The shell at phone width (navigation in a drawer) gets the full axe scan once. On each step, the
    // rules a narrow layout can break (colours behind the text, room around the targets): the walk
    // above scans every step in full at desktop width. Six full scans here took about half of this
    // test's time alone, and under CI's load it ran past its minute twice.
    await expectAccessible(page);
    await walkToReview(page, nodeName, `Phone ${randomBytes(2).toString('hex')}`, async () => {
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, { only: 'layout' });
    });
    await expectNoHorizontalScroll(page);
  });

  test('a refusal of the panel lands on its step and field: an address taken while the wizard was open', async ({ adminPage: page, panel, newNode, api, createServer, newUser }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    const node = await newNode();
    const nodeName = String((await api.admin('GET', `/api/admin/nodes/${node.id}`)).name);
    await page.goto('/admin/servers/new');
    const { primaryAddress } = await walkToReview(page, nodeName, `Late ${randomBytes(2).toString('hex')}`);
    // Someone else takes that address first.
    const allocations = await api.raw.request<{ id: string; ip: string; port: number }[]>('GET', `/api/admin/nodes/${node.id}/allocations?perPage=100`, { session: api.adminSession });
    const taken = allocations.find((a) => `${a.ip}:${a.port}` === primaryAddress)!;
    const first = await createServer({ node_id: node.id, allocation_id: taken.id, owner_id: (await newUser()).id });
    await page.getByRole('button', { name: 'Create server' }).click();
    await expect(page.getByRole('heading', { name: 'Node and address', level: 3, exact: true })).toBeVisible();
    const primary = page.getByRole('combobox', { name: 'Primary address', exact: true });
    await expect(primary).toHaveAccessibleDescription(/That address is no longer free on this node/);
    await expectAccessibleInBothSchemes(page);
    await api.admin('DELETE', `/api/admin/servers/${first.id}`);
  });
});

/**
 * Fills the wizard with good values on the given node up to the review; `each` runs on every step once it
 * is filled. Returns the primary address it kept.
 */
const walkToReview = async (page: Page, nodeName: string, name: string, each: () => Promise<void> = () => Promise.resolve()): Promise<{ primaryAddress: string }> => {
  const step = async (heading: string) => {
    await expect(page.getByRole('heading', { name: heading, level: 3, exact: true })).toBeVisible();
  };
  await step('Name and owner');
  await page.getByRole('textbox', { name: 'Server name' }).fill(name);
  await chooseOption(page, 'Owner', 'owner@', /^owner · owner@hatchery\.test/);
  await each();
  await page.getByRole('button', { name: 'Next' }).click();
  await step('Node and address');
  await page.getByRole('radio', { name: new RegExp(`^${nodeName} `) }).check();
  const primary = page.getByRole('combobox', { name: 'Primary address', exact: true });
  await expect(primary).toHaveValue(/^0\.0\.0\.0:\d+$/);
  const primaryAddress = await primary.inputValue();
  await each();
  await page.getByRole('button', { name: 'Next' }).click();
  await step('Egg and startup');
  await chooseOption(page, 'Nest', 'Mine', 'Minecraft');
  await chooseOption(page, 'Egg', 'Pap', 'Paper');
  await expect(page.getByRole('textbox', { name: 'Startup command' })).toHaveValue(/SERVER_JARFILE/);
  await each();
  await page.getByRole('button', { name: 'Next' }).click();
  await step('Variables');
  await page.getByRole('textbox', { name: 'Server Jar File' }).fill('paper.jar');
  await each();
  await page.getByRole('button', { name: 'Next' }).click();
  await step('Limits');
  await each();
  await page.getByRole('button', { name: 'Next' }).click();
  await step('Review');
  await each();
  return { primaryAddress };
};

/** The list's part of the list test: servers made with `make`, then search, links, pages and the empty search. */
const listTest = async (page: Page, tag: string, ownerName: string, nodeName: string, make: (name: string) => Promise<{ id: string; uuid: string }>) => {
  const first = await make(`Listed ${tag} A`);
  await make(`Listed ${tag} B`);
  // Enough servers for a second page of 25.
  const listed = (await (await page.request.get('/api/admin/servers?perPage=1')).json()) as { meta: { pagination: { total: number } } };
  for (let i = listed.meta.pagination.total; i <= 26; i++) {
    await make(`Filler ${tag} ${i}`);
  }

  await page.goto('/admin/servers');
  await page.getByRole('searchbox', { name: 'Search servers' }).fill(`listed ${tag}`);
  await expect(page).toHaveURL(new RegExp(`q=listed(\\+|%20)${tag}`));
  await expect(page.getByText(`2 servers match “listed ${tag}”`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(`Listed ${tag} A`) });
  await expect(row).toContainText(ownerName);
  await expect(row).toContainText(nodeName);
  await expect(row.getByText('Installed')).toBeVisible();
  await expectAccessibleInBothSchemes(page);
  await expectFitsPhone(page, 'Servers', () => expectAccessible(page));
  await shot(page, 'admin-servers');
  await shot(page, 'admin-servers', ['mobile']);
  await row.getByRole('link', { name: `Open the server page of Listed ${tag} A` }).click();
  await expect(page).toHaveURL(new RegExp(`/server/${first.uuid.slice(0, 8)}`));
  await page.goBack();
  await expect(page.getByRole('searchbox', { name: 'Search servers' })).toHaveValue(`listed ${tag}`);
  await page.getByRole('link', { name: `Listed ${tag} A`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/servers/${first.id}$`));

  // Pages: the second is in the URL and survives a reload.
  await page.goto('/admin/servers');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');

  // A search that matches nothing says so and offers to clear it.
  await page.goto(`/admin/servers?q=nothing-${tag}`);
  await expect(page.getByRole('heading', { name: `No server matches “nothing-${tag}”` })).toBeVisible();
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(page).not.toHaveURL(/q=/);
};
