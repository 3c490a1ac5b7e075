import '@/features/files/components/files.css';
import { Anchor, Breadcrumbs, Button, Group, Menu, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCloudDownload, IconFilePlus, IconFolderPlus, IconFolderOpen, IconSearch, IconTrash, IconUpload, IconArchive, IconFolderShare } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EmptyState } from '@/components/EmptyState';
import { ErrorState } from '@/components/ErrorState';
import { ListSkeleton } from '@/components/Skeletons';
import { can, downloadUrl, fileListQuery, filesApi, filesKeys, filesServerQuery } from '@/features/files/api';
import { ChmodDialog, TextDialog } from '@/features/files/components/FileDialogs';
import { FileTable, type RowAction } from '@/features/files/components/FileTable';
import { OperationsTray } from '@/features/files/components/OperationsTray';
import { filesFromDataTransfer, filesFromInput } from '@/features/files/dropped-files';
import { fileKind } from '@/features/files/file-kind';
import { arrangeEntries, type FileEntry, type SortDir, type SortKey } from '@/features/files/file-list';
import { serverWork, type Operation } from '@/features/files/operations';
import { planMove } from '@/features/files/move';
import { breadcrumbs, joinPath, normalizePath, parentOf, pulledName } from '@/features/files/paths';
import { planUpload, type PickedFile, type UploadItem } from '@/features/files/upload-queue';
import { notify, notifyError } from '@/lib/notify';

type Dialog =
  | { kind: 'newFile' | 'newFolder' | 'pull' }
  | { kind: 'rename'; entry: FileEntry }
  | { kind: 'chmod'; entries: FileEntry[] }
  | { kind: 'delete'; names: string[] }
  | { kind: 'move'; names: string[] }
  | undefined;

/** A name typed for a new entry: one path segment, no slashes. */
const badName = (value: string): boolean => value.includes('/') || value === '.' || value === '..';

/** `to` of a rename relative to `root`; an absolute target (`/x/y`) is turned into `../` steps. */
const relativeTarget = (root: string, target: string): string => {
  if (!target.startsWith('/')) {
    return target;
  }
  const depth = normalizePath(root).split('/').filter(Boolean).length;
  return `${'../'.repeat(depth)}${normalizePath(target).slice(1)}`;
};

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
  const [dialog, setDialog] = useState<Dialog>();
  const [deleting, setDeleting] = useState(false);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
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

  useEffect(() => {
    const max = server.data?.uploadSizeMiB;
    work.uploads.setMaxBytes(max === undefined ? undefined : max * 1024 * 1024);
  }, [server.data?.uploadSizeMiB, work.uploads]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: filesKeys.lists(serverId) }), [queryClient, serverId]);

  // Each finished upload re-reads the listing; each refused one says why at once.
  useEffect(() => {
    const seen = new Set<number>();
    const check = () => {
      for (const item of work.uploads.items()) {
        if (seen.has(item.id) || (item.status !== 'done' && item.status !== 'failed' && item.status !== 'refused')) {
          continue;
        }
        seen.add(item.id);
        announceUpload(item);
        if (item.status === 'done') {
          void refresh();
        }
      }
    };
    const announceUpload = (item: UploadItem) => {
      if (item.status === 'refused') {
        notify({ color: 'red', title: t('files.upload.refusedTitle'), message: t('files.upload.refusedToast', { name: item.name, limit: server.data?.uploadSizeMiB ?? 0 }) });
      }
    };
    for (const item of work.uploads.items()) {
      if (item.status !== 'queued' && item.status !== 'uploading') {
        seen.add(item.id);
      }
    }
    return work.uploads.subscribe(check);
  }, [work.uploads, refresh, t, server.data?.uploadSizeMiB]);

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

  // A pull goes on in the background after the node answers: while its folder is on screen, it is
  // read again each second until the file shows (for a minute at most), so no reload is needed.
  const watchPull = async (folder: string, name: string | undefined) => {
    const queryKey = filesKeys.dir(serverId, folder);
    for (let tries = 0; name && tries < 60; tries++) {
      if (queryClient.getQueryData<FileEntry[]>(queryKey)?.some((e) => e.name === name) || !queryClient.getQueryCache().find({ queryKey })?.getObserversCount()) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await queryClient.invalidateQueries({ queryKey, exact: true });
    }
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

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!canWrite) {
      return;
    }
    void filesFromDataTransfer(event.dataTransfer).then(upload, notifyError);
  };

  const confirmDelete = async (names: string[]) => {
    setDeleting(true);
    try {
      await filesApi.delete(serverId, directory, names);
      setSelected(new Set());
      notify({ color: 'teal', message: t('files.deleted', { count: names.length }) });
      setDialog(undefined);
    } catch (e) {
      notifyError(e);
    } finally {
      setDeleting(false);
      await refresh();
    }
  };

  const trail = breadcrumbs(directory);
  const selectedNames = [...selected].filter((name) => entries.some((e) => e.name === name) || (list.data ?? []).some((e) => e.name === name));

  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('files.title')}
      </Title>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <nav aria-label={t('files.breadcrumbs')} style={{ minWidth: 0 }}>
          <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }}>
            {trail.map((crumb, i) =>
              i === trail.length - 1 ? (
                <Text key={crumb.path} size="sm" fw={600} aria-current="page">
                  {crumb.path === '/' ? t('files.root') : crumb.name}
                </Text>
              ) : (
                <Anchor key={crumb.path} size="sm" className="files-link" renderRoot={(props) => <Link {...props} to="/server/$id/files" params={{ id: serverId }} search={{ path: crumb.path }} />}>
                  {crumb.path === '/' ? t('files.root') : crumb.name}
                </Anchor>
              ),
            )}
          </Breadcrumbs>
        </nav>
        {canWrite ? (
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant="default" leftSection={<IconFilePlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'newFile' })}>
              {t('files.toolbar.newFile')}
            </Button>
            <Button size="xs" variant="default" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'newFolder' })}>
              {t('files.toolbar.newFolder')}
            </Button>
            <Button size="xs" variant="default" leftSection={<IconCloudDownload size={16} aria-hidden />} onClick={() => setDialog({ kind: 'pull' })}>
              {t('files.toolbar.pull')}
            </Button>
            <Menu position="bottom-end">
              <Menu.Target>
                <Button size="xs" variant="default" leftSection={<IconUpload size={16} aria-hidden />}>
                  {t('files.toolbar.upload')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconUpload size={14} aria-hidden />} onClick={() => fileInput.current?.click()}>
                  {t('files.toolbar.uploadFiles')}
                </Menu.Item>
                <Menu.Item leftSection={<IconFolderOpen size={14} aria-hidden />} onClick={() => folderInput.current?.click()}>
                  {t('files.toolbar.uploadFolder')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              aria-label={t('files.toolbar.uploadFiles')}
              onChange={(e) => {
                void upload(filesFromInput(e.currentTarget.files));
                e.currentTarget.value = '';
              }}
            />
            <input
              ref={(el) => {
                folderInput.current = el;
                el?.setAttribute('webkitdirectory', '');
              }}
              type="file"
              multiple
              hidden
              aria-label={t('files.toolbar.uploadFolder')}
              onChange={(e) => {
                void upload(filesFromInput(e.currentTarget.files));
                e.currentTarget.value = '';
              }}
            />
          </Group>
        ) : null}
      </Group>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <TextInput
          aria-label={t('files.filter')}
          placeholder={t('files.filter')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          style={{ flex: '1 1 200px', maxWidth: 360 }}
          type="search"
        />
        {selectedNames.length > 0 ? (
          <Group gap="xs" wrap="wrap">
            <Text size="sm" role="status">
              {t('files.selected', { count: selectedNames.length })}
            </Text>
            {canWrite ? (
              <Button size="xs" variant="light" leftSection={<IconArchive size={14} aria-hidden />} onClick={() => void runOperation('compress', selectedNames.join(', '), () => filesApi.compress(serverId, directory, selectedNames))}>
                {t('files.action.compress')}
              </Button>
            ) : null}
            {canWrite ? (
              <Button size="xs" variant="light" leftSection={<IconFolderShare size={14} aria-hidden />} onClick={() => setDialog({ kind: 'move', names: selectedNames })}>
                {t('files.action.move')}
              </Button>
            ) : null}
            {canDelete ? (
              <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setDialog({ kind: 'delete', names: selectedNames })}>
                {t('files.action.delete')}
              </Button>
            ) : null}
          </Group>
        ) : (
          <Text size="sm" className="files-muted">
            {list.data ? t('files.count', { count: list.data.length }) : ''}
          </Text>
        )}
      </Group>
      <div
        className="files-drop"
        data-dragging={dragging || undefined}
        data-testid="files-drop"
        onDragOver={(e) => {
          if (canWrite && e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setDragging(true);
          }
        }}
        onDragLeave={(e) => {
          if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) {
            setDragging(false);
          }
        }}
        onDrop={onDrop}
      >
        {list.isPending ? (
          <ListSkeleton rows={8} />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : list.data.length === 0 ? (
          <EmptyState icon={<IconFolderOpen size={28} />} title={t('files.empty.title')} description={canWrite ? t('files.empty.write') : t('files.empty.read')} />
        ) : (
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
        {canWrite ? (
          <Text size="xs" className="files-muted" mt={4}>
            {server.data?.uploadSizeMiB ? t('files.dropHintLimit', { limit: server.data.uploadSizeMiB }) : t('files.dropHint')}
          </Text>
        ) : null}
      </div>
      <div className="files-tray">
        <OperationsTray server={serverId} />
      </div>

      <TextDialog
        opened={dialog?.kind === 'newFile'}
        title={t('files.toolbar.newFile')}
        label={t('files.dialog.fileName')}
        initial=""
        submitLabel={t('files.dialog.create')}
        validate={(v) => (badName(v) ? t('files.dialog.badName') : undefined)}
        onSubmit={(name) => {
          edit(joinPath(directory, name), true);
          return Promise.resolve();
        }}
        onClose={() => setDialog(undefined)}
      />
      <TextDialog
        opened={dialog?.kind === 'newFolder'}
        title={t('files.toolbar.newFolder')}
        label={t('files.dialog.folderName')}
        initial=""
        submitLabel={t('files.dialog.create')}
        validate={(v) => (badName(v) ? t('files.dialog.badName') : undefined)}
        onSubmit={async (name) => {
          await filesApi.createFolder(serverId, directory, name);
          await refresh();
        }}
        onClose={() => setDialog(undefined)}
      />
      <TextDialog
        opened={dialog?.kind === 'rename'}
        title={t('files.dialog.renameTitle')}
        label={t('files.dialog.newName')}
        description={t('files.dialog.renameHelp')}
        initial={dialog?.kind === 'rename' ? dialog.entry.name : ''}
        submitLabel={t('files.action.rename')}
        onSubmit={async (to) => {
          if (dialog?.kind !== 'rename') {
            return;
          }
          await filesApi.rename(serverId, directory, [{ from: dialog.entry.name, to: relativeTarget(directory, to) }]);
          await refresh();
        }}
        onClose={() => setDialog(undefined)}
      />
      <TextDialog
        opened={dialog?.kind === 'move'}
        title={t('files.dialog.moveTitle', { count: dialog?.kind === 'move' ? dialog.names.length : 0 })}
        label={t('files.dialog.moveTarget')}
        description={
          <>
            {t('files.dialog.moveHelp')}
            <Text span display="block" size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {t('files.dialog.moveNames', { names: dialog?.kind === 'move' ? dialog.names.join(', ') : '' })}
            </Text>
          </>
        }
        initial=""
        submitLabel={t('files.action.move')}
        validate={(v) => {
          const plan = planMove(directory, dialog?.kind === 'move' ? dialog.names : [], v);
          return plan.ok ? undefined : t(`files.dialog.moveProblem.${plan.problem}`);
        }}
        onSubmit={(to) => {
          if (dialog?.kind !== 'move') {
            return Promise.resolve();
          }
          const plan = planMove(directory, dialog.names, to);
          if (plan.ok) {
            // One call for every entry; the tray and a toast say how it ended, as for compress.
            setSelected(new Set());
            void runOperation('move', `${dialog.names.join(', ')} → ${plan.target}`, () => filesApi.rename(serverId, directory, plan.files));
          }
          return Promise.resolve();
        }}
        onClose={() => setDialog(undefined)}
      />
      <TextDialog
        opened={dialog?.kind === 'pull'}
        title={t('files.toolbar.pull')}
        label={t('files.dialog.url')}
        description={t('files.dialog.pullHelp', { directory })}
        initial=""
        type="url"
        submitLabel={t('files.dialog.pull')}
        validate={(v) => (/^https?:\/\/\S+$/i.test(v) ? undefined : t('files.dialog.badUrl'))}
        onSubmit={(url) => {
          // The node downloads in the background: the request answers once it has started.
          void runOperation('pull', url, () => filesApi.pull(serverId, url, directory)).then((ended) => (ended.status === 'done' ? watchPull(directory, pulledName(url)) : undefined));
          return Promise.resolve();
        }}
        onClose={() => setDialog(undefined)}
      />
      <ChmodDialog
        opened={dialog?.kind === 'chmod'}
        names={dialog?.kind === 'chmod' ? dialog.entries.map((e) => e.name) : []}
        initial={dialog?.kind === 'chmod' ? (dialog.entries[0]?.mode ?? '644') : '644'}
        onSubmit={async (mode) => {
          if (dialog?.kind !== 'chmod') {
            return;
          }
          await filesApi.chmod(
            serverId,
            directory,
            dialog.entries.map((e) => ({ file: e.name, mode })),
          );
          await refresh();
        }}
        onClose={() => setDialog(undefined)}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('files.dialog.deleteTitle', { count: dialog?.kind === 'delete' ? dialog.names.length : 0 })}
        message={
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('files.dialog.deleteMessage', { names: dialog?.kind === 'delete' ? dialog.names.join(', ') : '' })}
          </Text>
        }
        confirmLabel={t('files.action.delete')}
        danger
        loading={deleting}
        onConfirm={() => dialog?.kind === 'delete' && void confirmDelete(dialog.names)}
        onClose={() => setDialog(undefined)}
      />
    </Stack>
  );
};
