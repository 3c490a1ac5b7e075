import { ActionIcon, Button, Group, Paper, Progress, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { IconRefresh, IconX } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Operation } from '@/features/files/operations';
import { serverWork } from '@/features/files/operations';
import type { UploadItem } from '@/features/files/upload-queue';
import { ApiError } from '@/lib/api/api-error';
import { describeError } from '@/lib/errors';
import { formatBytes } from '@/lib/format';

/**
 * Names and subjects wrap instead of ending in "…": a person must read which files an operation is
 * about, also at 390 px. Breaks go between words first, inside a long file name only when it must.
 */
const WRAP = { minWidth: 0, flex: 1, overflowWrap: 'anywhere' } as const;

const UploadRow = ({ item, server }: { item: UploadItem; server: string }) => {
  const { t, i18n } = useTranslation();
  const { uploads } = serverWork(server);
  const percent = item.size > 0 ? (item.loaded / item.size) * 100 : item.status === 'done' ? 100 : 0;
  const color = item.status === 'done' ? 'teal' : item.status === 'failed' || item.status === 'refused' ? 'red' : item.status === 'cancelled' ? 'gray' : undefined;
  const errorText =
    item.status === 'refused'
      ? t('files.upload.refused', { size: formatBytes(item.size, i18n.language) })
      : item.error
        ? describeError(new ApiError(item.error.status, item.error.code, item.error.message, item.error.requestId), t, i18n.language).message
        : undefined;
  return (
    <Stack gap={2}>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text size="sm" style={WRAP} title={`${item.directory}/${item.name}`}>
          {item.name}
        </Text>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          <Text size="xs" className="files-muted" style={{ whiteSpace: 'nowrap' }}>
            {t(`files.upload.status.${item.status}`)}
          </Text>
          {item.status === 'queued' || item.status === 'uploading' ? (
            <Tooltip label={t('files.upload.cancel')}>
              <ActionIcon size="sm" variant="subtle" color="gray" aria-label={t('files.upload.cancelName', { name: item.name })} onClick={() => uploads.cancel(item.id)}>
                <IconX size={14} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {item.status === 'failed' || item.status === 'cancelled' ? (
            <Tooltip label={t('files.upload.retry')}>
              <ActionIcon size="sm" variant="subtle" aria-label={t('files.upload.retryName', { name: item.name })} onClick={() => uploads.retry(item.id)}>
                <IconRefresh size={14} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      </Group>
      <Progress value={percent} color={color} size="sm" aria-label={t('files.upload.progress', { name: item.name })} />
      {errorText ? (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {errorText}
          {item.error?.requestId ? ` (${t('common.requestId')}: ${item.error.requestId})` : ''}
        </Text>
      ) : null}
    </Stack>
  );
};

const OperationRow = ({ op }: { op: Operation }) => {
  const { t, i18n } = useTranslation();
  const color = op.status === 'done' ? 'teal' : op.status === 'failed' ? 'red' : op.status === 'unsure' ? 'yellow' : undefined;
  const error = op.status === 'failed' ? describeError(op.error, t, i18n.language) : undefined;
  return (
    <Stack gap={2}>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text size="sm" style={WRAP}>
          <Text span fw={600} inherit>
            {t(`files.ops.kind.${op.kind}`)}:
          </Text>{' '}
          {op.subject}
        </Text>
        <Text size="xs" className="files-muted" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
          {t(`files.ops.status.${op.status}`)}
        </Text>
      </Group>
      <Progress value={100} animated={op.status === 'running'} striped={op.status === 'running'} color={color} size="sm" aria-label={t(`files.ops.kind.${op.kind}`)} />
      {error ? (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }}>
          {error.message}
          {error.requestId ? ` (${t('common.requestId')}: ${error.requestId})` : ''}
        </Text>
      ) : null}
    </Stack>
  );
};

/** Uploads and archive/pull work of this server, with their outcome; stays while the tab changes. */
export const OperationsTray = ({ server }: { server: string }) => {
  const { t } = useTranslation();
  const { uploads, operations } = serverWork(server);
  const uploadItems = useSyncExternalStore(uploads.subscribe, uploads.items);
  const ops = useSyncExternalStore(operations.subscribe, operations.items);
  if (uploadItems.length === 0 && ops.length === 0) {
    return null;
  }
  const busy = uploadItems.some((i) => i.status === 'queued' || i.status === 'uploading') || ops.some((o) => o.status === 'running');
  return (
    <Paper withBorder shadow="md" p="sm" component="section" aria-label={t('files.ops.title')} aria-busy={busy}>
      <Group justify="space-between" mb="xs">
        <Text fw={600} size="sm">
          {t('files.ops.title')}
        </Text>
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          onClick={() => {
            uploads.clearFinished();
            operations.clearFinished();
          }}
        >
          {t('files.ops.clear')}
        </Button>
      </Group>
      <ScrollArea.Autosize mah={240} type="auto">
        <Stack gap="sm" aria-live="polite">
          {ops.map((op) => (
            <OperationRow key={`op-${op.id}`} op={op} />
          ))}
          {uploadItems.map((item) => (
            <UploadRow key={`up-${item.id}`} item={item} server={server} />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
};
