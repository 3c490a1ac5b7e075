import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

interface Account {
  email: string;
  password: string;
}

interface Stack {
  appUrl: string;
  controlUrl: string;
  owner: Account;
  admin: Account;
}

const stack = (): Stack => JSON.parse(process.env.E2E_STACK ?? '{}') as Stack;

/** Calls the stack's control API (test/web-e2e/stack.ts): servers, subusers, simulator faults. */
const control = async <T>(path: string, body: unknown = {}): Promise<T> => {
  const res = await fetch(`${stack().controlUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) {
    throw new Error(`control ${path}: ${res.status} ${await res.text()}`);
  }
  return (await res.json()) as T;
};

/** Signs the page's browser context in through the API (the session cookie lands in the context). */
const signIn = async (page: Page, account: Account): Promise<void> => {
  const res = await page.request.post(`${stack().appUrl}/api/auth/sign-in/email`, {
    data: { email: account.email, password: account.password },
    headers: { Origin: stack().appUrl },
  });
  expect(res.status()).toBe(200);
};

interface Fixtures {
  app: { url: string; owner: Account; signIn: (page: Page, account: Account) => Promise<void> };
  sim: {
    /** A fresh installed server of the owner; on the `spare` node for specs that take their node down. */
    newServer: (node?: 'main' | 'spare') => Promise<{ id: string; uuid: string }>;
    newSubuser: (serverUuid: string, permissions: string[]) => Promise<Account>;
    /** Simulator faults (test/wings-sim/README.md) on one node's simulator, reset after each test. */
    setFaults: (node: 'main' | 'spare', faults: Record<string, unknown>) => Promise<void>;
    /** Cuts the server's open console sockets on the simulator; answers how many. */
    dropConsoles: (uuid: string) => Promise<{ dropped: number }>;
  };
  /** axe (WCAG 2.1 A/AA): no serious or critical violation inside `scope` (default: the page's main landmark). */
  axe: (page: Page, scope?: string) => Promise<void>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
  baseURL: async ({}, use) => {
    await use(stack().appUrl);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
  app: async ({}, use, testInfo) => {
    testInfo.skip(Boolean(process.env.E2E_SKIP), process.env.E2E_SKIP);
    await use({ url: stack().appUrl, owner: stack().owner, signIn });
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
  sim: async ({}, use) => {
    // Only the nodes this test faulted are reset: the other worker's test may be using another one.
    const faulted = new Set<string>();
    try {
      await use({
        newServer: (node = 'main') => control('/server', { node }),
        newSubuser: (serverUuid, permissions) => control('/subuser', { serverId: serverUuid, permissions }),
        setFaults: (node, faults) => {
          faulted.add(node);
          return control('/faults', { node, ...faults });
        },
        dropConsoles: (uuid) => control('/drop', { uuid }),
      });
    } finally {
      for (const node of faulted) {
        await control('/reset', { node });
      }
    }
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: none here.
  axe: async ({}, use) => {
    await use(async (page, scope = 'main') => {
      const result = await new AxeBuilder({ page }).include(scope).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  },
});

export { expect };
