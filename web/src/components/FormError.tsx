import { Alert, Code, Group, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { describeError } from '@/lib/errors';

/** A form's failed submit: the message above the submit button, with the request id to quote. */
export const FormError = ({ error }: { error: unknown }) => {
  const { t, i18n } = useTranslation();
  if (!error) {
    return null;
  }
  const { message, requestId } = describeError(error, t, i18n.language);
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert" p="sm">
      <Text size="sm">{message}</Text>
      {requestId ? (
        <Group gap={4} mt={4} wrap="nowrap">
          <Text size="xs" c="dimmed">
            {t('common.requestId')}: <Code>{requestId}</Code>
          </Text>
          <CopyButton value={requestId} label={t('common.copyRequestId')} />
        </Group>
      ) : null}
    </Alert>
  );
};
