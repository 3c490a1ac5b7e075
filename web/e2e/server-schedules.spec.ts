import type { Page } from '@playwright/test';
import { expect, expectAccessibleInBothSchemes, expectFitsPhone, shot, test } from 'e2e/fixtures';

// Schedules (/server/$id/schedules, /schedules/$sid) and activity (/server/$id/activity) in real
// Chromium against the built panel and a Wings simulator of the test's own, whose received
// requests show what a task sent.

const choose = async (page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) => {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

test.describe('schedules and activity', () => {
  test('a schedule made from a preset and then the five fields runs its command on "Run now", pauses and resumes, and its run shows in the activity', async ({
    browser,
    panel,
    api,
    createServer,
    installed,
    newNode,
  }) => {
    // A long walk through two pages, with axe in both schemes at each step.
    test.setTimeout(180_000);
    const node = await newNode();
    const server = await createServer({ node_id: node.id, name: 'Scheduled' });
    await installed(server);
    const id = server.uuid.slice(0, 8);
    const client = `/api/client/servers/${server.uuid}`;
    await api.admin('POST', `${client}/power`, { action: 'start' });
    await expect.poll(() => node.sim.servers.get(server.uuid)?.state, { timeout: 15_000 }).toBe('running');

    // A viewer in New York: every time shows in their zone and, beside it, in the panel's (UTC).
    const context = await browser.newContext({ storageState: panel.ownerState, baseURL: panel.baseURL, locale: 'en-US', timezoneId: 'America/New_York' });
    const page = await context.newPage();
    await page.goto(`/server/${id}/schedules`);
    await expect(page.getByRole('heading', { name: 'No schedules yet' })).toBeVisible();
    await expectAccessibleInBothSchemes(page);

    await page.getByRole('button', { name: 'Create schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a schedule' });
    await dialog.getByLabel('Name').fill('Greeting');
    await expect(dialog.getByRole('combobox', { name: 'Runs', exact: true })).toHaveValue('Every day');
    await dialog.getByLabel('At (UTC)').fill('04:30');
    const preview = dialog.getByTestId('cron-preview');
    await expect(preview.getByTestId('cron-words')).toHaveText('At 04:30 (UTC)');
    await expect(preview.getByText('30 4 * * *', { exact: true })).toBeVisible();
    const runs = preview.getByTestId('next-runs').getByRole('listitem');
    await expect(runs).toHaveCount(5);
    for (const run of await runs.all()) {
      await expect(run).toHaveText(/(11:30 PM EST|12:30 AM EDT) · .* 4:30 AM UTC$/);
    }
    await choose(page, dialog, 'Runs', 'Every week');
    await choose(page, dialog, 'On', 'Friday');
    await expect(preview.getByText('30 4 * * 5', { exact: true })).toBeVisible();
    await expect(preview.getByTestId('cron-words')).toHaveText('At 04:30, only on Friday (UTC)');

    // The five fields start from the preset; what the panel would refuse is said at once.
    await choose(page, dialog, 'Runs', 'Custom (five fields)');
    await expect(dialog.getByLabel('Minute')).toHaveValue('30');
    await expect(dialog.getByLabel('Day of week')).toHaveValue('5');
    await dialog.getByLabel('Minute').fill('*/15');
    await dialog.getByLabel('Hour').fill('24');
    await expect(dialog.getByText('Use *, 0–23, a list, a range or a step')).toBeVisible();
    await expect(preview.getByRole('alert')).toHaveText('Fix the fields to see the next runs.');
    const create = dialog.getByRole('button', { name: 'Create schedule' });
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Hour').fill('4-5');
    await dialog.getByLabel('Day of week').fill('*');
    await dialog.getByLabel('Day of month').fill('30');
    await dialog.getByLabel('Month', { exact: true }).fill('2');
    await expect(preview.getByRole('alert')).toHaveText('These fields never name a real date (like 30 February).');
    await expect(create).toBeDisabled();
    await dialog.getByLabel('Day of month').fill('*');
    await dialog.getByLabel('Month', { exact: true }).fill('*');
    await expect(preview.getByTestId('cron-words')).toHaveText('Every 15 minutes, between 04:00 and 05:59 (UTC)');
    await expect(runs).toHaveCount(5);
    await expect(runs.first()).toContainText('UTC');
    await expectAccessibleInBothSchemes(page);
    await shot(page, 'server-schedule-form', ['light']);
    await create.click();

    // A new schedule opens on its page, where its tasks are added.
    await expect(page).toHaveURL(/\/server\/[^/]+\/schedules\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Greeting' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No tasks yet' })).toBeVisible();
    const [made] = await api.admin('GET', `${client}/schedules`).then((d) => d as unknown as { id: string; cron: string; is_active: boolean }[]);
    expect(made).toEqual(expect.objectContaining({ cron: '*/15 4-5 * * *', is_active: true }));

    const addTask = async (fill: (task: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await page.getByRole('button', { name: 'Add task' }).first().click();
      const task = page.getByRole('dialog', { name: 'Add a task' });
      await fill(task);
      await task.getByRole('button', { name: 'Add task' }).click();
      await expect(task).toBeHidden();
    };
    await addTask(async (task) => {
      await task.getByLabel('Command').fill('say hello');
      await expect(task.getByLabel('Time offset (seconds)')).toHaveValue('0');
    });
    await addTask(async (task) => {
      await choose(page, task, 'Action', 'Power action');
      await choose(page, task, 'Power action', 'Restart');
      await task.getByLabel('Time offset (seconds)').fill('3601');
      await expect(task.getByRole('button', { name: 'Add task' })).toBeDisabled();
      await task.getByLabel('Time offset (seconds)').fill('90');
      await task.getByRole('checkbox', { name: 'Continue on failure' }).check();
    });
    const tasks = page.getByRole('list', { name: 'Tasks' }).getByRole('listitem');
    await expect(tasks).toHaveCount(2);
    await expect(tasks.nth(0)).toContainText('Task 1 · Send a command');
    await expect(tasks.nth(0)).toContainText('say hello');
    await expect(tasks.nth(0)).toContainText('Right away · Stops on failure');
    await expect(tasks.nth(1)).toContainText('Task 2 · Power action');
    await expect(tasks.nth(1)).toContainText('Restart');
    await expect(tasks.nth(1)).toContainText(/After 1 min 30 sec? · Continue on failure/);
    // No task edit in the contract: the second goes again.
    await page.getByRole('button', { name: 'Delete task 2' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this task?' });
    await confirm.getByRole('button', { name: 'Delete task' }).click();
    await expect(tasks).toHaveCount(1);
    // Axe would read the dialog's fading text.
    await expect(confirm).toBeHidden();
    await expectAccessibleInBothSchemes(page);

    // Run now: the command reaches the node, and the run's end shows as the last run.
    const commands = () => node.sim.requestsTo(`/api/servers/${server.uuid}/commands`, 'POST').flatMap((r) => (JSON.parse(r.body ?? '{}') as { commands: string[] }).commands);
    expect(commands()).toEqual([]);
    await expect(page.getByTestId('last-run')).toHaveText('Last run: Never');
    await page.getByRole('button', { name: 'Run now: Greeting' }).click();
    await expect.poll(commands, { timeout: 15_000 }).toEqual(['say hello']);
    await expect(page.getByTestId('last-run')).toHaveText(/^Last run: .* E[SD]T · .* UTC$/, { timeout: 15_000 });

    // Pause and resume, as the panel records them.
    await page.getByRole('button', { name: 'Pause: Greeting' }).click();
    await expect(page.getByTestId('schedule-state')).toHaveText('Paused');
    await expect(page.getByText('Next run: — (paused)')).toBeVisible();
    await expect.poll(async () => ((await api.admin('GET', `${client}/schedules/${made.id}`)) as { is_active: boolean }).is_active).toBe(false);
    await page.getByRole('button', { name: 'Resume: Greeting' }).click();
    await expect(page.getByTestId('schedule-state')).toHaveText('Active');
    await expect.poll(async () => ((await api.admin('GET', `${client}/schedules/${made.id}`)) as { is_active: boolean }).is_active).toBe(true);
    await expectFitsPhone(page, 'Greeting');
    await shot(page, 'server-schedule');

    await page.getByRole('link', { name: 'All schedules' }).click();
    const card = page.getByRole('listitem', { name: 'Greeting' });
    await expect(card).toContainText('Every 15 minutes, between 04:00 and 05:59 (UTC)');
    await expect(card).toContainText(/Next run: .* E[SD]T · .* UTC/);
    await expect(card.getByTestId('schedule-state')).toHaveText('Active');
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, 'Schedules');
    await shot(page, 'server-schedules');
    await shot(page, 'server-schedules', ['mobile']);

    // Activity: the run, filtered to the schedule events, with the task's command in its details.
    await page.getByRole('tablist', { name: 'Server pages' }).getByRole('tab', { name: 'Activity' }).click();
    await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
    await choose(page, page.getByRole('main'), 'Show', 'Schedules and their runs');
    await expect(page).toHaveURL(/event=server\.schedule\.\*/);
    const entries = page.getByRole('main').getByRole('listitem');
    await expect(entries.first()).toBeVisible();
    const whats = await page.getByTestId('activity-what').allTextContents();
    expect(whats).toEqual(expect.arrayContaining(['Ran a schedule by hand', 'A schedule run started', 'A schedule task ran', 'A schedule run ended', 'Created a schedule', 'Changed a schedule']));
    expect(whats).not.toContain('Started the server');
    const ran = page.locator('li[data-event="server.schedule.task.success"]');
    await expect(ran).toContainText('Schedule');
    await ran.getByText('Details').click();
    await expect(ran.locator('pre')).toContainText('"payload": "say hello"');
    await expectAccessibleInBothSchemes(page);

    // Paging keeps the filter: 30 console commands, 25 a page.
    for (let i = 0; i < 30; i++) {
      await api.admin('POST', `${client}/command`, { command: `say line ${i}` });
    }
    await choose(page, page.getByRole('main'), 'Show', 'Console commands');
    await expect(page.getByText('30 events')).toBeVisible();
    await expect(page.getByTestId('activity-what')).toHaveCount(25);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page).toHaveURL(/event=server\.console\.\*/);
    await expect(page.getByTestId('activity-what')).toHaveCount(5);
    await page.reload();
    await expect(page.getByTestId('activity-what')).toHaveCount(5);
    await expect(page.locator('li[data-event]').last()).toContainText('say line 0');
    // One event by its name: the raw name is a button that keeps only it.
    await page.getByRole('button', { name: 'Show only this event: server.console.command' }).first().click();
    await expect(page).toHaveURL(/event=server\.console\.command$/);
    await expect(page.getByRole('combobox', { name: 'Show', exact: true })).toHaveValue('Only server.console.command');
    await page.goBack();
    await expect(page).toHaveURL(/page=2/);
    await page.getByRole('button', { name: 'Show all events' }).click();
    await expect(page).not.toHaveURL(/event=/);
    await expect(page.getByTestId('activity-what').first()).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await expectFitsPhone(page, 'Activity');
    await shot(page, 'server-activity');
    await shot(page, 'server-activity', ['mobile']);
    await context.close();
  });
});
