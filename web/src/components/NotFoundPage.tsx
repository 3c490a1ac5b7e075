import { Button } from '@mantine/core';
import { IconMapQuestion } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';

export const NotFoundPage = () => {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<IconMapQuestion size={28} />}
      title={t('notFound.title')}
      description={t('notFound.description')}
      action={
        <Button component={Link} to="/" variant="light">
          {t('notFound.home')}
        </Button>
      }
    />
  );
};
