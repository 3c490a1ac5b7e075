import { Card, Group, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Rows of a list while it loads; announced once as "Loading…" to screen readers. */
export const ListSkeleton = ({ rows = 5 }: { rows?: number }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')} role="status">
      {Array.from({ length: rows }, (_, i) => (
        <Group key={i} gap="md" wrap="nowrap">
          <Skeleton height={36} circle />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton height={12} width="40%" />
            <Skeleton height={10} width="70%" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
};

/** Cards of a grid while they load. */
export const CardsSkeleton = ({ cards = 4 }: { cards?: number }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('common.loading')} role="status">
      {Array.from({ length: cards }, (_, i) => (
        <Card key={i} withBorder padding="md">
          <Skeleton height={14} width="50%" mb="sm" />
          <Skeleton height={10} mb={6} />
          <Skeleton height={10} width="80%" />
        </Card>
      ))}
    </Stack>
  );
};

/** A whole page while its route code or first data loads. */
export const PageSkeleton = () => {
  const { t } = useTranslation();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t('common.loading')} role="status">
      <Skeleton height={28} width="30%" />
      <Skeleton height={14} width="60%" />
      <Skeleton height={160} />
    </Stack>
  );
};
