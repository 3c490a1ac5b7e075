import { notifications, type NotificationData } from '@mantine/notifications';
import { describeError } from '@/lib/errors';
import { i18n } from '@/lib/i18n/i18n';

/** A toast; its close button is named (Mantine leaves it without a name, which screen readers read as "button"). */
export const notify = (data: NotificationData): string => notifications.show({ ...data, closeButtonProps: { 'aria-label': i18n.t('common.dismiss'), ...data.closeButtonProps } });

/** A toast for a failed action that has no place on the page to show its error. */
export const notifyError = (error: unknown): void => {
  const { message, requestId } = describeError(error, i18n.t, i18n.language);
  notify({
    color: 'red',
    title: i18n.t('errors.title'),
    message: requestId ? `${message} (${i18n.t('common.requestId')}: ${requestId})` : message,
  });
};
