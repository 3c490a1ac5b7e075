import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { CHROMIUM, missing, startFilesStack, type FilesStack } from 'e2e/files-stack';

// The file manager in real Chromium against the built panel and the Wings simulator.

const SHOTS = resolve(__dirname, '..', '..', 'docs', 'screenshots');

test.use({ launchOptions: { executablePath: CHROMIUM } });
test.describe.configure({ mode: 'default' });

let stack: FilesStack;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const reason = await missing();
  if (reason) {
    if (process.env.CI === 'true') {
      throw new Error(`files e2e cannot run: ${reason}`);
    }
    process.stdout.write(`[files e2e] skipped: ${reason}\n`);
    test.skip(true, reason);
    return;
  }
  stack = await startFilesStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

test.beforeEach(async ({ page }) => {
  // Sign in through the API from the page's own context, so the browser holds the cookie.
  await page.request.post(`${stack.baseURL}/api/auth/sign-in/email`, { data: stack.admin, headers: { Origin: stack.baseURL } });
});

const onDisk = (path: string) => join(stack.volume, path);
const put = (path: string, content: string) => {
  mkdirSync(join(onDisk(path), '..'), { recursive: true });
  writeFileSync(onDisk(path), content);
};
const openFiles = async (page: Page, path: string) => {
  await page.goto(`${stack.baseURL}/server/${stack.serverId}/files?path=${encodeURIComponent(path)}`);
  await expect(page.getByRole('grid', { name: 'Files in this folder' }).or(page.getByRole('heading', { name: 'This folder is empty' }))).toBeVisible();
};
const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('checkbox', { name: `Select ${name}`, exact: true }) });
// The whole page, app shell included.
const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join(', ')}`);

test('edits a file, saves with Ctrl+S, and the reload shows the new content; leaving unsaved asks first', async ({ page }) => {
  put('/edit/server.properties', 'motd=A Minecraft Server\nmax-players=20\n');
  await openFiles(page, '/edit');
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
  await page.screenshot({ path: join(SHOTS, 'editor.png') });
  expect(await seriousViolations(page)).toEqual([]);

  // Dirty again, then leave anyway through the blocker.
  await page.getByRole('textbox', { name: 'Contents of server.properties' }).click();
  await page.keyboard.type('x');
  await page.getByRole('link', { name: '/edit' }).click();
  await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
  await expect(row(page, 'server.properties')).toBeVisible();
  expect(readFileSync(onDisk('/edit/server.properties'), 'utf8')).not.toContain('view-distance=12x');
});

test('uploads by drag-and-drop and lists the file; a file over the upload size is refused before sending', async ({ page }) => {
  put('/uploads/keep.txt', 'here');
  // The node's upload size reaches the page in the server details' uploadSizeMiB (added on the
  // uiapi branch); until that merges, the answer is given the node's 1 MiB here when it lacks it.
  await page.route(`**/api/client/servers/${stack.serverId}`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: Record<string, unknown> };
    body.data.uploadSizeMiB ??= 1;
    await route.fulfill({ response, json: body });
  });
  await openFiles(page, '/uploads');
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

  // The node takes 1 MiB (files-stack.ts): 1 MiB + 1 byte never leaves the browser.
  await drop('too-big.bin', 1024 * 1024 + 1);
  await expect(page.getByText('Too large', { exact: true })).toBeVisible();
  await expect(page.getByText(/too-big\.bin was not uploaded/)).toBeVisible();
  expect(uploads).toHaveLength(1);
  await expect(row(page, 'too-big.bin')).toHaveCount(0);
});

test('lists, scrolls and filters a directory of 3,000 entries', async ({ page }) => {
  for (let i = 0; i < 3000; i++) {
    put(`/many/file-${String(i).padStart(4, '0')}.txt`, '');
  }
  mkdirSync(onDisk('/many/zz-folder'));
  await openFiles(page, '/many');
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

test('creates a folder, renames, compresses and extracts an archive, deletes; hostile names stay text', async ({ page }) => {
  put('/work/world/level.dat', 'level');
  put('/work/world/region/r.0.0.mca', 'region');
  put('/work/<img src=x onerror=alert(1)>.txt', 'x');
  await openFiles(page, '/work');
  await expect(row(page, '<img src=x onerror=alert(1)>.txt')).toBeVisible();

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog', { name: 'New folder' }).getByLabel('Folder name').fill('plugins');
  await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create' }).click();
  await expect(row(page, 'plugins')).toBeVisible();

  await row(page, 'plugins').getByRole('button', { name: 'Actions for plugins' }).click();
  await page.getByRole('menuitem', { name: 'Rename or move' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename or move' });
  await rename.getByLabel(/New name or path/).fill('mods');
  await rename.getByRole('button', { name: 'Rename or move' }).click();
  await expect(row(page, 'mods')).toBeVisible();
  await expect(row(page, 'plugins')).toHaveCount(0);

  await row(page, 'world').getByRole('button', { name: 'Actions for world' }).click();
  await page.getByRole('menuitem', { name: 'Compress' }).click();
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

  await row(page, archiveName).getByRole('button', { name: `Actions for ${archiveName}` }).click();
  await page.getByRole('menuitem', { name: 'Extract' }).click();
  await expect(page.getByText(`Extracted ${archiveName}.`)).toBeVisible();
  await row(page, 'world').getByRole('button', { name: 'world', exact: true }).click();
  await expect(page).toHaveURL(/path=%2Fwork%2Fworld/);
  await expect(row(page, 'level.dat')).toBeVisible();
  await expect(row(page, 'region')).toBeVisible();
  await page.goBack();
  await expect(row(page, 'mods')).toBeVisible();

  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, 'files.png') });
  // The scheme is "system" by default: a dark system gives the dark page.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(row(page, 'mods')).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'files-dark.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row(page, 'mods')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SHOTS, 'files-390.png') });
  await row(page, 'mods').getByRole('button', { name: 'Actions for mods' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete 1 entry?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row(page, 'mods')).toHaveCount(0);
});

test('editor in dark and at 390 px', async ({ page }) => {
  put('/shots/config.yml', 'server:\n  port: 25565\n  motd: "Hello"\n');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${stack.baseURL}/server/${stack.serverId}/files/edit?path=${encodeURIComponent('/shots/config.yml')}`);
  await expect(page.getByRole('textbox', { name: 'Contents of config.yml' })).toContainText('port: 25565');
  await page.screenshot({ path: join(SHOTS, 'editor-dark.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.screenshot({ path: join(SHOTS, 'editor-390.png') });
});
