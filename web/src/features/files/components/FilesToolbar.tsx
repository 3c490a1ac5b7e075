import { Anchor, Breadcrumbs, Button, Group, Menu, Text } from '@mantine/core';
import { IconCloudDownload, IconFilePlus, IconFolderOpen, IconFolderPlus, IconUpload } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { filesFromInput } from '@/features/files/dropped-files';
import { breadcrumbs } from '@/features/files/paths';
import type { PickedFile } from '@/features/files/upload-queue';

interface FilesToolbarProps {
  serverId: string;
  directory: string;
  canWrite: boolean;
  /** Opens the new-file, new-folder or pull dialog. */
  onCreate: (kind: 'newFile' | 'newFolder' | 'pull') => void;
  onUpload: (picked: PickedFile[]) => void;
}

/** Where the listing is (a breadcrumb trail of links) and, for those who may write, new file, new folder, pull and upload. */
export const FilesToolbar = ({ serverId, directory, canWrite, onCreate, onUpload }: FilesToolbarProps) => {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const trail = breadcrumbs(directory);
  return (
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
          <Button size="xs" variant="default" leftSection={<IconFilePlus size={16} aria-hidden />} onClick={() => onCreate('newFile')}>
            {t('files.toolbar.newFile')}
          </Button>
          <Button size="xs" variant="default" leftSection={<IconFolderPlus size={16} aria-hidden />} onClick={() => onCreate('newFolder')}>
            {t('files.toolbar.newFolder')}
          </Button>
          <Button size="xs" variant="default" leftSection={<IconCloudDownload size={16} aria-hidden />} onClick={() => onCreate('pull')}>
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
              onUpload(filesFromInput(e.currentTarget.files));
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
              onUpload(filesFromInput(e.currentTarget.files));
              e.currentTarget.value = '';
            }}
          />
        </Group>
      ) : null}
    </Group>
  );
};
