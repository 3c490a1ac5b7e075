import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '@/components/ErrorState';
import { COUNTED, type Counted, countQuery } from '@/features/admin/api';

const Count = ({ what }: { what: Counted }) => {
  const { t, i18n } = useTranslation();
  const count = useQuery(countQuery(what));
  if (count.isError) {
    return <ErrorState error={count.error} onRetry={() => void count.refetch()} />;
  }
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {t(`admin.overview.${what}`)}
      </Text>
      {count.isPending ? (
        <Skeleton height={32} width={60} mt={4} />
      ) : (
        <Text fz={28} fw={700} data-testid={`count-${what}`}>
          {count.data.toLocaleString(i18n.language)}
        </Text>
      )}
    </Paper>
  );
};

/** The administration's start page: how much the panel holds. */
export const AdminOverview = () => (
  <SimpleGrid cols={{ base: 2, sm: 4 }}>
    {COUNTED.map((what) => (
      <Count key={what} what={what} />
    ))}
  </SimpleGrid>
);
