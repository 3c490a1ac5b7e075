import { useEffect, useState } from 'react';
import { ConsoleClient, type ConsoleState, type ConsoleStats } from '@/features/console/console-client';
import { openBrowserSocket } from '@/lib/browser-socket';
import { fetchConsoleCredentials } from '@/features/console/api';
import { forgetPolicyReload, reloadForBlockedConnection } from '@/features/console/policy-reload';

interface ConsoleView {
  client: ConsoleClient | null;
  state: ConsoleState;
  /** The server's state as the node reports it; null until the first `status`. */
  status: string | null;
  stats: ConsoleStats | null;
}

/** One console connection for as long as the page shows this server; closed (for good) when it leaves. */
export const useConsole = (serverId: string): ConsoleView => {
  const [view, setView] = useState<ConsoleView>({ client: null, state: { phase: 'idle' }, status: null, stats: null });
  useEffect(() => {
    const client = new ConsoleClient({
      fetchCredentials: () => fetchConsoleCredentials(serverId),
      createSocket: openBrowserSocket,
      pageProtocol: window.location.protocol,
      isOnline: () => navigator.onLine,
    });
    const reloadDeps = { storage: window.sessionStorage, reload: () => window.location.reload() };
    const off = client.on((event) => {
      if (event.type === 'state' && client.state.phase === 'connected') {
        forgetPolicyReload(reloadDeps);
      }
      if (event.type === 'state' || event.type === 'status' || event.type === 'stats') {
        setView({ client, state: client.state, status: client.status, stats: client.stats });
      }
    });
    // The node is not in the page's policy (access or nodes changed since it loaded): load the page again.
    const onViolation = (event: SecurityPolicyViolationEvent) => void reloadForBlockedConnection(event, reloadDeps);
    document.addEventListener('securitypolicyviolation', onViolation);
    setView({ client, state: client.state, status: null, stats: null });
    client.start();
    return () => {
      document.removeEventListener('securitypolicyviolation', onViolation);
      off();
      client.close();
    };
  }, [serverId]);
  return view;
};
