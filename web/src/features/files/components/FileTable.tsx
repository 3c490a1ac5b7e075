import { ActionIcon, Checkbox, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconArchive, IconChevronDown, IconChevronUp, IconCopy, IconDots, IconDownload, IconEdit, IconFile, IconFileZip, IconFolder, IconFolderOpen, IconLock, IconPackageExport, IconTrash, IconArrowsMove } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry, SortDir, SortKey } from '@/features/files/file-list';
import { fileKind } from '@/features/files/file-kind';
import { formatBytes, formatDateTime } from '@/lib/format';

export type RowAction = 'open' | 'download' | 'rename' | 'copy' | 'chmod' | 'compress' | 'decompress' | 'delete';

interface FileTableProps {
  entries: FileEntry[];
  selected: ReadonlySet<string>;
  onToggle: (name: string) => void;
  onToggleAll: () => void;
  sortKey: SortKey;
  sortDir: SortDir;
  onSort: (key: SortKey) => void;
  cursor: number;
  onCursor: (index: number) => void;
  onAction: (action: RowAction, entry: FileEntry) => void;
  /** Enter/F2/Delete/Backspace/Ctrl+A on the list. */
  onKey: (event: KeyboardEvent<HTMLDivElement>) => void;
  canWrite: boolean;
  canDelete: boolean;
}

const ROW_HEIGHT = 44;
const COLUMNS = 'minmax(36px, auto) minmax(0, 1fr) 110px 200px 100px 44px';

const SortHeader = ({ label, column, sortKey, sortDir, onSort }: { label: string; column: SortKey; sortKey: SortKey; sortDir: SortDir; onSort: (key: SortKey) => void }) => {
  const active = column === sortKey;
  const Icon = sortDir === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <div role="columnheader" aria-sort={active ? (sortDir === 'asc' ? 'ascending' : 'descending') : 'none'} className={column === 'name' ? undefined : 'files-wide'}>
      <UnstyledButton onClick={() => onSort(column)} fw={600} fz="sm">
        <Group gap={4} wrap="nowrap">
          {label}
          {active ? <Icon size={14} aria-hidden /> : null}
        </Group>
      </UnstyledButton>
    </div>
  );
};

interface RowProps {
  entry: FileEntry;
  index: number;
  top: number;
  checked: boolean;
  active: boolean;
  canWrite: boolean;
  canDelete: boolean;
  onToggle: (name: string) => void;
  onCursor: (index: number) => void;
  onAction: (action: RowAction, entry: FileEntry) => void;
}

const Row = memo(function Row({ entry, index, top, checked, active, canWrite, canDelete, onToggle, onCursor, onAction }: RowProps) {
  const { t, i18n } = useTranslation();
  const kind = fileKind(entry);
  const Icon = kind === 'directory' ? IconFolder : kind === 'archive' ? IconFileZip : IconFile;
  return (
    <div
      role="row"
      id={`file-row-${index}`}
      aria-rowindex={index + 2}
      aria-selected={checked}
      tabIndex={active ? 0 : -1}
      className="files-row"
      data-active={active || undefined}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT, gridTemplateColumns: COLUMNS }}
      onFocus={() => onCursor(index)}
      onDoubleClick={() => onAction('open', entry)}
    >
      <div role="gridcell">
        <Checkbox size="xs" checked={checked} onChange={() => onToggle(entry.name)} aria-label={t('files.list.select', { name: entry.name })} tabIndex={-1} />
      </div>
      <div role="gridcell" style={{ minWidth: 0 }}>
        <UnstyledButton onClick={() => onAction('open', entry)} tabIndex={-1} style={{ maxWidth: '100%' }}>
          <Group gap={8} wrap="nowrap">
            <Icon size={18} aria-hidden color={entry.isDirectory ? 'var(--mantine-color-yellow-6)' : undefined} style={{ flexShrink: 0 }} />
            <Text size="sm" truncate="end" title={entry.name}>
              {entry.name}
            </Text>
          </Group>
        </UnstyledButton>
      </div>
      <div role="gridcell" className="files-wide">
        <Text size="sm" className="files-muted">
          {entry.isDirectory ? '' : formatBytes(entry.size, i18n.language)}
        </Text>
      </div>
      <div role="gridcell" className="files-wide">
        <Text size="sm" className="files-muted">
          {entry.modified ? formatDateTime(entry.modified, i18n.language) : ''}
        </Text>
      </div>
      <div role="gridcell" className="files-wide">
        <Text size="sm" ff="monospace" className="files-muted">
          {entry.mode}
        </Text>
      </div>
      <div role="gridcell">
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('files.list.actions', { name: entry.name })} tabIndex={active ? 0 : -1}>
              <IconDots size={16} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {kind === 'directory' ? (
              <Menu.Item leftSection={<IconFolderOpen size={14} aria-hidden />} onClick={() => onAction('open', entry)}>
                {t('files.action.openFolder')}
              </Menu.Item>
            ) : kind === 'text' ? (
              <Menu.Item leftSection={<IconEdit size={14} aria-hidden />} onClick={() => onAction('open', entry)}>
                {t('files.action.edit')}
              </Menu.Item>
            ) : null}
            {entry.isFile ? (
              <Menu.Item leftSection={<IconDownload size={14} aria-hidden />} onClick={() => onAction('download', entry)}>
                {t('files.action.download')}
              </Menu.Item>
            ) : null}
            {canWrite ? (
              <>
                <Menu.Item leftSection={<IconArrowsMove size={14} aria-hidden />} onClick={() => onAction('rename', entry)}>
                  {t('files.action.rename')}
                </Menu.Item>
                {entry.isFile ? (
                  <Menu.Item leftSection={<IconCopy size={14} aria-hidden />} onClick={() => onAction('copy', entry)}>
                    {t('files.action.copy')}
                  </Menu.Item>
                ) : null}
                <Menu.Item leftSection={<IconLock size={14} aria-hidden />} onClick={() => onAction('chmod', entry)}>
                  {t('files.action.chmod')}
                </Menu.Item>
                <Menu.Item leftSection={<IconArchive size={14} aria-hidden />} onClick={() => onAction('compress', entry)}>
                  {t('files.action.compress')}
                </Menu.Item>
                {kind === 'archive' ? (
                  <Menu.Item leftSection={<IconPackageExport size={14} aria-hidden />} onClick={() => onAction('decompress', entry)}>
                    {t('files.action.decompress')}
                  </Menu.Item>
                ) : null}
              </>
            ) : null}
            {canDelete ? (
              <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => onAction('delete', entry)}>
                {t('files.action.delete')}
              </Menu.Item>
            ) : null}
          </Menu.Dropdown>
        </Menu>
      </div>
    </div>
  );
});

/**
 * The whole directory as a grid whose rows are drawn only where the scroll position shows them
 * (@tanstack/react-virtual), so thousands of entries stay smooth. One row holds the focus
 * (roving tabindex); the arrow keys move it and it is scrolled into view.
 */
export const FileTable = ({ entries, selected, onToggle, onToggleAll, sortKey, sortDir, onSort, cursor, onCursor, onAction, onKey, canWrite, canDelete }: FileTableProps) => {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusWanted = useRef(false);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    if (!focusWanted.current) {
      return;
    }
    focusWanted.current = false;
    virtualizer.scrollToIndex(cursor, { align: 'auto' });
    requestAnimationFrame(() => document.getElementById(`file-row-${cursor}`)?.focus({ preventScroll: true }));
  }, [cursor, virtualizer]);

  const move = (index: number) => {
    focusWanted.current = true;
    onCursor(Math.max(0, Math.min(entries.length - 1, index)));
  };

  const handleKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: cursor + 1, ArrowUp: cursor - 1, PageDown: cursor + page, PageUp: cursor - page, Home: 0, End: entries.length - 1 };
    if (event.key in moves && !(event.target instanceof HTMLInputElement && event.target.type !== 'checkbox')) {
      event.preventDefault();
      move(moves[event.key]);
      return;
    }
    if (event.key === ' ' && event.target === document.getElementById(`file-row-${cursor}`) && entries[cursor]) {
      event.preventDefault();
      onToggle(entries[cursor].name);
      return;
    }
    onKey(event);
  };

  const allChecked = entries.length > 0 && entries.every((e) => selected.has(e.name));
  const someChecked = !allChecked && entries.some((e) => selected.has(e.name));

  return (
    <div role="grid" aria-label={t('files.list.label')} aria-rowcount={entries.length + 1} aria-multiselectable onKeyDown={handleKey} className="files-grid">
      <div role="row" aria-rowindex={1} className="files-row files-head" style={{ gridTemplateColumns: COLUMNS }}>
        <div role="columnheader">
          <Checkbox size="xs" checked={allChecked} indeterminate={someChecked} onChange={onToggleAll} aria-label={t('files.list.selectAll')} />
        </div>
        <SortHeader label={t('files.list.name')} column="name" sortKey={sortKey} sortDir={sortDir} onSort={onSort} />
        <SortHeader label={t('files.list.size')} column="size" sortKey={sortKey} sortDir={sortDir} onSort={onSort} />
        <SortHeader label={t('files.list.modified')} column="modified" sortKey={sortKey} sortDir={sortDir} onSort={onSort} />
        <div role="columnheader" className="files-wide">
          <Text fw={600} fz="sm">
            {t('files.list.mode')}
          </Text>
        </div>
        <div role="columnheader">
          <span className="files-sr-only">{t('files.list.actionsColumn')}</span>
        </div>
      </div>
      <div ref={scrollRef} className="files-scroll" data-testid="files-scroll">
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index];
            return (
              <Row
                key={entry.name}
                entry={entry}
                index={item.index}
                top={item.start}
                checked={selected.has(entry.name)}
                active={item.index === cursor}
                canWrite={canWrite}
                canDelete={canDelete}
                onToggle={onToggle}
                onCursor={onCursor}
                onAction={onAction}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
};
