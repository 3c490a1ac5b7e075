import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxeResults, RunOptions } from 'axe-core';
import { test as base, expect, type Browser, type Locator, type Page } from '@playwright/test';
import { WingsSimulator } from 'test/wings-sim/simulator';
import { e2eEnv, PanelApi, type E2eEnv, type Session } from 'e2e/panel-api';
import { freePort } from 'e2e/panel-process';

interface NewUser {
  id: string;
  email: string;
  username: string;
  password: string;
}

interface Fixtures {
  panel: E2eEnv;
  /** The panel's API as the administrator (session). */
  api: { admin: (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>; raw: PanelApi; adminSession: Session };
  /** A page signed in as the administrator / the owner (saved sessions, no sign-in per test). */
  adminPage: Page;
  ownerPage: Page;
  /** A fresh account (unique e-mail) made through the admin API. */
  newUser: (options?: { admin?: boolean; name?: string }) => Promise<NewUser>;
  /** A fresh Paper server of the owner on the simulator, made through the admin API. */
  createServer: (body?: Record<string, unknown>) => Promise<{ id: string; uuid: string; name: string }>;
  /** Waits until the simulator has installed the server (its install status clears). */
  installed: (server: { id: string }) => Promise<void>;
  /** A subuser of the owner's server with these permissions (a fresh account, added by the owner). */
  newSubuser: (serverUuid: string, permissions: string[]) => Promise<NewUser>;
  /**
   * A node with its own Wings simulator in this worker, stopped after the test: its faults and
   * `dropConsoles` are the test's to use without disturbing the shared node of the other specs.
   */
  newNode: (options?: { uploadSizeMiB?: number }) => Promise<{ id: string; sim: WingsSimulator }>;
  /**
   * Where a server's files are on its simulator's disk (the shared node's or a `newNode` one's), for a
   * test to put files in and read what the page wrote.
   */
  volume: (server: { uuid: string }) => string;
}

interface TestScoped {
  /** The simulators `newNode` started in this test. */
  ownSims: WingsSimulator[];
}

/** Signs the page's browser context in through the API (the session cookie lands in the context). */
export const signIn = async (page: Page, account: { email: string; password: string }): Promise<void> => {
  const { baseURL } = e2eEnv();
  const res = await page.request.post(`${baseURL}/api/auth/sign-in/email`, { data: { email: account.email, password: account.password }, headers: { Origin: baseURL } });
  expect(res.status(), `sign-in of ${account.email}`).toBe(200);
};

const pageFor = async (browser: Browser, storageState: string, baseURL: string, use: (page: Page) => Promise<void>) => {
  const context = await browser.newContext({ storageState, baseURL, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  await use(page);
  await context.close();
};

export const test = base.extend<Fixtures & TestScoped>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this pattern
  panel: async ({}, use) => {
    await use(e2eEnv());
  },
  baseURL: async ({ panel }, use) => {
    await use(panel.baseURL);
  },
  api: async ({ panel }, use) => {
    const raw = new PanelApi(panel.baseURL);
    const adminSession = { cookie: panel.admin.cookie };
    await use({ raw, adminSession, admin: (method, path, body) => raw.request(method, path, { session: adminSession, body }) });
  },
  adminPage: async ({ browser, panel }, use) => {
    await pageFor(browser, panel.adminState, panel.baseURL, use);
  },
  ownerPage: async ({ browser, panel }, use) => {
    await pageFor(browser, panel.ownerState, panel.baseURL, use);
  },
  newUser: async ({ api }, use) => {
    await use(async (options = {}) => {
      const suffix = randomBytes(4).toString('hex');
      const user = { email: `user-${suffix}@hatchery.test`, username: `user_${suffix}`, password: `password-${suffix}` };
      const made = await api.admin('POST', '/api/admin/users', { ...user, name: options.name ?? `User ${suffix}`, admin: options.admin ?? false });
      return { id: String(made.id), ...user };
    });
  },
  installed: async ({ api }, use) => {
    await use(async (server) => {
      await expect.poll(async () => (await api.admin('GET', `/api/admin/servers/${server.id}`)).installStatus, { timeout: 15_000 }).toBeNull();
    });
  },
  newSubuser: async ({ api, panel, newUser }, use) => {
    await use(async (serverUuid, permissions) => {
      const user = await newUser();
      const ownerSession = { cookie: panel.owner.cookie };
      await api.raw.request('POST', `/api/client/servers/${serverUuid}/users`, { session: ownerSession, body: { email: user.email, permissions } });
      return user;
    });
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads which fixtures a fixture needs from this pattern
  ownSims: async ({}, use) => {
    const sims: WingsSimulator[] = [];
    try {
      await use(sims);
    } finally {
      await Promise.all(sims.map((sim) => sim.stop()));
    }
  },
  volume: async ({ panel, ownSims }, use) => {
    await use((server) => ownSims.map((sim) => sim.servers.get(server.uuid)?.fs.root).find(Boolean) ?? join(panel.simDataDir, 'volumes', server.uuid));
  },
  newNode: async ({ api, panel, ownSims: sims }, use) => {
    await use(async (options = {}) => {
        const suffix = randomBytes(3).toString('hex');
        const key = await api.admin('POST', '/api/account/api-keys', { name: `node ${suffix}`, permissions: ['nodes.read'] });
        const location = ((await api.raw.request<{ id: string }[]>('GET', '/api/admin/locations', { session: api.adminSession })) ?? [])[0];
        // A node an earlier test made keeps its port after its simulator stopped, and the system may hand
        // that port out again (the panel then answers 409 NODE_BASE_URL_TAKEN): another free port is taken.
        const register = async (attempt: number): Promise<{ port: number; node: Record<string, unknown> }> => {
          const port = await freePort();
          try {
            const node = await api.admin('POST', '/api/admin/nodes', {
              name: `own ${suffix}`,
              fqdn: '127.0.0.1',
              scheme: 'http',
              daemonListen: port,
              memory: 16384,
              disk: 100000,
              locationId: location.id,
              ...(options.uploadSizeMiB === undefined ? {} : { uploadSize: options.uploadSizeMiB }),
            });
            return { port, node };
          } catch (e) {
            if (attempt >= 5 || !String(e).includes('NODE_BASE_URL_TAKEN')) {
              throw e;
            }
            return register(attempt + 1);
          }
        };
        const { port, node } = await register(1);
        await api.admin('POST', `/api/admin/nodes/${String(node.id)}/allocations`, { ip: '0.0.0.0', ports: ['27100-27110'] });
        const config = await api.raw.request<{ token_id: string; token: string }>('GET', `/api/admin/daemon/nodes/${String(node.id)}/configuration`, { apiKey: String(key.key) });
        const sim = new WingsSimulator({
          panelUrl: panel.baseURL,
          tokenId: config.token_id,
          token: config.token,
          port,
          allowedOrigins: [panel.baseURL],
          // The node's upload cap, as Wings gets it in its configuration (api.upload_limit).
          uploadLimitMb: options.uploadSizeMiB,
          remoteTimeoutMs: 5000,
          timing: { lineDelayMs: 5, statsIntervalMs: 1000, installDurationMs: 20, tokenCheckIntervalMs: 250 },
        });
        await sim.start();
        sims.push(sim);
        return { id: String(node.id), sim };
    });
  },
  createServer: async ({ api, panel }, use) => {
    await use(async (body = {}) => {
      test.skip(!panel.eggId, 'the Paper egg fixture is missing (set HATCHERY_EGG_FIXTURES)');
      const made = await api.admin('POST', '/api/admin/servers', {
        name: `Survival ${randomBytes(2).toString('hex')}`,
        owner_id: panel.owner.id,
        node_id: panel.nodeId,
        egg_id: panel.eggId,
        memory: 2048,
        disk: 10240,
        cpu: 200,
        environment: { SERVER_JARFILE: 'paper.jar', MINECRAFT_VERSION: 'latest', BUILD_NUMBER: 'latest' },
        ...body,
      });
      return made as unknown as { id: string; uuid: string; name: string };
    });
  },
});

export { expect };

/**
 * No CSS transition is running. A colour read while one runs is neither the old nor the new one: a scan
 * right after the scheme changed read the dark page's links as black (#000 on #242424), and one during
 * a toast's fade its text as too faint (#808080 on #292929).
 */
const transitionsSettled = (page: Page): Promise<void> =>
  expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a instanceof CSSTransition && a.playState === 'running').length), {
      message: `CSS transitions still running on ${page.url()}`,
    })
    .toBe(0);

/** The axe rules whose outcome depends on the colours painted, not on the document: all a scheme changes. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page, put into each frame of the document once. @axe-core/playwright's
 * AxeBuilder injects axe's 580 kB again at every scan and finishes each in a new blank page, so every
 * scan ran axe cold: ≈ 1 s a scan, a third of the browser tests' time. A document scanned again (the app
 * routes without reloading) reuses its axe, warm: ≈ 0.2 s. The rules and what they report are axe's own.
 */
const runAxe = async (page: Page, options: RunOptions): Promise<AxeResults> => {
  for (const frame of page.frames()) {
    if (!(await frame.evaluate(() => 'axe' in window))) {
      await frame.evaluate(AXE_SOURCE);
    }
  }
  return page.evaluate((opts) => (window as unknown as { axe: { run: (context: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(document, opts), options);
};

/**
 * The axe rules whose outcome depends on where things are laid out, not on the document: the colours
 * painted behind each text, and the room around each target (WCAG 2.2 target size).
 */
const LAYOUT_RULES = [...COLOUR_RULES, 'target-size'];

/**
 * No serious or critical axe violations on the page as it is now (WCAG 2.x A/AA rules). `colours`:
 * only the rules that read colours, for the same document repainted in the other scheme, whose
 * structure the full scan in the first scheme has already checked. `layout`: only the rules a narrower
 * viewport can change, for a document a full scan has checked at another width.
 */
export const expectAccessible = async (page: Page, { only }: { only?: 'colours' | 'layout' } = {}): Promise<void> => {
  const scan = async () => {
    await transitionsSettled(page);
    // Only violations come back in full: passes and incomplete results would each bring every node they
    // matched, with its HTML, across to the test runner, and nothing here reads them.
    const results = await runAxe(page, {
      resultTypes: ['violations'],
      runOnly: only ? { type: 'rule', values: only === 'colours' ? COLOUR_RULES : LAYOUT_RULES } : { type: 'tag', values: WCAG_TAGS },
    });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 120)} ${n.failureSummary ?? ''}`).slice(0, 5) }));
  };
  // A toast whose timer ran out while axe read its colours was read mid-fade (contrast 1.07): a second
  // scan once nothing moves tells such a passing moment from a fault, which is still there.
  const first = await scan();
  expect(first.length === 0 ? first : await scan(), `axe violations on ${page.url()}`).toEqual([]);
};

/**
 * The page does not scroll sideways (a 390 px phone must not need it), once its layout has followed a
 * resize: components that measure their width re-render a frame or two after the viewport changes.
 */
export const expectNoHorizontalScroll = async (page: Page): Promise<void> => {
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await expect.poll(overflow, { message: `horizontal overflow on ${page.url()}` }).toBeLessThanOrEqual(0);
};

/** A dialog whose opening transition has finished (axe reads colours mid-fade as too faint). */
export const openDialog = async (page: Page, name: string): Promise<Locator> => {
  const dialog = page.getByRole('dialog', { name });
  await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  return dialog;
};

/** Picks an option of a Mantine select by typing into it (a string names the option exactly: other tests add look-alikes). */
export const chooseOption = async (page: Page, label: string, typed: string, option: string | RegExp): Promise<void> => {
  const input = page.getByRole('combobox', { name: label, exact: true });
  const choice = page.getByRole('option', { name: option, exact: typeof option === 'string' });
  // On a phone the dropdown can close under the click (the page reflowed beneath it): then it is
  // opened and searched again, rather than waiting out the test for an option no longer shown.
  await expect(async () => {
    if (!(await choice.isVisible())) {
      await input.click();
      await input.fill(typed);
    }
    await choice.click({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
};

/**
 * Axe in the light scheme, then the colour rules in the dark one: the page follows the emulated scheme
 * and repaints in place, the same document in other colours.
 */
export const expectAccessibleInBothSchemes = async (page: Page): Promise<void> => {
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expectAccessible(page, { only: 'colours' });
  await page.emulateMedia({ colorScheme: null });
};

/**
 * The page at 390 px, loaded afresh at that width (the shell's navbar collapses on load): its heading
 * shows, nothing scrolls sideways, and every tab bar keeps its selected tab in view. `whilePhone` runs
 * at that width (e.g. a screenshot); afterwards the page is loaded again at its former size.
 */
export const expectFitsPhone = async (page: Page, heading: string | RegExp, whilePhone?: () => Promise<void>): Promise<void> => {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  const headingShows = () => expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  // Chromium restores the scroll position on a reload (now and then after the checks below began); a
  // phone opening the page sees its top.
  await page.evaluate(() => {
    history.scrollRestoration = 'manual';
  });
  await page.reload();
  await headingShows();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoHorizontalScroll(page);
  for (const tab of await page.getByRole('tab', { selected: true }).all()) {
    await expect(tab).toBeInViewport({ ratio: 0.9 });
  }
  await whilePhone?.();
  await page.setViewportSize(size);
  await page.reload();
  await headingShows();
};

/**
 * Saves docs/screenshots/<file> when `npm run docs:screenshots` runs the walks; a plain test run takes
 * no screenshot. Returns whether it took one.
 */
export const docScreenshot = async (page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<boolean> => {
  const { screenshotsDir } = e2eEnv();
  if (!screenshotsDir) {
    return false;
  }
  await page.screenshot({ path: join(screenshotsDir, file), animations: 'disabled', ...options });
  return true;
};

type Variant = 'light' | 'dark' | 'mobile';

/**
 * With `npm run docs:screenshots`, saves docs/screenshots/<name>-<variant>.png for the README: light and dark at the current size,
 * and `mobile` at 390 × 844 in light. The page follows the system scheme (nothing stored), so the
 * emulated one repaints it in place: no reload, nothing typed is lost.
 */
export const shot = async (page: Page, name: string, variants: Variant[] = ['light', 'dark']): Promise<void> => {
  if (!e2eEnv().screenshotsDir) {
    return;
  }
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  expect(await page.evaluate(() => window.localStorage.getItem('hatchery-color-scheme')), 'shot() needs the system colour scheme').toBeNull();
  for (const variant of variants) {
    const scheme = variant === 'dark' ? 'dark' : 'light';
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(variant === 'mobile' ? { width: 390, height: 844 } : size);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await docScreenshot(page, `${name}-${variant}.png`);
  }
  await page.emulateMedia({ colorScheme: null });
  await page.setViewportSize(size);
};
