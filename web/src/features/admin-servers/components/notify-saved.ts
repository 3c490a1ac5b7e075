import type { SyncOutcome } from '@/features/admin-servers/api';
import { i18n } from '@/lib/i18n/i18n';
import { notify } from '@/lib/notify';

/** The toast after a saved change: whether the node took it now or gets it on its next sync. */
export const notifySaved = (outcome: SyncOutcome): void => {
  notify(
    outcome.daemonSynced
      ? { color: 'green', message: i18n.t('adminServers.saved') }
      : { color: 'yellow', title: i18n.t('adminServers.savedNotSynced'), message: outcome.syncError ?? '' },
  );
};
