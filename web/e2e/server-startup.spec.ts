import { expect, expectAccessible, expectAccessibleInBothSchemes, expectFitsPhone, shot, test } from 'e2e/fixtures';

// The server's Startup (/server/$id/startup) and Settings (/server/$id/settings) pages in real Chromium
// against the built panel and the Wings simulator. Each test makes its own server.

test.describe('startup', () => {
  test('a value its rule refuses shows the rule message and cannot be saved; a good one is saved into the command; a read-only variable cannot be edited', async ({
    ownerPage: page,
    api,
    panel,
    createServer,
    installed,
  }) => {
    test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
    // A copy of the seeded Paper egg whose build number users may see but not change (Paper has no such variable).
    const res = await page.request.get(`/api/admin/eggs/${panel.eggId}/export`, { headers: { cookie: panel.admin.cookie } });
    expect(res.status()).toBe(200);
    const document = (await res.json()) as { name: string; variables: { env_variable: string; user_editable: boolean }[] };
    document.name = `Paper read-only build ${Date.now()}`;
    document.variables.find((v) => v.env_variable === 'BUILD_NUMBER')!.user_editable = false;
    const paper = await api.admin('GET', `/api/admin/eggs/${panel.eggId}`);
    const egg = await api.admin('POST', `/api/admin/eggs/import?nestId=${String(paper.nestId)}`, document);
    const server = await createServer({ egg_id: egg.id });
    await installed(server);
    const id = server.uuid.slice(0, 8);

    await page.goto(`/server/${id}`);
    await page.getByRole('tablist', { name: 'Server pages' }).getByRole('tab', { name: 'Startup' }).click();
    await expect(page).toHaveURL(new RegExp(`/server/${id}/startup$`));
    await expect(page.getByRole('heading', { name: 'Startup', exact: true })).toBeVisible();
    const preview = page.getByTestId('startup-preview');
    await expect(preview).toHaveText('java -Xms128M -XX:MaxRAMPercentage=95.0 -Dterminal.jline=false -Dterminal.ansi=true -jar paper.jar');
    const image = page.getByRole('combobox', { name: 'Docker image', exact: true });
    await expect(image).toHaveValue('Java 21 (ghcr.io/pterodactyl/yolks:java_21)');

    // The jar file's rule (required|regex:/^([\w\d._-]+)(\.jar)$/), said in words and checked as typed.
    const jar = page.locator('section[data-variable="SERVER_JARFILE"]');
    await expect(jar.getByRole('list', { name: 'Rules' })).toContainText('Required');
    await expect(jar.getByRole('list', { name: 'Rules' })).toContainText('Matches the pattern /^([\\w\\d._-]+)(\\.jar)$/');
    const jarInput = jar.getByRole('textbox', { name: /SERVER_JARFILE/ });
    await jarInput.fill('my server.zip');
    await expect(jar.getByText('The SERVER_JARFILE field format is invalid.')).toBeVisible();
    await expect(jarInput).toHaveAttribute('aria-invalid', 'true');
    await expect(jar.getByRole('button', { name: 'Save' })).toBeDisabled();
    // The preview follows the typing, even a value that cannot be saved yet.
    await expect(preview).toContainText('-jar my server.zip');
    await jarInput.fill('');
    await expect(jar.getByText('The SERVER_JARFILE field is required.')).toBeVisible();
    await expect(jar.getByRole('button', { name: 'Save' })).toBeDisabled();

    // The version's rule (nullable|string|max:20): characters.
    const version = page.locator('section[data-variable="MINECRAFT_VERSION"]');
    await expect(version.getByRole('list', { name: 'Rules' })).toContainText('At most 20 characters');
    await version.getByRole('textbox', { name: /MINECRAFT_VERSION/ }).fill('x'.repeat(21));
    await expect(version.getByText('The MINECRAFT_VERSION field must not be greater than 20 characters.')).toBeVisible();
    await expect(version.getByRole('button', { name: 'Save' })).toBeDisabled();
    await version.getByRole('button', { name: 'Undo' }).click();
    await expect(version.getByRole('textbox', { name: /MINECRAFT_VERSION/ })).toHaveValue('latest');

    // The read-only build number: shown, with why, and not editable; the API refuses it too.
    const build = page.locator('section[data-variable="BUILD_NUMBER"]');
    await expect(build.getByText('Read-only', { exact: true })).toBeVisible();
    await expect(build.getByText('Read-only: the egg does not let users change this variable.')).toBeVisible();
    await expect(build.getByRole('textbox', { name: /BUILD_NUMBER/ })).not.toBeEditable();
    await expect(build.getByRole('button', { name: 'Save' })).toHaveCount(0);

    await jarInput.fill('my-server.zip');
    await expect(jar.getByText('The SERVER_JARFILE field format is invalid.')).toBeVisible();
    await expectAccessible(page);
    await shot(page, 'server-startup-invalid', ['light']);

    // A good value: saved, then in the panel's own command and the variable's stored value.
    await jarInput.fill('paper-1.21.jar');
    await expect(jar.getByText(/field format is invalid/)).toHaveCount(0);
    await expect(preview).toContainText('-jar paper-1.21.jar');
    await jar.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Server jar file saved. It takes effect at the next start.')).toBeVisible();
    await expect(jar.getByRole('button', { name: 'Save' })).toBeDisabled();
    const ownerSession = { cookie: panel.owner.cookie };
    const startup = await api.raw.request<{ startup: string; variables: { envVariable: string; serverValue: string }[] }>('GET', `/api/client/servers/${id}/startup`, {
      session: ownerSession,
    });
    expect(startup.startup).toMatch(/-jar paper-1\.21\.jar$/);
    expect(startup.variables.find((v) => v.envVariable === 'SERVER_JARFILE')?.serverValue).toBe('paper-1.21.jar');
    await page.reload();
    await expect(preview).toContainText('-jar paper-1.21.jar');
    await expect(jarInput).toHaveValue('paper-1.21.jar');
    // The API refuses the read-only one as well (403 STARTUP_VARIABLE_READ_ONLY).
    await api.raw.request('PUT', `/api/client/servers/${id}/startup/variable`, { session: ownerSession, body: { key: 'BUILD_NUMBER', value: '99' }, expect: 403 });

    // Another of the egg's images, for the next start.
    await image.click();
    await page.getByRole('option', { name: 'Java 17 (ghcr.io/pterodactyl/yolks:java_17)' }).click();
    await expect(page.getByText('The server will run Java 17 from its next start.')).toBeVisible();
    await expect(image).toHaveValue('Java 17 (ghcr.io/pterodactyl/yolks:java_17)');
    const switched = await api.raw.request<{ dockerImage: string }>('GET', `/api/client/servers/${id}/startup`, { session: ownerSession });
    expect(switched.dockerImage).toBe('ghcr.io/pterodactyl/yolks:java_17');

    await expectAccessibleInBothSchemes(page);
    await shot(page, 'server-startup');
    await expectFitsPhone(page, 'Startup', () => shot(page, 'server-startup', ['mobile']));
  });

  test('a value the browser lets through but the panel refuses shows the panel message inline', async ({ ownerPage: page, createServer, installed }) => {
    const server = await createServer();
    await installed(server);
    const id = server.uuid.slice(0, 8);
    await page.goto(`/server/${id}/startup`);
    const jar = page.locator('section[data-variable="SERVER_JARFILE"]');
    const jarInput = jar.getByRole('textbox', { name: /SERVER_JARFILE/ });
    await expect(jarInput).toHaveValue('paper.jar');
    // The panel checks every value again: a request changed on its way (as a page holding an egg's older rules
    // would send it) is refused with 422, and the panel's message lands on the field.
    await page.route(`**/api/client/servers/${id}/startup/variable`, async (route) => {
      await route.continue({ postData: JSON.stringify({ key: 'SERVER_JARFILE', value: 'not a jar' }) });
    });
    await jarInput.fill('other.jar');
    await jar.getByRole('button', { name: 'Save' }).click();
    await expect(jar.getByText('The SERVER_JARFILE field format is invalid.')).toBeVisible();
    await expect(jarInput).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('server settings', () => {
  test('rename shows in the header, the SFTP details name the caller, and reinstall with the typed name reaches the node', async ({
    ownerPage: page,
    api,
    createServer,
    installed,
    newNode,
  }) => {
    const node = await newNode();
    const server = await createServer({ node_id: node.id });
    await installed(server);
    const id = server.uuid.slice(0, 8);

    await page.goto(`/server/${id}`);
    await page.getByRole('tablist', { name: 'Server pages' }).getByRole('tab', { name: 'Settings' }).click();
    await expect(page).toHaveURL(new RegExp(`/server/${id}/settings$`));
    await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();

    // SFTP: <owner's username>.<identifier> on the node's address and SFTP port (2022 unless set).
    const sftp = page.getByRole('region', { name: 'SFTP details' });
    const username = `owner.${id}`;
    await expect(sftp.getByText(username, { exact: true })).toBeVisible();
    await expect(sftp.getByRole('link', { name: `sftp://${username}@127.0.0.1:2022` })).toHaveAttribute('href', `sftp://${username}@127.0.0.1:2022`);
    await expect(sftp.getByRole('button', { name: 'Copy the SFTP address' })).toBeVisible();
    await expect(sftp.getByRole('button', { name: 'Copy the SFTP username' })).toBeVisible();
    const info = page.getByRole('region', { name: 'Server information' });
    await expect(info.getByText(server.uuid, { exact: true })).toBeVisible();
    await expect(info.getByRole('button', { name: 'Copy the UUID' })).toBeVisible();

    // Rename: the header follows, and the API has the new name and description.
    const rename = page.getByRole('region', { name: 'Name and description' });
    const newName = `Creative ${Date.now() % 100000}`;
    await rename.getByRole('textbox', { name: 'Server name' }).fill('');
    await expect(rename.getByText('The server needs a name.')).toBeVisible();
    await expect(rename.getByRole('button', { name: 'Save' })).toBeDisabled();
    await rename.getByRole('textbox', { name: 'Server name' }).fill(newName);
    await rename.getByRole('textbox', { name: 'Description' }).fill('Flat world for building');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: newName })).toBeVisible();
    const details = await api.admin('GET', `/api/admin/servers/${server.id}`);
    expect(details.name).toBe(newName);
    expect(details.description).toBe('Flat world for building');

    await expectAccessibleInBothSchemes(page);
    await shot(page, 'server-settings');

    // Reinstall: the typed name unlocks it; the node gets the request and the server installs again. This node's
    // install takes 3 s, long enough to see the status.
    node.sim.timing.installDurationMs = 3000;
    const before = node.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST').length;
    await page.getByRole('button', { name: 'Reinstall server…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reinstall the server?' });
    await expect(dialog.getByRole('button', { name: 'Reinstall' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: `Type ${newName} to confirm` }).fill(server.name);
    await expect(dialog.getByRole('button', { name: 'Reinstall' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: `Type ${newName} to confirm` }).fill(newName);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Reinstall' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Reinstall started: the server shows installing until the node reports back.')).toBeVisible();
    await expect(page.getByTestId('install-status')).toHaveText('Installing');
    await expect(page.getByRole('button', { name: 'Reinstall server…' })).toBeDisabled();
    await expect.poll(() => node.sim.requestsTo(`/api/servers/${server.uuid}/reinstall`, 'POST').length).toBe(before + 1);
    await installed(server);
    // The page reads the details again while installing and sees the end by itself.
    await expect(page.getByTestId('install-status')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reinstall server…' })).toBeEnabled();

    await expectFitsPhone(page, 'Settings', () => shot(page, 'server-settings', ['mobile']));
  });
});
