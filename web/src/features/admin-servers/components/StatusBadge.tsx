import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminServer } from '@/features/admin-servers/api';

// Filled, shade 9: white text at AA contrast in both schemes.
const COLORS = {
  installing: 'blue.9',
  install_failed: 'red.9',
  reinstall_failed: 'red.9',
  restoring_backup: 'blue.9',
  suspended: 'grape.9',
  installed: 'teal.9',
} as const;

type Known = keyof typeof COLORS;

/** The panel's side of a server's state: installing, install failed, suspended, or installed. */
const StatusBadge = ({ server }: { server: Pick<AdminServer, 'installStatus' | 'suspended'> }) => {
  const { t } = useTranslation();
  const key: Known = server.installStatus && server.installStatus in COLORS ? (server.installStatus as Known) : server.suspended ? 'suspended' : 'installed';
  return (
    <Badge color={COLORS[key]} variant="filled" style={{ flexShrink: 0 }}>
      {t(`adminServers.status.${key}`)}
    </Badge>
  );
};

/** A suspended server that is also installing shows both. */
export const StatusBadges = ({ server }: { server: Pick<AdminServer, 'installStatus' | 'suspended'> }) => (
  <>
    <StatusBadge server={server} />
    {server.installStatus && server.suspended ? <StatusBadge server={{ installStatus: null, suspended: true }} /> : null}
  </>
);
