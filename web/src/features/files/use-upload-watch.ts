import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { serverWork } from '@/features/files/operations';
import type { UploadItem } from '@/features/files/upload-queue';
import { notify } from '@/lib/notify';

/**
 * Keeps a server's upload queue in step with the page: its size limit follows the server's, each
 * finished upload re-reads the listing, and each refused one says why at once.
 */
export const useUploadWatch = (uploads: ReturnType<typeof serverWork>['uploads'], uploadSizeMiB: number | undefined, refresh: () => Promise<unknown>): void => {
  const { t } = useTranslation();
  useEffect(() => {
    const max = uploadSizeMiB;
    uploads.setMaxBytes(max === undefined ? undefined : max * 1024 * 1024);
  }, [uploadSizeMiB, uploads]);

  useEffect(() => {
    const seen = new Set<number>();
    const check = () => {
      for (const item of uploads.items()) {
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
        notify({ color: 'red', title: t('files.upload.refusedTitle'), message: t('files.upload.refusedToast', { name: item.name, limit: uploadSizeMiB ?? 0 }) });
      }
    };
    for (const item of uploads.items()) {
      if (item.status !== 'queued' && item.status !== 'uploading') {
        seen.add(item.id);
      }
    }
    return uploads.subscribe(check);
  }, [uploads, refresh, t, uploadSizeMiB]);
};
