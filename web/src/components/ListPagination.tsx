import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface ListPaginationProps {
  /** How many pages there are: nothing is drawn for one. */
  total: number;
  value: number;
  onChange: (page: number) => void;
  /** The navigation's accessible name, e.g. "Pages of servers". */
  label: string;
}

/** The pages of a list, centred under it, with every page and arrow named for screen readers. */
export const ListPagination = ({ total, value, onChange, label }: ListPaginationProps) => {
  const { t } = useTranslation();
  if (total <= 1) {
    return null;
  }
  return (
    <Group justify="center">
      <Pagination
        total={total}
        value={Math.min(value, total)}
        onChange={onChange}
        getItemProps={(page) => ({ 'aria-label': t('pagination.page', { page }) })}
        getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
        aria-label={label}
        size="sm"
      />
    </Group>
  );
};
