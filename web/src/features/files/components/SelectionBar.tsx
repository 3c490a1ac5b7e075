import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconArchive, IconFolderShare, IconSearch, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface SelectionBarProps {
  filter: string;
  onFilter: (filter: string) => void;
  /** The selected entries' names; none shows the directory's entry count instead of the actions. */
  selectedNames: string[];
  /** How many entries the directory holds, once listed. */
  count: number | undefined;
  canWrite: boolean;
  canDelete: boolean;
  onCompress: () => void;
  onMove: () => void;
  onDelete: () => void;
}

/** The filter box, and what can be done with the selection (compress, move, delete) or how many entries there are. */
export const SelectionBar = ({ filter, onFilter, selectedNames, count, canWrite, canDelete, onCompress, onMove, onDelete }: SelectionBarProps) => {
  const { t } = useTranslation();
  return (
    <Group gap="sm" justify="space-between" wrap="wrap">
      <TextInput
        aria-label={t('files.filter')}
        placeholder={t('files.filter')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={filter}
        onChange={(e) => onFilter(e.currentTarget.value)}
        style={{ flex: '1 1 200px', maxWidth: 360 }}
        type="search"
      />
      {selectedNames.length > 0 ? (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" role="status">
            {t('files.selected', { count: selectedNames.length })}
          </Text>
          {canWrite ? (
            <Button size="xs" variant="light" leftSection={<IconArchive size={14} aria-hidden />} onClick={onCompress}>
              {t('files.action.compress')}
            </Button>
          ) : null}
          {canWrite ? (
            <Button size="xs" variant="light" leftSection={<IconFolderShare size={14} aria-hidden />} onClick={onMove}>
              {t('files.action.move')}
            </Button>
          ) : null}
          {canDelete ? (
            <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={onDelete}>
              {t('files.action.delete')}
            </Button>
          ) : null}
        </Group>
      ) : (
        <Text size="sm" className="files-muted">
          {count === undefined ? '' : t('files.count', { count })}
        </Text>
      )}
    </Group>
  );
};
