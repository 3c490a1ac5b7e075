import type { ConsoleDiagnosis, ConsoleState } from '@/features/console/console-client';
import type { LiveServerState } from '@/lib/live-status';

/** What the console page shows about the server and its node. */
interface ConsoleHealth {
  /** A `console.status.*` key: the node's word for the server, or `unreachable`. */
  status: string;
  /** The node is not answering: power actions and commands cannot reach it. */
  nodeDown: boolean;
  /** The alert under the status line, if any. */
  diagnosis: ConsoleDiagnosis | undefined;
}

/**
 * The console's own socket goes straight to the node, and a node that hangs keeps it connecting (or
 * quiet) for minutes. The panel's live status (`/api/ws`, as on the dashboard) polls the node with
 * LIVE_STATUS_TIMEOUT_MS, so it says "not answering" as soon as the dashboard does: that wins over
 * whatever the console socket last said.
 */
export const consoleHealth = (state: ConsoleState, nodeStatus: string | null, panelStatus: string, live: LiveServerState | undefined): ConsoleHealth => {
  const own = state.phase === 'failed' || state.phase === 'reconnecting' ? state.diagnosis : undefined;
  if (live?.kind === 'unreachable') {
    // The console's reasons that say more than "not answering" are kept (access removed, suspended ...).
    const keep = own && own.kind !== 'unreachable' && own.kind !== 'connection-lost';
    return { status: 'unreachable', nodeDown: true, diagnosis: keep ? own : { kind: 'node-down' } };
  }
  return { status: nodeStatus ?? panelStatus, nodeDown: false, diagnosis: own };
};
