import { randomBytes } from 'node:crypto';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { testMySqlAccount } from 'test/setup/mariadb-env';
import { expect, expectAccessible, expectAccessibleInBothSchemes, expectFitsPhone, shot, signIn, test } from 'e2e/fixtures';

// Databases (/server/$id/databases) against the real MariaDB the panel has as its database host, and
// Network (/server/$id/network) on a node of its own. Each test makes its own server.

const mysql = testMySqlAccount();

/** A connection as a customer user, or the error code that refused it. */
const connectAs = async (user: string, password: string, database: string): Promise<{ connection?: Connection; refused?: string }> => {
  try {
    return { connection: await createConnection({ host: mysql.host, port: mysql.port, user, password, database, connectTimeout: 5_000 }) };
  } catch (e) {
    return { refused: (e as { code?: string }).code ?? String(e) };
  }
};

/** The MariaDB administrator: what exists on the host, and cleanup of exactly what a test made. */
const asRoot = async <T,>(fn: (c: Connection) => Promise<T>): Promise<T> => {
  const c = await createConnection({ host: mysql.host, port: mysql.port, user: mysql.user, password: mysql.password, connectTimeout: 5_000 });
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
};

const onHost = (database: string, user: string) =>
  asRoot(async (c) => {
    const [dbs] = await c.query<RowDataPacket[]>('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [database]);
    const [users] = await c.query<RowDataPacket[]>('SELECT Host FROM mysql.user WHERE User = ?', [user]);
    return { database: dbs.length > 0, user: users.length > 0 };
  });

const dropFromHost = (database: string, user: string) =>
  asRoot(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS \`${database}\``);
    const [hosts] = await c.query<(RowDataPacket & { Host: string })[]>('SELECT Host FROM mysql.user WHERE User = ?', [user]);
    for (const { Host } of hosts) {
      await c.query('DROP USER IF EXISTS ?@?', [user, Host]);
    }
  });

test.describe('databases', () => {
  // One at a time: the no-host test makes the panel's only database host full for a moment.
  test.describe.configure({ mode: 'serial' });
  test.beforeEach(({ panel }) => {
    test.skip(panel.mariadb !== 'available', panel.mariadb);
  });

  test('creates a database, connects with the password shown once, rotates it (the old one refused) and deletes it by its name', async ({ ownerPage: page, createServer }) => {
    const server = await createServer({ database_limit: 2 });
    const id = server.uuid.slice(0, 8);
    const short = `main_${randomBytes(3).toString('hex')}`;
    const database = `s${server.id}_${short}`;
    const username = `u${server.id}_${short}`;
    try {
      await page.goto(`/server/${id}/databases`);
      await expect(page.getByRole('heading', { name: 'No databases yet' })).toBeVisible();
      await expect(page.getByText('0 of 2 databases used')).toBeVisible();
      await expectAccessibleInBothSchemes(page);

      await page.getByRole('button', { name: 'New database' }).click();
      const create = page.getByRole('dialog', { name: 'Create a database' });
      await create.getByLabel('Name').fill('not-valid');
      await create.getByRole('button', { name: 'New database' }).click();
      await expect(create.getByText('Use only letters, digits and _.')).toBeVisible();
      await create.getByLabel('Name').fill(short);
      await expect(create.getByLabel('Connections from')).toHaveValue('%');
      await create.getByRole('button', { name: 'New database' }).click();

      const shown = page.getByRole('dialog', { name: `Database ${database} created` });
      await expect(shown).toBeVisible();
      const password = (await shown.getByTestId('database-password').textContent()) ?? '';
      expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await expect(shown.getByTestId('database-uri')).toHaveText(`mysql://${username}:${password}@${mysql.host}:${mysql.port}/${database}`);
      await expect(shown.getByTestId('database-jdbc')).toHaveText(`jdbc:mysql://${mysql.host}:${mysql.port}/${database}?user=${username}&password=${password}`);
      await expect(shown.getByRole('button', { name: 'Copy the password' })).toBeVisible();
      await expect(shown.getByRole('button', { name: 'Copy the JDBC URL' })).toBeVisible();
      await expectAccessible(page);
      await shot(page, 'server-databases-password', ['light']);

      // The shown password opens the database: make a table, write a row, read it back.
      const first = await connectAs(username, password, database);
      expect(first.refused).toBeUndefined();
      await first.connection!.query('CREATE TABLE players (name VARCHAR(32) PRIMARY KEY)');
      await first.connection!.query('INSERT INTO players VALUES (?)', ['olive']);
      const [rows] = await first.connection!.query<RowDataPacket[]>('SELECT name FROM players');
      expect(rows.map((r) => r.name as string)).toEqual(['olive']);
      await first.connection!.end();

      await shown.getByRole('button', { name: 'I have saved it' }).click();
      await expect(shown).toBeHidden();
      const card = page.getByRole('listitem', { name: database });
      await expect(card).toContainText(username);
      await expect(card).toContainText(`${mysql.host}:${mysql.port}`);
      await expect(card).toContainText('Anywhere (%)');
      await expect(page.getByText('1 of 2 databases used')).toBeVisible();
      // Once closed, the password is nowhere on the page any more.
      await expect(page.getByText(password)).toHaveCount(0);
      await expectAccessibleInBothSchemes(page);
      await expectFitsPhone(page, 'Databases');
      await shot(page, 'server-databases');
      await shot(page, 'server-databases', ['mobile']);

      // Rotate: confirm, a new password once; it works and the old one is refused.
      await card.getByRole('button', { name: `Actions for ${database}` }).click();
      await page.getByRole('menuitem', { name: 'Rotate password' }).click();
      await page.getByRole('dialog', { name: 'Rotate the password?' }).getByRole('button', { name: 'Rotate password' }).click();
      const rotated = page.getByRole('dialog', { name: `New password for ${database}` });
      await expect(rotated).toBeVisible();
      const next = (await rotated.getByTestId('database-password').textContent()) ?? '';
      expect(next).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(next).not.toBe(password);
      const second = await connectAs(username, next, database);
      expect(second.refused).toBeUndefined();
      const [again] = await second.connection!.query<RowDataPacket[]>('SELECT name FROM players');
      expect(again.map((r) => r.name as string)).toEqual(['olive']);
      await second.connection!.end();
      expect((await connectAs(username, password, database)).refused).toBe('ER_ACCESS_DENIED_ERROR');
      await rotated.getByRole('button', { name: 'I have saved it' }).click();

      // Delete: the button waits for the typed name; then the database and its user are gone from MariaDB.
      await card.getByRole('button', { name: `Actions for ${database}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const remove = page.getByRole('dialog', { name: 'Delete this database?' });
      await expect(remove.getByRole('button', { name: 'Delete' })).toBeDisabled();
      await remove.getByLabel(`Type ${database} to confirm`).fill(short);
      await expect(remove.getByRole('button', { name: 'Delete' })).toBeDisabled();
      await remove.getByLabel(`Type ${database} to confirm`).fill(database);
      await remove.getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('heading', { name: 'No databases yet' })).toBeVisible();
      expect(await onHost(database, username)).toEqual({ database: false, user: false });
    } finally {
      await dropFromHost(database, username);
    }
  });

  test('explains the limit: a refused creation says why, and a full server offers no New database', async ({ ownerPage: page, createServer, api, panel }) => {
    const server = await createServer({ database_limit: 1 });
    const id = server.uuid.slice(0, 8);
    const owner = { cookie: panel.owner.cookie };
    const names = [`a_${randomBytes(3).toString('hex')}`, `b_${randomBytes(3).toString('hex')}`];
    try {
      await page.goto(`/server/${id}/databases`);
      await expect(page.getByText('0 of 1 databases used')).toBeVisible();
      await page.getByRole('button', { name: 'New database' }).click();
      const create = page.getByRole('dialog', { name: 'Create a database' });
      await create.getByLabel('Name').fill(names[0]);
      // Meanwhile the one database this server may have is made elsewhere.
      await api.raw.request('POST', `/api/client/servers/${server.uuid}/databases`, { session: owner, body: { name: names[1], remote: '%' } });
      await create.getByRole('button', { name: 'New database' }).click();
      await expect(create.getByRole('alert')).toContainText('This server has as many databases as it may have');
      await create.getByRole('button', { name: 'Cancel' }).click();

      await expect(page.getByText('1 of 1 databases used')).toBeVisible();
      const button = page.getByRole('button', { name: 'New database' });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(/may have one database and has it/);
      await expect(page.getByText('Database limit reached')).toBeVisible();
      await expectAccessibleInBothSchemes(page);
      await shot(page, 'server-databases-limit', ['light']);
    } finally {
      for (const name of names) {
        await dropFromHost(`s${server.id}_${name}`, `u${server.id}_${name}`);
      }
    }
  });
  test('says when a server may have no databases at all (limit -1, what a billing system sets with Pterodactyl\'s 0)', async ({ ownerPage: page, createServer }) => {
    const server = await createServer({ database_limit: -1 });
    await page.goto(`/server/${server.uuid.slice(0, 8)}/databases`);
    await expect(page.getByText('0 databases (none allowed)')).toBeVisible();
    await expect(page.getByText('No databases for this server')).toBeVisible();
    const button = page.getByRole('button', { name: 'New database' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/may not have databases/);
    await shot(page, 'server-databases-none', ['light', 'dark']);
  });

  test('explains a missing host: a refused creation says why, and the page offers no New database until a host has room', async ({ ownerPage: page, createServer, api }) => {
    const server = await createServer({ database_limit: 5 });
    const id = server.uuid.slice(0, 8);
    const [host] = await api.raw.request<{ id: string }[]>('GET', '/api/admin/database-hosts', { session: api.adminSession });
    const name = `c_${randomBytes(3).toString('hex')}`;
    try {
      await page.goto(`/server/${id}/databases`);
      await expect(page.getByText('0 of 5 databases used')).toBeVisible();
      await page.getByRole('button', { name: 'New database' }).click();
      const create = page.getByRole('dialog', { name: 'Create a database' });
      await create.getByLabel('Name').fill(name);
      // Meanwhile the only host stops taking new databases.
      await api.admin('PATCH', `/api/admin/database-hosts/${host.id}`, { maxDatabases: 0 });
      await create.getByRole('button', { name: 'New database' }).click();
      await expect(create.getByRole('alert')).toContainText('No database server can take a database for this server right now');
      await create.getByRole('button', { name: 'Cancel' }).click();

      const button = page.getByRole('button', { name: 'New database' });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(/An administrator needs to add a database host first/);
      await expect(page.getByText('No database host', { exact: true })).toBeVisible();
      await expectAccessible(page);
      await shot(page, 'server-databases-no-host', ['light']);
    } finally {
      await api.admin('PATCH', `/api/admin/database-hosts/${host.id}`, { maxDatabases: null });
      await dropFromHost(`s${server.id}_${name}`, `u${server.id}_${name}`);
    }
    await page.reload();
    await expect(page.getByRole('button', { name: 'New database' })).toBeEnabled();
  });
});

test.describe('network', () => {
  test('edits notes, changes the primary address (the console header follows), adds and removes one within the limit; a reader sees no edit controls', async ({ ownerPage: page, createServer, installed, newNode, newSubuser, api, panel, browser }) => {
    const node = await newNode();
    const free = (await api.raw.request<{ id: string; port: number }[]>('GET', `/api/admin/nodes/${node.id}/allocations`, { session: api.adminSession })).sort((a, b) => a.port - b.port);
    const [primary, second, third] = free;
    const server = await createServer({ node_id: node.id, allocation_id: primary.id, additional_allocation_ids: [second.id, third.id], allocation_limit: 4 });
    await installed(server);
    const id = server.uuid.slice(0, 8);
    const owner = { cookie: panel.owner.cookie };
    const allocations = () => api.raw.request<{ id: string; port: number; notes: string | null; isDefault: boolean }[]>('GET', `/api/client/servers/${server.uuid}/network/allocations`, { session: owner });
    const address = (a: { port: number }) => `0.0.0.0:${a.port}`;

    await page.goto(`/server/${id}/network`);
    await expect(page.getByRole('tab', { name: 'Network', selected: true })).toBeVisible();
    await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(3);
    await expect(page.getByRole('listitem', { name: address(primary) })).toHaveAttribute('data-primary', 'true');
    await expect(page.getByRole('listitem', { name: address(primary) }).getByText('Primary')).toBeVisible();
    await expect(page.getByRole('button', { name: `Copy ${address(second)}` })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    // Notes: edited in place, saved, and stored.
    const card = page.getByRole('listitem', { name: address(second) });
    await card.getByRole('button', { name: `Edit the notes of ${address(second)}` }).click();
    await card.getByLabel(`Notes for ${address(second)}`).fill('Voice chat (TeamSpeak)');
    await card.getByRole('button', { name: 'Save notes' }).click();
    await expect(card.getByTestId('allocation-notes')).toHaveText('Voice chat (TeamSpeak)');
    await expect.poll(async () => (await allocations()).find((a) => a.id === second.id)?.notes).toBe('Voice chat (TeamSpeak)');
    await expectAccessibleInBothSchemes(page);

    // Primary: the badge moves, the API and the console header follow.
    await page.getByRole('button', { name: `Make ${address(third)} the primary address` }).click();
    await expect(page.getByRole('listitem', { name: address(third) })).toHaveAttribute('data-primary', 'true');
    await expect(page.getByRole('listitem', { name: address(primary) })).toHaveAttribute('data-primary', 'false');
    await expect(page.getByRole('button', { name: `Make ${address(primary)} the primary address` })).toBeVisible();
    expect((await allocations()).filter((a) => a.isDefault).map((a) => a.id)).toEqual([third.id]);
    await expectFitsPhone(page, 'Network');
    await shot(page, 'server-network');
    await shot(page, 'server-network', ['mobile']);

    // Add: the node's next free port, up to the limit (4, the primary included); then the button says why not.
    await expect(page.getByText('3 of 4 addresses used')).toBeVisible();
    await page.getByRole('button', { name: 'Add address' }).click();
    const fourth = free[3];
    await expect(page.getByRole('listitem', { name: address(fourth) })).toBeVisible();
    await expect(page.getByText('4 of 4 addresses used')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add address' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Add address' })).toHaveAccessibleDescription(/as many addresses as it may have/);
    expect((await allocations()).map((a) => a.port)).toEqual([primary, second, third, fourth].map((a) => a.port));
    await expectAccessible(page);
    // Remove it again (the primary has no Remove), confirmed.
    await expect(page.getByRole('button', { name: `Remove ${address(third)}` })).toHaveCount(0);
    await page.getByRole('button', { name: `Remove ${address(fourth)}` }).click();
    await page.getByRole('dialog', { name: 'Remove this address?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('listitem', { name: address(fourth) })).toHaveCount(0);
    await expect(page.getByText('3 of 4 addresses used')).toBeVisible();
    expect((await allocations()).map((a) => a.port)).toEqual([primary, second, third].map((a) => a.port));

    await page.getByRole('tab', { name: 'Console' }).click();
    await expect(page.getByRole('button', { name: 'Copy address' })).toBeVisible();
    await expect(page.locator('code', { hasText: address(third) })).toBeVisible();

    // A subuser who may only read allocations: the list and copy, no edit controls.
    const reader = await newSubuser(server.uuid, ['server.view', 'server.allocation.read']);
    const context = await browser.newContext({ baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'UTC' });
    const sub = await context.newPage();
    await signIn(sub, reader);
    await sub.goto(`/server/${id}/network`);
    await expect(sub.getByRole('main').getByRole('listitem')).toHaveCount(3);
    await expect(sub.getByRole('listitem', { name: address(second) }).getByTestId('allocation-notes')).toHaveText('Voice chat (TeamSpeak)');
    await expect(sub.getByRole('button', { name: `Copy ${address(second)}` })).toBeVisible();
    await expect(sub.getByRole('button', { name: /^Edit the notes of/ })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: /the primary address$/ })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: 'Add address' })).toHaveCount(0);
    await expect(sub.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    const refused = await sub.request.post(`${panel.baseURL}/api/client/servers/${id}/network/allocations/${second.id}`, { headers: { Origin: panel.baseURL }, data: { notes: 'mine' } });
    expect(refused.status()).toBe(403);
    await context.close();
  });
});
