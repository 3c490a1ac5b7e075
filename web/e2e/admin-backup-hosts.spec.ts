import { randomBytes } from 'node:crypto';
import { startTestS3, type TestS3Server } from 'test/utils/s3-server';
import { expect, expectAccessibleInBothSchemes, openDialog, test } from 'e2e/fixtures';

// Backup hosts: an S3 bucket made in the form, its connection tested (refused with a wrong secret, then
// connected), and given to a node on the node's settings. The bucket is the tests' S3 server.

test.describe('administration: backup hosts', () => {
  let s3: TestS3Server;

  test.beforeAll(async () => {
    s3 = await startTestS3();
  });

  test.afterAll(async () => {
    await s3?.close();
  });

  test('backup hosts: create an S3 host, test it (refused, then connected), give it to a node, delete it once unused', async ({ adminPage: page, api, newNode }) => {
    test.slow();
    const s = randomBytes(3).toString('hex');
    const name = `bucket-${s}`;
    const { id: nodeId } = await newNode();

    await page.goto('/admin/backup-hosts');
    await expect(page.getByRole('heading', { name: 'Backup hosts', level: 2, exact: true })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Backup hosts', selected: true })).toBeVisible();
    await page.getByRole('button', { name: 'New backup host' }).first().click();
    const dialog = await openDialog(page, 'New backup host');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(s3.endpoint);
    await dialog.getByRole('textbox', { name: 'Bucket' }).fill(s3.bucket);
    await dialog.getByRole('textbox', { name: 'Key prefix' }).fill(`tests-${s}/`);
    await dialog.getByRole('textbox', { name: 'Access key ID' }).fill(s3.credentials.accessKeyId);
    await dialog.getByLabel('Secret access key').fill('not-the-secret');
    await dialog.getByLabel('Part size (MiB)').fill('5');
    await dialog.getByRole('checkbox', { name: 'Path-style addressing' }).check();
    await page.screenshot({ path: test.info().outputPath('backup-host-form.png') });
    await dialog.getByRole('button', { name: 'New backup host' }).click();

    // Saved, the dialog stays open on the host: its connection can be tested at once.
    const edit = await openDialog(page, `Edit ${name}`);
    await edit.getByRole('button', { name: `Test the connection to ${name}` }).click();
    await expect(edit.getByRole('alert')).toContainText('Could not connect');
    await expect(edit.getByRole('alert')).toContainText('SignatureDoesNotMatch');
    await expect(edit.getByRole('alert')).not.toContainText('not-the-secret');
    await edit.getByRole('alert').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('backup-host-refused.png') });

    await expect(edit.getByLabel('Secret access key')).toHaveValue('');
    await edit.getByLabel('Secret access key').fill(s3.credentials.secretAccessKey);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByLabel('Secret access key')).toHaveValue('');
    await edit.getByRole('button', { name: `Test the connection to ${name}` }).click();
    await expect(edit.getByRole('status')).toContainText('Connected');
    await page.screenshot({ path: test.info().outputPath('backup-host-connected.png') });
    await edit.getByRole('button', { name: 'Close' }).first().click();

    const card = page.getByRole('listitem', { name });
    await expect(card).toContainText(`${s3.endpoint} · ${s3.bucket}/tests-${s}/ · 5 MiB`);
    await card.getByRole('button', { name: `Test the connection to ${name}` }).click();
    await expect(card.getByRole('status')).toContainText('Connected');
    await expectAccessibleInBothSchemes(page);
    await page.screenshot({ path: test.info().outputPath('backup-hosts-list.png'), fullPage: true });
    const hosts = (await api.admin('GET', '/api/admin/backup-hosts')) as unknown as { id: string; name: string; secretSet: boolean }[];
    const host = hosts.find((h) => h.name === name)!;
    expect(host.secretSet).toBe(true);
    expect(JSON.stringify(hosts)).not.toContain(s3.credentials.secretAccessKey);

    // The node's settings: its backups go to the bucket.
    await page.goto(`/admin/nodes/${nodeId}`);
    await page.getByRole('combobox', { name: 'Backup host' }).click();
    await page.getByRole('option', { name: `${name} (S3)` }).click();
    await page.screenshot({ path: test.info().outputPath('node-backup-host.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => ((await api.admin('GET', `/api/admin/nodes/${nodeId}`)) as { backupHostId: string | null }).backupHostId).toBe(host.id);

    // In use: deleting is refused and explained; once the node lets go, it goes.
    await page.goto('/admin/backup-hosts');
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await (await openDialog(page, 'Delete this backup host?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('The backup host is used by 1 node(s) and holds 0 backup(s)')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('backup-host-in-use.png') });
    await api.admin('PATCH', `/api/admin/nodes/${nodeId}`, { backupHostId: null });
    await page.goto('/admin/backup-hosts');
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await (await openDialog(page, 'Delete this backup host?')).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('listitem', { name })).toHaveCount(0);
  });
});
