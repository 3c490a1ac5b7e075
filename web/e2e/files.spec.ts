import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from '@playwright/test';
import { docScreenshot, expect, expectAccessible, expectNoHorizontalScroll, test } from 'e2e/fixtures';

// The file manager (/server/$id/files) in real Chromium against the built panel and the Wings
// simulator. Every test makes its own server and puts its files straight into that server's volume
// on the simulator's disk (the `volume` fixture), then checks there what the page did.

/** A fresh, installed server of the owner, and helpers over its volume. */
const serverWithFiles = async (
  { createServer, installed, volume }: { createServer: (body?: Record<string, unknown>) => Promise<{ id: string; uuid: string }>; installed: (s: { id: string }) => Promise<void>; volume: (s: { uuid: string }) => string },
  body: Record<string, unknown> = {},
) => {
  const server = await createServer(body);
  await installed(server);
  const root = volume(server);
  const onDisk = (path: string) => join(root, path);
  const put = (path: string, content: string) => {
    mkdirSync(dirname(onDisk(path)), { recursive: true });
    writeFileSync(onDisk(path), content);
  };
  // Client routes and the server pages name a server by its 8-character identifier (or uuid).
  return { id: server.uuid.slice(0, 8), onDisk, put };
};

const openFiles = async (page: Page, serverId: string, path: string) => {
  await page.goto(`/server/${serverId}/files?path=${encodeURIComponent(path)}`);
  await expect(page.getByRole('grid', { name: 'Files in this folder' }).or(page.getByRole('heading', { name: 'This folder is empty' }))).toBeVisible();
};
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: `Select ${name}`, exact: true }) });
const rowAction = async (page: Page, name: string, action: string) => {
  await row(page, name).getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
};

test.describe('file manager', () => {
  test('edits a file, saves with Ctrl+S, and the reload shows the new content; leaving unsaved asks first', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
    put('/edit/server.properties', 'motd=A Minecraft Server\nmax-players=20\n');
    await openFiles(page, id, '/edit');
    await row(page, 'server.properties').getByRole('button', { name: 'server.properties', exact: true }).click();

    const editor = page.getByRole('textbox', { name: 'Contents of server.properties' });
    await expect(editor).toContainText('max-players=20');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('view-distance=12');
    await expect(page.getByText('Unsaved changes')).toBeVisible();

    // The router's blocker asks before leaving; staying keeps the text.
    await page.getByRole('link', { name: '/edit' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    await expect(editor).toContainText('view-distance=12');

    await editor.click();
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByText('Saved server.properties.')).toBeVisible();
    await expect(page.getByText('Unsaved changes')).toBeHidden();
    expect(readFileSync(onDisk('/edit/server.properties'), 'utf8')).toContain('view-distance=12');

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Contents of server.properties' })).toContainText('view-distance=12');
    await expect(page.locator('.cm-line').first()).toBeVisible();
    await docScreenshot(page, 'editor.png');
    await expectAccessible(page);

    // Dirty again, then leave anyway through the blocker.
    await page.getByRole('textbox', { name: 'Contents of server.properties' }).click();
    await page.keyboard.type('x');
    await page.getByRole('link', { name: '/edit' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
    await expect(row(page, 'server.properties')).toBeVisible();
    expect(readFileSync(onDisk('/edit/server.properties'), 'utf8')).not.toContain('view-distance=12x');
  });

  test('uploads by drag-and-drop and lists the file; a file over the node upload size is refused before sending', async ({ ownerPage: page, createServer, installed, volume, newNode }) => {
    // A node of its own whose upload size is 1 MiB: the page learns it from the server details.
    const node = await newNode({ uploadSizeMiB: 1 });
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume }, { node_id: node.id });
    put('/uploads/keep.txt', 'here');
    await openFiles(page, id, '/uploads');
    await expect(page.getByText(/up to 1 MiB/)).toBeVisible();
    const uploads: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/files/upload')) {
        uploads.push(req.url());
      }
    });

    const drop = async (name: string, size: number) => {
      const transfer = await page.evaluateHandle(
        ([fileName, bytes]) => {
          const data = new DataTransfer();
          data.items.add(new File([new Uint8Array(bytes).fill(65)], fileName, { type: 'text/plain' }));
          return data;
        },
        [name, size] as const,
      );
      await page.getByTestId('files-drop').dispatchEvent('dragover', { dataTransfer: transfer });
      await page.getByTestId('files-drop').dispatchEvent('drop', { dataTransfer: transfer });
    };

    await drop('dropped.txt', 2048);
    await expect(row(page, 'dropped.txt')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Operations' }).getByText('Uploaded')).toBeVisible();
    expect(readFileSync(onDisk('/uploads/dropped.txt'), 'utf8')).toBe('A'.repeat(2048));
    expect(uploads).toHaveLength(1);

    // 1 MiB + 1 byte never leaves the browser.
    await drop('too-big.bin', 1024 * 1024 + 1);
    await expect(page.getByText('Too large', { exact: true })).toBeVisible();
    await expect(page.getByText(/too-big\.bin was not uploaded/)).toBeVisible();
    expect(uploads).toHaveLength(1);
    await expect(row(page, 'too-big.bin')).toHaveCount(0);
  });

  test('lists, scrolls and filters a directory of 3,000 entries', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
    for (let i = 0; i < 3000; i++) {
      put(`/many/file-${String(i).padStart(4, '0')}.txt`, '');
    }
    mkdirSync(onDisk('/many/zz-folder'));
    await openFiles(page, id, '/many');
    await expect(page.getByText('3,001 entries')).toBeVisible();
    // Folders first, whatever their name; only the rows in view are in the page.
    await expect(page.getByRole('row').nth(1)).toContainText('zz-folder');
    expect(await page.getByRole('row').count()).toBeLessThan(100);

    await page.getByTestId('files-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(row(page, 'file-2999.txt')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Filter by name' }).fill('file-1234');
    await expect(row(page, 'file-1234.txt')).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(2);
  });

  test('creates a folder, renames, compresses and extracts an archive, deletes; hostile names stay text', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, put } = await serverWithFiles({ createServer, installed, volume });
    put('/work/world/level.dat', 'level');
    put('/work/world/region/r.0.0.mca', 'region');
    put('/work/<img src=x onerror=alert(1)>.txt', 'x');
    await openFiles(page, id, '/work');
    await expect(row(page, '<img src=x onerror=alert(1)>.txt')).toBeVisible();

    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('plugins');
    await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create' }).click();
    await expect(row(page, 'plugins')).toBeVisible();

    await rowAction(page, 'plugins', 'Rename or move');
    const rename = page.getByRole('dialog', { name: 'Rename or move' });
    await rename.getByLabel(/New name or path/).fill('mods');
    await rename.getByRole('button', { name: 'Rename or move' }).click();
    await expect(row(page, 'mods')).toBeVisible();
    await expect(row(page, 'plugins')).toHaveCount(0);

    await rowAction(page, 'world', 'Compress');
    await expect(page.getByText('Compressed world.')).toBeVisible();
    const archive = page.getByRole('button', { name: /^\S+\.tar\.gz$/ });
    await expect(archive).toHaveCount(1);
    const archiveName = (await archive.innerText()).trim();

    // Delete the folder (with a confirm), then extract the archive to bring it back.
    await row(page, 'world').getByRole('checkbox').check();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete 1 entry?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, 'world')).toHaveCount(0);

    await rowAction(page, archiveName, 'Extract');
    await expect(page.getByText(`Extracted ${archiveName}.`)).toBeVisible();
    await row(page, 'world').getByRole('button', { name: 'world', exact: true }).click();
    await expect(page).toHaveURL(/path=%2Fwork%2Fworld/);
    await expect(row(page, 'level.dat')).toBeVisible();
    await expect(row(page, 'region')).toBeVisible();
    await page.goBack();
    await expect(row(page, 'mods')).toBeVisible();

    await expectAccessible(page);
    // The README's picture: the folder, without the toasts and the finished operations over it.
    // Toasts also close by themselves: click the first one left until none is (one may go mid-click).
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) {
      await dismiss
        .first()
        .click({ timeout: 1000 })
        .catch(() => undefined);
    }
    await expect(page.getByRole('button', { name: 'Dismiss' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear finished' }).click();
    await expect(page.getByRole('region', { name: 'Operations' })).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    await docScreenshot(page, 'files.png');
    // The scheme is "system" by default: a dark system gives the dark page.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(row(page, 'mods')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await docScreenshot(page, 'files-dark.png');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row(page, 'mods')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await docScreenshot(page, 'files-390.png');
    await rowAction(page, 'mods', 'Delete');
    await page.getByRole('dialog', { name: 'Delete 1 entry?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(row(page, 'mods')).toHaveCount(0);
  });

  test('moves several entries in one call; archives and binaries are not offered to the editor; the tray shows whole words', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
    const notes = 'server-settings-for-the-lobby-notes.txt';
    const world = 'world-of-the-weekend-event';
    put(`/m/${notes}`, 'motd');
    put(`/m/${world}/level.dat`, 'level');
    // Told apart by what the node sniffs (no telling name) and by name (a .jar that sniffs as text).
    writeFileSync(onDisk('/m/server-binary'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1]));
    put('/m/paper.jar', 'plugin');
    writeFileSync(onDisk('/m/old-backup.tar.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    await openFiles(page, id, '/m');
    // The menu is read once it is open, and closed before the next one opens (a busy machine may
    // otherwise read the previous menu's items, or none yet).
    const offers = async (name: string) => {
      await row(page, name).getByRole('button', { name: `Actions for ${name}` }).click();
      await expect(page.getByRole('menuitem').first()).toBeVisible();
      const items = await page.getByRole('menuitem').allInnerTexts();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menuitem')).toHaveCount(0);
      return items.map((i) => i.trim());
    };
    expect(await offers(notes)).toContain('Edit');
    for (const name of ['server-binary', 'paper.jar']) {
      expect([name, await offers(name)]).toEqual([name, expect.not.arrayContaining(['Edit', 'Extract'])]);
    }
    expect(await offers('old-backup.tar.gz')).toEqual(expect.arrayContaining(['Download', 'Extract']));
    expect(await offers('old-backup.tar.gz')).not.toContain('Edit');

    for (const name of [notes, world, 'server-binary']) {
      await row(page, name).getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const move = page.getByRole('dialog', { name: 'Move 3 entries' });
    await move.getByLabel(/Into the folder/).fill(`${world}/old`);
    await expect(move.getByText('A folder cannot be moved into itself.')).toBeVisible();
    await expect(move.getByRole('button', { name: 'Move' })).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath('files-move-dialog.png'), animations: 'disabled' });
    await move.getByLabel(/Into the folder/).fill('../archive/lobby');
    await move.getByRole('button', { name: 'Move' }).click();
    await expect(page.getByText(`Moved ${notes}, ${world}, server-binary → /archive/lobby.`)).toBeVisible();
    await expect(row(page, notes)).toHaveCount(0);
    for (const path of [notes, `${world}/level.dat`, 'server-binary']) {
      expect(statSync(onDisk(`/archive/lobby/${path}`)).isFile()).toBe(true);
    }

    // The tray writes the whole subject, wrapped, at desktop width and at 390 px: nothing cut with "…".
    const tray = page.getByRole('region', { name: 'Operations' });
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await expect(tray).toContainText(`Move: ${notes}, ${world}, server-binary → /archive/lobby`);
      const cut = await tray.evaluate((el) =>
        [...el.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible').map((e) => e.textContent),
      );
      expect(cut).toEqual([]);
      await page.screenshot({ path: test.info().outputPath(`files-tray-${size.width}.png`), animations: 'disabled' });
    }
  });

  test('editor in dark and at 390 px', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, put } = await serverWithFiles({ createServer, installed, volume });
    put('/shots/config.yml', 'server:\n  port: 25565\n  motd: "Hello"\n');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/server/${id}/files/edit?path=${encodeURIComponent('/shots/config.yml')}`);
    await expect(page.getByRole('textbox', { name: 'Contents of config.yml' })).toContainText('port: 25565');
    await docScreenshot(page, 'editor-dark.png');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await docScreenshot(page, 'editor-390.png');
  });

  test('pulls a file from a URL: the node downloads it and it shows in the listing', async ({ ownerPage: page, createServer, installed, volume }) => {
    // A file host on loopback; the panel lets URLs reach it because the browser tests' panel runs
    // with OUTBOUND_ALLOW_PRIVATE (global-setup.ts), and the simulator really fetches from it.
    const served: string[] = [];
    const body = Buffer.from('plugin bytes '.repeat(1000));
    const host = createHttpServer((req, res) => {
      served.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/java-archive', 'Content-Length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}/downloads/EssentialsX.jar`;
      const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
      put('/plugins/readme.txt', 'plugins go here');
      await openFiles(page, id, '/plugins');

      await page.getByRole('button', { name: 'Pull from URL' }).click();
      const dialog = page.getByRole('dialog', { name: 'Pull from URL' });
      await dialog.getByLabel('URL').fill('ftp://example.com/x.jar');
      await expect(dialog.getByText('Enter an http:// or https:// address.')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Pull' })).toBeDisabled();
      await dialog.getByLabel('URL').fill(url);
      await dialog.getByRole('button', { name: 'Pull' }).click();
      await expect(page.getByText(`The node started downloading ${url}.`)).toBeVisible();

      // No reload: the page reads the folder again until the file is there.
      await expect(row(page, 'EssentialsX.jar')).toBeVisible();
      expect(served).toEqual(['/downloads/EssentialsX.jar']);
      expect(readFileSync(onDisk('/plugins/EssentialsX.jar'))).toEqual(body);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });

  test('copies a file and changes its permissions; the node has the copy and the new mode', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
    put('/config/ops.json', '[{"name":"olive"}]');
    await openFiles(page, id, '/config');

    await rowAction(page, 'ops.json', 'Make a copy');
    await expect(page.getByText('Made a copy of ops.json: ops_copy.json.')).toBeVisible();
    await expect(row(page, 'ops_copy.json')).toBeVisible();
    expect(readFileSync(onDisk('/config/ops_copy.json'), 'utf8')).toBe('[{"name":"olive"}]');
    await expect(row(page, 'ops.json')).toBeVisible();

    // The listing shows each entry's mode; the dialog starts from it and its boxes follow the number.
    const mode = (name: string) => row(page, name).getByRole('gridcell').nth(4);
    await expect(mode('ops.json')).toHaveText('644');
    await rowAction(page, 'ops.json', 'Permissions');
    const chmod = page.getByRole('dialog', { name: 'Permissions' });
    await expect(chmod.getByLabel('Mode (octal)')).toHaveValue('644');
    await expect(chmod.getByRole('checkbox', { name: 'Owner: Execute' })).not.toBeChecked();
    await chmod.getByRole('checkbox', { name: 'Others: Read' }).uncheck();
    await expect(chmod.getByLabel('Mode (octal)')).toHaveValue('640');
    await chmod.getByLabel('Mode (octal)').fill('9');
    await expect(chmod.getByText('Use three or four digits from 0 to 7')).toBeVisible();
    await expect(chmod.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await chmod.getByLabel('Mode (octal)').fill('750');
    await expect(chmod.getByRole('checkbox', { name: 'Owner: Execute' })).toBeChecked();
    await expect(chmod.getByRole('checkbox', { name: 'Others: Read' })).not.toBeChecked();
    await chmod.getByRole('button', { name: 'Apply' }).click();
    await expect(chmod).toBeHidden();

    await expect(mode('ops.json')).toHaveText('750');
    await expect(mode('ops_copy.json')).toHaveText('644');
    expect(statSync(onDisk('/config/ops.json')).mode & 0o777).toBe(0o750);
    expect(statSync(onDisk('/config/ops_copy.json')).mode & 0o777).toBe(0o644);
  });

  test('uploads a folder: a folder picked in the folder picker and a drop of files with their folders land at their relative paths', async ({ ownerPage: page, createServer, installed, volume }) => {
    const { id, onDisk, put } = await serverWithFiles({ createServer, installed, volume });
    put('/site/index.html', '<h1>hi</h1>');
    await openFiles(page, id, '/site');

    // The folder picker (an input with webkitdirectory), given a real folder on disk.
    const local = mkdtempSync(join(tmpdir(), 'hatchery-folder-'));
    try {
      const folder = join(local, 'world');
      mkdirSync(join(folder, 'region', 'deep'), { recursive: true });
      writeFileSync(join(folder, 'level.dat'), 'level');
      writeFileSync(join(folder, 'region', 'r.0.0.mca'), 'region bytes');
      writeFileSync(join(folder, 'region', 'deep', 'note.txt'), 'deep note');
      await page.locator('input[type=file][webkitdirectory]').setInputFiles(folder);
      await expect(row(page, 'world')).toBeVisible();
      await expect.poll(() => readFileSync(onDisk('/site/world/region/deep/note.txt'), 'utf8')).toBe('deep note');
      expect(readFileSync(onDisk('/site/world/level.dat'), 'utf8')).toBe('level');
      expect(readFileSync(onDisk('/site/world/region/r.0.0.mca'), 'utf8')).toBe('region bytes');
    } finally {
      rmSync(local, { recursive: true, force: true });
    }

    // A real drop of a folder from the desktop: Chromium's own drag and drop (through the DevTools
    // protocol, as the OS would hand it over) with a folder path, so the page walks real directory
    // entries (webkitGetAsEntry) as it does for a user's drop.
    const dropped = mkdtempSync(join(tmpdir(), 'hatchery-drop-'));
    try {
      const folder = join(dropped, 'plugins');
      mkdirSync(join(folder, 'Essentials', 'lang'), { recursive: true });
      writeFileSync(join(folder, 'Essentials', 'config.yml'), 'motd: hi');
      writeFileSync(join(folder, 'Essentials', 'lang', 'en.txt'), 'hello');
      writeFileSync(join(dropped, 'ops.json'), '[]');
      const box = await page.getByTestId('files-drop').boundingBox();
      expect(box).not.toBeNull();
      const at = { x: (box?.x ?? 0) + 40, y: (box?.y ?? 0) + 60 };
      const cdp = await page.context().newCDPSession(page);
      const data = { items: [], files: [folder, join(dropped, 'ops.json')], dragOperationsMask: 1 };
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
        await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
      }
      await expect(row(page, 'plugins')).toBeVisible();
      await expect(row(page, 'ops.json')).toBeVisible();
      await expect.poll(() => readFileSync(onDisk('/site/plugins/Essentials/lang/en.txt'), 'utf8')).toBe('hello');
      expect(readFileSync(onDisk('/site/plugins/Essentials/config.yml'), 'utf8')).toBe('motd: hi');
      expect(readFileSync(onDisk('/site/ops.json'), 'utf8')).toBe('[]');
    } finally {
      rmSync(dropped, { recursive: true, force: true });
    }

    await row(page, 'world').getByRole('button', { name: 'world', exact: true }).click();
    await expect(row(page, 'region')).toBeVisible();
    await expect(row(page, 'level.dat')).toBeVisible();
    await row(page, 'region').getByRole('button', { name: 'region', exact: true }).click();
    await expect(row(page, 'deep')).toBeVisible();
    await expect(row(page, 'r.0.0.mca')).toBeVisible();
  });
});
