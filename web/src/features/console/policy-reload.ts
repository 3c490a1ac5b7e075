// The page's content-security policy names the nodes of the servers its user could open when it was
// loaded (the panel writes it per user). A console on a node the page does not name (a server shared
// since, a node added or moved) is blocked by the browser before it connects: loading the page again
// brings a policy that names it. Once per node origin, so a policy that still does not name it cannot
// reload the page over and over.

const RELOADED_FOR = 'hatchery.console.policy-reload';

interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
}

/** The origin of a blocked URL (`wss://node:8080`), or null when it is not a URL. */
const originOf = (url: string): string | null => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/**
 * Handles a `securitypolicyviolation` of connect-src: reloads the page unless it already did for the
 * same origin. Returns whether it reloaded.
 */
export const reloadForBlockedConnection = (event: { effectiveDirective: string; blockedURI: string }, deps: ReloadDeps): boolean => {
  if (event.effectiveDirective !== 'connect-src') {
    return false;
  }
  const origin = originOf(event.blockedURI);
  if (origin === null || deps.storage.getItem(RELOADED_FOR) === origin) {
    return false;
  }
  deps.storage.setItem(RELOADED_FOR, origin);
  deps.reload();
  return true;
};

/** A console connected: a later block (a node moved again) may reload once more. */
export const forgetPolicyReload = (deps: Pick<ReloadDeps, 'storage'>): void => {
  deps.storage.removeItem(RELOADED_FOR);
};
