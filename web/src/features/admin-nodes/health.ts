import type { AdminNode } from '@/features/admin-nodes/api';

/**
 * What a node's daemon looks like from the panel: being asked, answering, not answering yet because Wings
 * has not been started yet with the node's configuration, or not answering although it was heard from.
 */
type NodeConnection = 'checking' | 'healthy' | 'waiting' | 'unreachable';

export const nodeConnection = (node: Pick<AdminNode, 'daemonContactedAt'>, system: { isPending: boolean; isError: boolean }): NodeConnection => {
  if (system.isPending) {
    return 'checking';
  }
  if (!system.isError) {
    return 'healthy';
  }
  return node.daemonContactedAt === null ? 'waiting' : 'unreachable';
};
