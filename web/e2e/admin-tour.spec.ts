import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { chooseOption, expect, test } from 'e2e/fixtures';
import { freePort } from 'e2e/panel-process';

// An administrator's first hour, end to end in the browser: a node made on its page, its config.yml
// downloaded and given to Wings (the simulator), an egg imported from a file into a new nest, and a server
// made by the wizard on that node with that egg, which the node then installs. Each step's details are
// the subject of admin-infra, admin-eggs and admin-servers.spec.ts; this test is the chain.

const EGGS = process.env.HATCHERY_EGG_FIXTURES ?? resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');

test('an admin creates a node, downloads its config.yml for Wings, imports an egg and creates a server the node installs', async ({ adminPage: page, api, panel, ownSims }) => {
  const paper = join(EGGS, 'egg-paper.json');
  test.skip(!existsSync(paper), `the egg fixtures are missing at ${EGGS} (set HATCHERY_EGG_FIXTURES)`);
  test.setTimeout(120_000);
  const s = randomBytes(3).toString('hex');
  const port = await freePort();

  // The node, on the panel's first location.
  await page.goto('/admin/nodes');
  await page.getByRole('button', { name: 'New node' }).click();
  const form = page.getByRole('dialog', { name: 'New node' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(`Tour ${s}`);
  await form.getByRole('combobox', { name: 'Location' }).click();
  await page.getByRole('option').first().click();
  await form.getByLabel('Address (FQDN or IP)').fill('127.0.0.1');
  await form.getByText('HTTP', { exact: true }).click();
  await form.getByLabel('Daemon port').fill(String(port));
  await form.getByLabel('Memory (MiB)').fill('8192');
  await form.getByLabel('Disk (MiB)').fill('50000');
  await form.getByRole('button', { name: 'New node' }).click();
  await expect(page).toHaveURL(/\/admin\/nodes\/\d+\?tab=configuration/);
  const nodeId = /\/admin\/nodes\/(\d+)/.exec(page.url())![1];

  // Its config.yml, downloaded as a host would before starting Wings with it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download config.yml' }).click()]);
  const config = parseYaml(await readFile(await download.path(), 'utf8')) as { uuid: string; token_id: string; token: string; remote: string; api: { port: number } };
  expect(config).toMatchObject({ remote: panel.baseURL, api: { port } });
  const sim = new WingsSimulator({ panelUrl: config.remote, tokenId: config.token_id, token: config.token, port: config.api.port, allowedOrigins: [panel.baseURL], remoteTimeoutMs: 5000 });
  await sim.start();
  ownSims.push(sim);

  // Ports for its servers.
  await page.getByRole('tab', { name: 'Allocations' }).click();
  await page.getByLabel('Ports').fill('28100-28104');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('5 allocations')).toBeVisible();
  await page.goto('/admin/nodes');
  await expect(page.getByTestId(`health-${nodeId}`)).toHaveText('Healthy');

  // A nest, and the Paper egg imported into it from its file.
  const nest = `Tour nest ${s}`;
  await page.goto('/admin/nests');
  await page.getByRole('button', { name: 'Create nest' }).click();
  const create = page.getByRole('dialog', { name: 'Create a nest' });
  await create.getByLabel('Name').fill(nest);
  await create.getByRole('button', { name: 'Create nest' }).click();
  await page.getByRole('listitem', { name: nest }).getByRole('link', { name: nest }).click();
  await page.getByRole('button', { name: 'Import egg' }).first().click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('dialog', { name: 'Import an egg' }).getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles(paper);
  await expect(page.getByText('Egg Paper imported')).toBeVisible();
  const nestId = /\/admin\/nests\/([^/?]+)/.exec(page.url())![1];
  const eggs = (await api.admin('GET', `/api/admin/eggs?nestId=${nestId}`)) as unknown as { id: string; name: string }[];
  const egg = eggs.find((e) => e.name === 'Paper')!;
  expect(egg).toBeDefined();

  // The wizard: owner, that node, that nest's egg, the egg's defaults, limits; then the node installs it.
  const name = `Tour server ${s}`;
  await page.goto('/admin/servers/new');
  await page.getByRole('textbox', { name: 'Server name' }).fill(name);
  await chooseOption(page, 'Owner', 'owner@', /^owner · owner@hatchery\.test/);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: new RegExp(`^Tour ${s} \\(127\\.0\\.0\\.1\\)`) }).check();
  await expect(page.getByRole('combobox', { name: 'Primary address', exact: true })).toHaveValue(/^0\.0\.0\.0:2810\d$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseOption(page, 'Nest', 'Tour nest', nest);
  await chooseOption(page, 'Egg', 'Pap', 'Paper');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('textbox', { name: 'Server Jar File' })).toHaveValue('server.jar');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Memory' }).fill('1024');
  await page.getByRole('textbox', { name: 'Disk' }).fill('2048');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Create server' }).click();
  await expect(page).toHaveURL(/\/admin\/servers\/\d+$/);
  await expect(page.getByText('Installed', { exact: true })).toBeVisible({ timeout: 20_000 });

  const id = /\/admin\/servers\/(\d+)$/.exec(page.url())![1];
  const made = await api.admin('GET', `/api/admin/servers/${id}`);
  expect(made).toMatchObject({ name, nodeId, eggId: egg.id, ownerId: panel.owner.id, installStatus: null });
  // It reached the node the downloaded configuration set up: Wings holds it and made its volume.
  const onNode = sim.servers.get(String(made.uuid));
  expect(onNode?.config.build).toMatchObject({ memory_limit: 1024, disk_space: 2048 });
  expect(existsSync(onNode!.fs.root)).toBe(true);
});
