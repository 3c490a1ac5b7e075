import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { filesApi, filesKeys } from '@/features/files/api';
import { ChmodDialog, TextDialog } from '@/features/files/components/FileDialogs';
import type { FileEntry } from '@/features/files/file-list';
import { planMove } from '@/features/files/move';
import type { Operation } from '@/features/files/operations';
import { joinPath, normalizePath, pulledName } from '@/features/files/paths';
import { notify, notifyError } from '@/lib/notify';

/** The dialog open over the file manager, with what it acts on. */
export type FilesDialog = { kind: 'newFile' | 'newFolder' | 'pull' } | { kind: 'rename'; entry: FileEntry } | { kind: 'chmod'; entries: FileEntry[] } | { kind: 'delete'; names: string[] } | { kind: 'move'; names: string[] } | undefined;

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

interface FilesDialogsProps {
  serverId: string;
  directory: string;
  dialog: FilesDialog;
  onClose: () => void;
  /** Reads the listings again after a change. */
  refresh: () => Promise<unknown>;
  /** Runs a long action (compress, move, pull) in the operations tray, with a toast when it ends. */
  runOperation: (kind: Operation['kind'], subject: string, call: () => Promise<unknown>) => Promise<Operation>;
  /** Opens the editor on a file that does not exist yet. */
  onCreateFile: (path: string) => void;
  clearSelection: () => void;
}

/** The file manager's dialogs: new file or folder, rename, move, pull, permissions and delete. */
export const FilesDialogs = ({ serverId, directory, dialog, onClose, refresh, runOperation, onCreateFile, clearSelection }: FilesDialogsProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);

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

  const confirmDelete = async (names: string[]) => {
    setDeleting(true);
    try {
      await filesApi.delete(serverId, directory, names);
      clearSelection();
      notify({ color: 'teal', message: t('files.deleted', { count: names.length }) });
      onClose();
    } catch (e) {
      notifyError(e);
    } finally {
      setDeleting(false);
      await refresh();
    }
  };

  return (
    <>
      <TextDialog
        opened={dialog?.kind === 'newFile'}
        title={t('files.toolbar.newFile')}
        label={t('files.dialog.fileName')}
        initial=""
        submitLabel={t('files.dialog.create')}
        validate={(v) => (badName(v) ? t('files.dialog.badName') : undefined)}
        onSubmit={(name) => {
          onCreateFile(joinPath(directory, name));
          return Promise.resolve();
        }}
        onClose={onClose}
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
        onClose={onClose}
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
        onClose={onClose}
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
            clearSelection();
            void runOperation('move', `${dialog.names.join(', ')} → ${plan.target}`, () => filesApi.rename(serverId, directory, plan.files));
          }
          return Promise.resolve();
        }}
        onClose={onClose}
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
        onClose={onClose}
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
        onClose={onClose}
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
        onClose={onClose}
      />
    </>
  );
};
