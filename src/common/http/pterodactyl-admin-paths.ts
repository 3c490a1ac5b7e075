import { DECIMAL_ID } from 'src/common/validation/decimal-id.pipe';

/** `/view/{id}` pages whose integer id is ours too (servers, users and nodes keep Pterodactyl's ids), with their sub-pages as our tabs. */
const VIEWS: Record<string, { to: string; tabs: Record<string, string | undefined> }> = {
  servers: { to: '/admin/servers', tabs: { details: undefined, build: 'build', startup: 'startup', database: undefined, mounts: undefined, manage: 'manage', delete: 'manage' } },
  users: { to: '/admin/users', tabs: {} },
  nodes: { to: '/admin/nodes', tabs: { settings: undefined, configuration: 'configuration', allocation: 'allocations', servers: 'servers', 'system-information': undefined } },
};

/** Pterodactyl's admin pages whose ids are not ours (or that have no page of their own here): the list they belong to. */
const LISTS: [RegExp, string][] = [
  [/^\/admin\/users\/new$/, '/admin/users'],
  [/^\/admin\/nodes\/new$/, '/admin/nodes'],
  [/^\/admin\/locations\/view\/\d+$/, '/admin/locations'],
  [/^\/admin\/nests\/(?:new|view\/\d+|egg\/(?:new|\d+(?:\/(?:export|variables|scripts))?))$/, '/admin/nests'],
  [/^\/admin\/databases(?:\/view\/\d+)?$/, '/admin/database-hosts'],
  [/^\/admin\/api(?:\/new)?$/, '/admin/application-keys'],
  [/^\/admin\/settings\/(?:mail|advanced)$/, '/admin/settings'],
];

/**
 * Where a Pterodactyl admin address lands in Hatchery's web UI, for the links billing modules
 * print (WHMCS's "Go to Service" is `/admin/servers/view/{id}`); null when the path is not one,
 * or is already ours (`/admin/servers`, `/admin/users`, `/admin/nodes`, `/admin/locations`,
 * `/admin/nests`, `/admin/servers/new`, `/admin/settings` have the same address here). An id that names nothing
 * lands on our page for it, which says so; no lookup here, so the redirect tells a caller
 * who has not signed in nothing about which ids exist.
 */
export const pterodactylAdminRedirect = (url: string): string | null => {
  const path = url.split('?')[0].replace(/\/+$/, '');
  const view = /^\/admin\/(servers|users|nodes)\/view\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (view) {
    const [, kind, id, sub] = view;
    const { to, tabs } = VIEWS[kind];
    if (!DECIMAL_ID.test(id) || (sub !== undefined && !Object.hasOwn(tabs, sub))) {
      return null;
    }
    const tab = sub === undefined ? undefined : tabs[sub];
    return `${to}/${id}${tab ? `?tab=${tab}` : ''}`;
  }
  for (const [pattern, to] of LISTS) {
    if (pattern.test(path)) {
      return to;
    }
  }
  return null;
};
