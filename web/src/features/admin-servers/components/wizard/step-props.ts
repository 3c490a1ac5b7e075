import { useTranslation } from 'react-i18next';
import type { NodeCapacity } from '@/features/admin-servers/capacity';
import type { WizardForm } from '@/features/admin-servers/wizard';
import { formatBytes } from '@/lib/format';

/** The wizard's problems by field (the panel's names: `owner_id`, `environment.X`). */
export type Errors = Record<string, string>;
export type Patch = (patch: Partial<WizardForm>) => void;

/** What every step gets: the form, a way to change it, and the problems to show. */
export interface StepProps {
  form: WizardForm;
  patch: Patch;
  errors: Errors;
}

export const MIB = 1024 * 1024;

/** `used of limit (free left)` in the reader's units; "not checked" when the overallocation is -1. */
export const useRoomText = () => {
  const { t, i18n } = useTranslation();
  return (room: NodeCapacity['memory']) =>
    room.limit === null
      ? t('adminServers.node.unchecked', { used: formatBytes(room.used * MIB, i18n.language) })
      : t('adminServers.node.room', { used: formatBytes(room.used * MIB, i18n.language), limit: formatBytes(room.limit * MIB, i18n.language), free: formatBytes(Math.max(0, room.free ?? 0) * MIB, i18n.language) });
};
