import type { AuditEntry } from '@/features/admin-audit/api';
import en from '@/lib/i18n/en.json';

type KnownActionKey = keyof typeof en.adminAudit.actions;

/** The key under `adminAudit.actions` of an action's words (`server.details.updated` → `server_details_updated`), or null for an action without words. */
export const actionKey = (action: string): KnownActionKey | null => {
  const key = action.replaceAll('.', '_');
  return Object.hasOwn(en.adminAudit.actions, key) ? (key as KnownActionKey) : null;
};

/** Where a target's administration lives, for a link; null when it has no page or is gone. */
type TargetLink =
  | { to: '/admin/users/$uid'; params: { uid: string } }
  | { to: '/admin/servers/$sid'; params: { sid: string } }
  | { to: '/admin/nodes/$nid'; params: { nid: string }; search?: { tab: 'allocations' } }
  | { to: '/admin/nests/$nestId'; params: { nestId: string } }
  | { to: '/admin/eggs/$eggId'; params: { eggId: string } }
  | { to: '/admin/eggs/$eggId/variables'; params: { eggId: string } }
  | { to: '/admin/locations' }
  | { to: '/admin/database-hosts' }
  | { to: '/admin/mounts/$mountId'; params: { mountId: string } }
  | { to: '/admin/backup-hosts' };

export const targetLink = (entry: Pick<AuditEntry, 'action' | 'target'>): TargetLink | null => {
  const { type, id, parentId } = entry.target;
  // A deleted target's page is gone; a deleted egg variable or allocation still has its egg or node.
  if (entry.action.endsWith('.deleted') && type !== 'egg_variable' && type !== 'allocation') {
    return null;
  }
  switch (type) {
    case 'user':
      return { to: '/admin/users/$uid', params: { uid: id } };
    case 'server':
      return { to: '/admin/servers/$sid', params: { sid: id } };
    case 'node':
      return { to: '/admin/nodes/$nid', params: { nid: id } };
    case 'nest':
      return { to: '/admin/nests/$nestId', params: { nestId: id } };
    case 'egg':
      return { to: '/admin/eggs/$eggId', params: { eggId: id } };
    case 'egg_variable':
      return parentId ? { to: '/admin/eggs/$eggId/variables', params: { eggId: parentId } } : null;
    case 'allocation':
      return parentId ? { to: '/admin/nodes/$nid', params: { nid: parentId }, search: { tab: 'allocations' } } : null;
    case 'location':
      return { to: '/admin/locations' };
    case 'database_host':
      return { to: '/admin/database-hosts' };
    case 'mount':
      return { to: '/admin/mounts/$mountId', params: { mountId: id } };
    case 'backup_host':
      return { to: '/admin/backup-hosts' };
    default:
      return null;
  }
};
