import '@/features/files/components/files.css';
import { Stack, Text, Title } from '@mantine/core';
import { IconFolderOpen } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/EmptyState';
import { QueryListBody } from '@/components/QueryListBody';
import { ListSkeleton } from '@/components/Skeletons';
import { can, downloadUrl, fileListQuery, filesApi, filesKeys, filesServerQuery } from '@/features/files/api';
import { FilesDialogs, type FilesDialog } from '@/features/files/components/FilesDialogs';
import { FilesToolbar } from '@/features/files/components/FilesToolbar';
import { FileTable, type RowAction } from '@/features/files/components/FileTable';
import { OperationsTray } from '@/features/files/components/OperationsTray';
import { SelectionBar } from '@/features/files/components/SelectionBar';
import { UploadDropZone } from '@/features/files/components/UploadDropZone';
import { fileKind } from '@/features/files/file-kind';
import { arrangeEntries, type FileEntry, type SortDir, type SortKey } from '@/features/files/file-list';
import { serverWork, type Operation } from '@/features/files/operations';
import { joinPath, normalizePath, parentOf } from '@/features/files/paths';
import { planUpload, type PickedFile } from '@/features/files/upload-queue';
import { useUploadWatch } from '@/features/files/use-upload-watch';
import { notify, notifyError } from '@/lib/notify';

/** `/server/$id/files?path=`: one directory of the server's files, with what can be done to them. */
export const FilesPage = ({ serverId, path: rawPath }: { serverId: string; path?: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const directory = normalizePath(rawPath);
  const server = useQuery(filesServerQuery(serverId));
  const list = useQuery(fileListQuery(serverId, directory));
  const [filter, setFilter] = useState('');
  const [sortKey, setSortKey] = useState<SortKey>('name');
  const [sortDir, setSortDir] = useState<SortDir>('asc');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState(0);
  const [dialog, setDialog] = useState<FilesDialog>();
  const work = serverWork(serverId);

  const canWrite = can(server.data, 'server.files.write');
  const canDelete = can(server.data, 'server.files.delete');
  const entries = useMemo(() => arrangeEntries(list.data ?? [], sortKey, sortDir, filter), [list.data, sortKey, sortDir, filter]);

  // A new directory starts with nothing selected and the focus on its first row.
  useEffect(() => {
    setSelected(new Set());
    setCursor(0);
    setFilter('');
  }, [directory]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: filesKeys.lists(serverId) }), [queryClient, serverId]);

  useUploadWatch(work.uploads, server.data?.uploadSizeMiB, refresh);

  const go = (path: string) => void navigate({ to: '/server/$id/files', params: { id: serverId }, search: { path } });
  const edit = (path: string, isNew = false) => void navigate({ to: '/server/$id/files/edit', params: { id: serverId }, search: isNew ? { path, new: true } : { path } });

  const runOperation = async (kind: Operation['kind'], subject: string, call: () => Promise<unknown>): Promise<Operation> => {
    const ended = await work.operations.run(kind, subject, call);
    await refresh();
    if (ended.status === 'done') {
      notify({ color: 'teal', message: t(`files.ops.done.${kind}`, { name: subject }) });
    } else if (ended.status === 'unsure') {
      notify({ color: 'yellow', message: t('files.ops.unsure', { name: subject }) });
    } else {
      notifyError(ended.error);
    }
    return ended;
  };

  const upload = async (picked: PickedFile[]) => {
    if (picked.length === 0 || !canWrite) {
      return;
    }
    const plan = planUpload(directory, picked);
    try {
      // Folders first, so every file has its directory; an existing folder is fine.
      for (const folder of plan.folders) {
        await filesApi.createFolder(serverId, parentOf(folder), folder.split('/').pop() ?? '').catch(() => undefined);
      }
    } finally {
      work.uploads.add(plan.requests);
    }
  };

  const namesFor = (entry?: FileEntry): string[] => (entry && !selected.has(entry.name) ? [entry.name] : selected.size > 0 ? [...selected] : entry ? [entry.name] : []);

  const onAction = (action: RowAction, entry: FileEntry) => {
    const names = namesFor(entry);
    switch (action) {
      case 'open':
        switch (fileKind(entry)) {
          case 'directory':
            go(joinPath(directory, entry.name));
            return;
          case 'text':
            edit(joinPath(directory, entry.name));
            return;
          case 'archive':
          case 'binary':
            // Not for the editor: opening it means having it.
            onAction('download', entry);
            return;
        }
        return;
      case 'download':
        void downloadUrl(serverId, joinPath(directory, entry.name)).then((url) => window.location.assign(url), notifyError);
        return;
      case 'rename':
        setDialog({ kind: 'rename', entry });
        return;
      case 'copy':
        void filesApi.copy(serverId, joinPath(directory, entry.name)).then((made) => {
          notify({ color: 'teal', message: t('files.copied', { name: entry.name, copy: made?.name ?? '' }) });
          return refresh();
        }, notifyError);
        return;
      case 'chmod':
        setDialog({ kind: 'chmod', entries: (list.data ?? []).filter((e) => names.includes(e.name)) });
        return;
      case 'compress':
        void runOperation('compress', names.join(', '), () => filesApi.compress(serverId, directory, names));
        return;
      case 'decompress':
        void runOperation('decompress', entry.name, () => filesApi.decompress(serverId, directory, entry.name));
        return;
      case 'delete':
        setDialog({ kind: 'delete', names });
        return;
    }
  };

  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    // Typing in a text field is not a command; a row's checkbox is part of the list.
    if (event.target instanceof HTMLInputElement && event.target.type !== 'checkbox') {
      return;
    }
    const entry = entries[cursor];
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      setSelected(new Set(entries.map((e) => e.name)));
    } else if (event.key === 'Enter' && entry) {
      event.preventDefault();
      onAction('open', entry);
    } else if (event.key === 'F2' && entry && canWrite) {
      event.preventDefault();
      onAction('rename', entry);
    } else if (event.key === 'Delete' && canDelete && (entry || selected.size > 0)) {
      event.preventDefault();
      setDialog({ kind: 'delete', names: selected.size > 0 ? [...selected] : [entry.name] });
    } else if (event.key === 'Backspace' && directory !== '/') {
      event.preventDefault();
      go(parentOf(directory));
    }
  };

  const toggle = useCallback(
    (name: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(name)) {
          next.delete(name);
        } else {
          next.add(name);
        }
        return next;
      }),
    [],
  );

  const selectedNames = [...selected].filter((name) => entries.some((e) => e.name === name) || (list.data ?? []).some((e) => e.name === name));

  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('files.title')}
      </Title>
      <FilesToolbar serverId={serverId} directory={directory} canWrite={canWrite} onCreate={(kind) => setDialog({ kind })} onUpload={(picked) => void upload(picked)} />
      <SelectionBar
        filter={filter}
        onFilter={setFilter}
        selectedNames={selectedNames}
        count={list.data?.length}
        canWrite={canWrite}
        canDelete={canDelete}
        onCompress={() => void runOperation('compress', selectedNames.join(', '), () => filesApi.compress(serverId, directory, selectedNames))}
        onMove={() => setDialog({ kind: 'move', names: selectedNames })}
        onDelete={() => setDialog({ kind: 'delete', names: selectedNames })}
      />
      <UploadDropZone canWrite={canWrite} uploadSizeMiB={server.data?.uploadSizeMiB} onUpload={(picked) => void upload(picked)}>
        <QueryListBody query={list} loading={<ListSkeleton rows={8} />} empty={<EmptyState icon={<IconFolderOpen size={28} />} title={t('files.empty.title')} description={canWrite ? t('files.empty.write') : t('files.empty.read')} />}>
          {() => (
            <>
              <FileTable
                entries={entries}
                selected={selected}
                onToggle={toggle}
                onToggleAll={() => setSelected(entries.length > 0 && entries.every((e) => selected.has(e.name)) ? new Set() : new Set(entries.map((e) => e.name)))}
                sortKey={sortKey}
                sortDir={sortDir}
                onSort={(key) => {
                  setSortDir(key === sortKey && sortDir === 'asc' ? 'desc' : 'asc');
                  setSortKey(key);
                }}
                cursor={Math.min(cursor, Math.max(entries.length - 1, 0))}
                onCursor={setCursor}
                onAction={onAction}
                onKey={onKey}
                canWrite={canWrite}
                canDelete={canDelete}
              />
              {entries.length === 0 ? (
                <Text size="sm" className="files-muted" ta="center" py="md">
                  {t('files.noMatch', { filter })}
                </Text>
              ) : null}
            </>
          )}
        </QueryListBody>
      </UploadDropZone>
      <div className="files-tray">
        <OperationsTray server={serverId} />
      </div>

      <FilesDialogs
        serverId={serverId}
        directory={directory}
        dialog={dialog}
        onClose={() => setDialog(undefined)}
        refresh={refresh}
        runOperation={runOperation}
        onCreateFile={(path) => edit(path, true)}
        clearSelection={() => setSelected(new Set())}
      />
    </Stack>
  );
};
