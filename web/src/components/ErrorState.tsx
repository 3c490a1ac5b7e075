import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/CopyButton';
import { describeError } from '@/lib/errors';

interface ErrorStateProps {
  error: unknown;
  /** Shows a Retry button (e.g. a query's refetch). */
  onRetry?: () => void;
  title?: string;
}

/** A failed load or action: what went wrong, the request id to quote (with copy), and Retry. */
export const ErrorState = ({ error, onRetry, title }: ErrorStateProps) => {
  const { t, i18n } = useTranslation();
  const { message, requestId } = describeError(error, t, i18n.language);
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title={title ?? t('errors.title')} role="alert">
      <Stack gap="xs">
        <Text size="sm">{message}</Text>
        {requestId ? (
          <Group gap={4} wrap="nowrap">
            <Text size="xs" c="dimmed">
              {t('common.requestId')}:
            </Text>
            <Code style={{ overflowWrap: 'anywhere' }}>{requestId}</Code>
            <CopyButton value={requestId} label={t('common.copyRequestId')} />
          </Group>
        ) : null}
        {onRetry ? (
          <Group>
            <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRetry}>
              {t('common.retry')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
};
