import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { chooseOption, expect, expectAccessibleInBothSchemes, expectFitsPhone, openDialog, shot, test } from 'e2e/fixtures';

// The administration of nests and eggs (/admin/nests, /admin/nests/$nestId, /admin/eggs/$eggId/...)
// against the built panel, with Pterodactyl's own egg files. Every test makes its own nest.

const EGGS = process.env.HATCHERY_EGG_FIXTURES ?? resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'eggs', 'pterodactyl');
const eggFile = (name: string) => join(EGGS, `egg-${name}.json`);
const eggJson = (name: string) => JSON.parse(readFileSync(eggFile(name), 'utf8')) as Record<string, unknown> & { variables: Record<string, unknown>[] };

/** Drops a file with this text on the drop zone, as a drag from the desktop does. */
const dropFile = async (page: Page, name: string, text: string) => {
  const transfer = await page.evaluateHandle(
    ([fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content], fileName, { type: 'application/json' }));
      return data;
    },
    [name, text] as const,
  );
  await page.getByTestId('egg-drop').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.getByTestId('egg-drop').dispatchEvent('drop', { dataTransfer: transfer });
};

test.describe('admin nests and eggs', () => {
  test('creates a nest and imports eggs into it by drop, by the file picker and from a URL; errors in plain words; a nest with eggs is not deleted', async ({ adminPage: page, api }) => {
    test.setTimeout(90_000);
    // An egg host on loopback (the browser tests' panel runs with OUTBOUND_ALLOW_PRIVATE).
    const served: Record<string, { type: string; body: string }> = {
      '/vanilla.json': { type: 'application/json', body: readFileSync(eggFile('vanilla-minecraft'), 'utf8') },
      '/page.html': { type: 'text/html', body: '<!doctype html><title>An egg page</title>' },
      '/v9.json': { type: 'application/json', body: JSON.stringify({ meta: { version: 'PTDL_v9' }, name: 'Future' }) },
    };
    const host = createHttpServer((req, res) => {
      const file = served[req.url ?? ''];
      res.writeHead(file ? 200 : 404, { 'Content-Type': file?.type ?? 'text/plain' }).end(file?.body ?? 'not found');
    });
    await new Promise<void>((done) => host.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      const nestName = `Minecraft ${randomBytes(3).toString('hex')}`;
      await page.goto('/admin/nests');
      await expect(page.getByRole('tab', { name: 'Nests and eggs', selected: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Nests', exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Create nest' }).click();
      const create = await openDialog(page, 'Create a nest');
      await create.getByLabel('Name').fill(nestName);
      await create.getByLabel('Description').fill('Minecraft: Java Edition servers');
      await create.getByRole('button', { name: 'Create nest' }).click();
      await expect(create).toBeHidden();
      const row = page.getByRole('listitem', { name: nestName });
      await expect(row).toContainText('0 eggs');
      await row.getByRole('link', { name: nestName }).click();

      await expect(page.getByRole('heading', { name: nestName })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No eggs in this nest' })).toBeVisible();
      const nestId = page.url().split('/').at(-1)!;
      await expectAccessibleInBothSchemes(page);

      // A drop of something that is not JSON is read in the browser and refused there.
      await page.getByRole('button', { name: 'Import egg' }).first().click();
      let dialog = await openDialog(page, 'Import an egg');
      await expectAccessibleInBothSchemes(page);
      await dropFile(page, 'notes.json', '{"name": "Paper",');
      await expect(dialog.getByRole('alert')).toHaveText('notes.json is not a JSON file: the egg cannot be read from it.');
      // Paper (PTDL_v2) by drag and drop.
      await dropFile(page, 'egg-paper.json', readFileSync(eggFile('paper'), 'utf8'));
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Egg Paper imported')).toBeVisible();
      await expect(page.getByRole('listitem', { name: 'Paper' })).toBeVisible();

      // Garry's Mod (PTDL_v1) through the file picker.
      await page.getByRole('button', { name: 'Import egg' }).click();
      dialog = await openDialog(page, 'Import an egg');
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByRole('button', { name: 'Choose a file' }).click();
      await (await chooser).setFiles(eggFile('garrys-mod'));
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('listitem', { name: 'Garrys Mod' })).toBeVisible();

      // From a URL: a page that is not JSON, a document of an unknown version, then the real egg.
      await page.getByRole('button', { name: 'Import egg' }).click();
      dialog = await openDialog(page, 'Import an egg');
      await dialog.getByRole('tab', { name: 'From a URL' }).click();
      const url = dialog.getByLabel('Address of the egg file');
      await url.fill(`${base}/page.html`);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(dialog.getByRole('alert')).toContainText('The address did not answer with a JSON document.');
      await url.fill(`${base}/v9.json`);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(dialog.getByRole('alert')).toContainText('only Pterodactyl egg files (PTDL_v1 or PTDL_v2');
      await expectAccessibleInBothSchemes(page);
      await url.fill(`${base}/vanilla.json`);
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('listitem', { name: 'Vanilla Minecraft' })).toBeVisible();

      // What the panel holds: the three eggs in this nest, with the variables of their files.
      const eggs = await api.raw.request<{ id: string; name: string }[]>('GET', `/api/admin/eggs?nestId=${nestId}`, { session: api.adminSession });
      expect(eggs.map((e) => e.name).sort()).toEqual(['Garrys Mod', 'Paper', 'Vanilla Minecraft']);
      const paper = await api.admin('GET', `/api/admin/eggs/${eggs.find((e) => e.name === 'Paper')!.id}`);
      expect((paper.variables as { envVariable: string }[]).map((v) => v.envVariable)).toEqual(eggJson('paper').variables.map((v) => v.env_variable));
      await expectAccessibleInBothSchemes(page);
      await expectFitsPhone(page, nestName);

      // The nest list counts them; deleting the nest is refused with the reason, and nothing is deleted.
      await page.getByRole('link', { name: 'Nests', exact: true }).click();
      await expect(row).toContainText('3 eggs');
      await row.getByRole('button', { name: `Actions for ${nestName}` }).click();
      await page.getByRole('menuitem', { name: 'Delete nest' }).click();
      const refused = await openDialog(page, 'Delete the nest?');
      await expect(refused.getByRole('alert')).toHaveText(`${nestName} still holds 3 eggs. A nest can only be deleted once it is empty: delete its eggs first.`);
      await refused.getByRole('button', { name: 'Close' }).first().click();
      await expect(refused).toBeHidden();
      expect((await api.admin('GET', `/api/admin/nests/${nestId}`)).name).toBe(nestName);

      await expectAccessibleInBothSchemes(page);
      await expectFitsPhone(page, 'Nests');
      await shot(page, 'admin-nests');
      await shot(page, 'admin-nests', ['mobile']);
    } finally {
      await new Promise((done) => host.close(done));
    }
  });

  test('edits and deletes an empty nest', async ({ adminPage: page, api }) => {
    const nest = await api.admin('POST', '/api/admin/nests', { name: `Empty ${randomBytes(3).toString('hex')}` });
    await page.goto(`/admin/nests/${String(nest.id)}`);
    await page.getByRole('button', { name: 'Edit nest' }).click();
    const edit = await openDialog(page, 'Edit the nest');
    await edit.getByLabel('Description').fill('Nothing here yet');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByText('Nothing here yet')).toBeVisible();
    expect((await api.admin('GET', `/api/admin/nests/${String(nest.id)}`)).description).toBe('Nothing here yet');
    await page.getByRole('button', { name: 'Delete nest' }).click();
    const confirm = await openDialog(page, 'Delete the nest?');
    await confirm.getByRole('button', { name: 'Delete nest' }).click();
    await expect(page).toHaveURL(/\/admin\/nests$/);
    await expect(page.getByRole('listitem', { name: String(nest.name) })).toHaveCount(0);
    await api.raw.request('GET', `/api/admin/nests/${String(nest.id)}`, { session: api.adminSession, expect: 404 });
  });

  test('exports an egg as its PTDL file, edits its startup and config, and refuses bad JSON before saving', async ({ adminPage: page, api }) => {
    const nest = await api.admin('POST', '/api/admin/nests', { name: `Export ${randomBytes(3).toString('hex')}` });
    const fixture = eggJson('paper');
    const egg = await api.admin('POST', '/api/admin/eggs/import', { nestId: nest.id, egg: fixture });
    await page.goto(`/admin/eggs/${String(egg.id)}`);
    await expect(page.getByRole('heading', { name: 'Paper' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Configuration', selected: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Nests and eggs', selected: true })).toBeVisible();

    // Export: the downloaded file is the PTDL_v2 document of the egg.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/paper.*\.json$/);
    const exported = JSON.parse(readFileSync((await file.path()), 'utf8')) as typeof fixture;
    expect((exported.meta as { version: string }).version).toBe('PTDL_v2');
    for (const key of ['name', 'author', 'description', 'features', 'docker_images', 'file_denylist', 'startup']) {
      expect(exported[key], key).toEqual(fixture[key]);
    }
    expect((exported.config as { stop: string }).stop).toBe((fixture.config as { stop: string }).stop);
    const strip = (vs: Record<string, unknown>[]) => vs.map(({ name, env_variable, default_value, rules }) => ({ name, env_variable, default_value, rules }));
    expect(strip(exported.variables)).toEqual(strip(fixture.variables));

    // Startup detection that is not JSON is refused inline and Save sends nothing.
    const startupEditor = page.getByRole('textbox', { name: 'Startup detection' });
    await startupEditor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('x');
    await expect(page.getByText('This is not valid JSON.')).toBeVisible();
    await expect(startupEditor).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.press('Backspace');
    await expect(page.getByText('This is not valid JSON.')).toHaveCount(0);

    const startup = 'java -Xms256M -XX:MaxRAMPercentage=90.0 -jar {{SERVER_JARFILE}} nogui';
    await page.getByLabel('Startup command').fill(startup);
    await page.getByLabel('Stop command').fill('end');
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
    const saved = await api.admin('GET', `/api/admin/eggs/${String(egg.id)}`);
    expect(saved).toMatchObject({ startup, configStop: 'end', dockerImage: 'ghcr.io/pterodactyl/yolks:java_21' });
    expect(saved.configStartup).toEqual({ done: ')! For help, type ' });
    await expect(page.getByLabel('Startup command')).toHaveValue(startup);

    // The install script tab shows the script in its editor.
    await page.getByRole('tab', { name: 'Install script' }).click();
    await expect(page.getByLabel('Install container')).toHaveValue('ghcr.io/pterodactyl/installers:alpine');
    await expect(page.getByRole('textbox', { name: 'Install script' })).toContainText('PROJECT=paper');
    await expectAccessibleInBothSchemes(page);
    await page.getByRole('tab', { name: 'Configuration' }).click();

    await expectFitsPhone(page, 'Paper');
    await shot(page, 'admin-egg');
    await shot(page, 'admin-egg', ['mobile']);
  });

  test('adds a variable whose bad rules are refused inline, fixes them, deletes a variable and then the unused egg', async ({ adminPage: page, api }) => {
    const nest = await api.admin('POST', '/api/admin/nests', { name: `Variables ${randomBytes(3).toString('hex')}` });
    const egg = await api.admin('POST', '/api/admin/eggs/import', { nestId: nest.id, egg: eggJson('paper') });
    const eggId = String(egg.id);
    const variables = async () => (await api.admin('GET', `/api/admin/eggs/${eggId}`)).variables as { name: string; envVariable: string; rules: string; defaultValue: string; userEditable: boolean }[];
    await page.goto(`/admin/eggs/${eggId}/variables`);
    await expect(page.getByRole('listitem', { name: 'Server Jar File' })).toContainText('SERVER_JARFILE');

    await page.getByRole('button', { name: 'Add variable' }).click();
    const dialog = await openDialog(page, 'Add a variable');
    await dialog.getByLabel('Name').fill('Max players');
    await dialog.getByLabel('Environment variable').fill('MAX_PLAYERS');
    const rules = dialog.getByLabel('Rules');
    await rules.fill('required|integr|between:1,100');
    await expect(dialog.getByText('unknown rule "integr"')).toBeVisible();
    await expect(rules).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByRole('button', { name: 'Add variable' })).toBeDisabled();
    await rules.fill('required|integer|between:1');
    await expect(dialog.getByText('between needs 2 numeric arguments')).toBeVisible();
    await rules.fill('required|integer|between:1,100');
    await expect(rules).not.toHaveAttribute('aria-invalid', 'true');
    // The default is checked against the rules as the panel would check a server's value.
    await dialog.getByLabel('Default value').fill('200');
    await expect(dialog.getByText('The MAX PLAYERS field must be between 1 and 100.').or(dialog.getByText('The MAX_PLAYERS field must be between 1 and 100.'))).toBeVisible();
    await dialog.getByLabel('Default value').fill('20');
    await expect(dialog.getByText('Servers keeping this default would be refused by the rules:')).toHaveCount(0);
    await dialog.getByLabel('Users can change it').check();
    await expectAccessibleInBothSchemes(page);
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Max players' })).toContainText('required|integer|between:1,100');
    expect((await variables()).find((v) => v.envVariable === 'MAX_PLAYERS')).toMatchObject({ name: 'Max players', rules: 'required|integer|between:1,100', defaultValue: '20', userEditable: true });

    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, 'Paper');
    await shot(page, 'admin-egg-variables');
    await shot(page, 'admin-egg-variables', ['mobile']);

    // Delete a variable of the file.
    await page.getByRole('button', { name: 'Actions for Download Path' }).click();
    await page.getByRole('menuitem', { name: 'Delete variable' }).click();
    const confirm = await openDialog(page, 'Delete the variable?');
    await confirm.getByRole('button', { name: 'Delete variable' }).click();
    await expect(page.getByRole('listitem', { name: 'Download Path' })).toHaveCount(0);
    expect((await variables()).map((v) => v.envVariable)).toEqual(['MINECRAFT_VERSION', 'SERVER_JARFILE', 'BUILD_NUMBER', 'MAX_PLAYERS']);

    // The egg has no servers: it is deleted, and the page goes back to its nest.
    await page.getByRole('button', { name: 'Delete egg' }).click();
    const del = await openDialog(page, 'Delete the egg?');
    await del.getByRole('button', { name: 'Delete egg' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/nests/${String(nest.id)}$`));
    await expect(page.getByRole('heading', { name: 'No eggs in this nest' })).toBeVisible();
    await api.raw.request('GET', `/api/admin/eggs/${eggId}`, { session: api.adminSession, expect: 404 });
  });

  test('an egg that servers use is not deleted, and says why', async ({ adminPage: page, panel, createServer, api }) => {
    await createServer();
    await page.goto(`/admin/eggs/${panel.eggId!}`);
    await page.getByRole('button', { name: 'Delete egg' }).click();
    const dialog = await openDialog(page, 'Delete the egg?');
    await dialog.getByRole('button', { name: 'Delete egg' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Servers still use this egg, so it cannot be deleted.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api.admin('GET', `/api/admin/eggs/${panel.eggId!}`)).id).toBe(panel.eggId);
  });

  test('the egg gallery shows each egg by name and description, imports one into a chosen nest, and an edited egg shows its update as a diff', async ({ adminPage: page, api, panel }) => {
    test.skip(!panel.eggId, 'the egg fixtures are missing (set HATCHERY_EGG_FIXTURES)');
    // global-setup.ts serves the gallery's eggs (Vanilla Minecraft, Rust, Mumble Server) from the fixtures on loopback.
    const nestName = `Voice ${randomBytes(3).toString('hex')}`;
    await api.admin('POST', '/api/admin/nests', { name: nestName });
    await page.goto('/admin/nests');
    await page.getByRole('link', { name: 'Egg gallery' }).click();
    await expect(page.getByRole('heading', { name: 'Egg gallery', exact: true })).toBeVisible();
    const mumble = page.getByRole('listitem', { name: 'Mumble Server' });
    await expect(mumble).toContainText('Mumble is an open source, low-latency');
    await expect(page.getByRole('listitem', { name: 'Rust' })).toContainText('The only aim in Rust is to survive');
    await expect(page.getByRole('listitem', { name: 'Vanilla Minecraft' })).toContainText('Minecraft is a game about placing blocks');

    await chooseOption(page, 'Import into nest', nestName, nestName);
    await mumble.getByRole('button', { name: 'Import Mumble Server' }).click();
    const installed = mumble.getByRole('link', { name: `Installed in ${nestName}` });
    await expect(installed).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'admin-egg-gallery', ['light', 'dark', 'mobile']);

    // A local change that the document at the egg's update URL (the gallery address) undoes.
    await installed.click();
    await expect(page.getByRole('heading', { name: 'Mumble Server' })).toBeVisible();
    const eggId = /\/admin\/eggs\/([^/?]+)/.exec(page.url())![1];
    const stock = (await api.admin('GET', `/api/admin/eggs/${eggId}`)).startup as string;
    await api.admin('PATCH', `/api/admin/eggs/${eggId}`, { startup: 'mumble-server -fg -ini custom.ini' });
    await page.reload();
    await page.getByRole('button', { name: 'Update from URL' }).click();
    const dialog = await openDialog(page, 'Update Mumble Server');
    const startup = dialog.getByRole('listitem', { name: 'startup' });
    await expect(startup).toContainText('mumble-server -fg -ini custom.ini');
    await expect(startup).toContainText(stock);
    await shot(page, 'admin-egg-update', ['light', 'dark', 'mobile']);
    await dialog.getByRole('button', { name: 'Apply update' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Mumble Server updated')).toBeVisible();
    expect((await api.admin('GET', `/api/admin/eggs/${eggId}`)).startup).toBe(stock);
  });
});
