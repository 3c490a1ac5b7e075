import { Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { filesFromDataTransfer } from '@/features/files/dropped-files';
import type { PickedFile } from '@/features/files/upload-queue';
import { notifyError } from '@/lib/notify';

interface UploadDropZoneProps {
  /** Whether the reader may upload: without it nothing is taken and there is no hint. */
  canWrite: boolean;
  /** The upload limit in MiB, for the hint. */
  uploadSizeMiB: number | undefined;
  onUpload: (picked: PickedFile[]) => void;
  children: ReactNode;
}

/** The listing, which takes files and folders dropped on it, with a hint saying so. */
export const UploadDropZone = ({ canWrite, uploadSizeMiB, onUpload, children }: UploadDropZoneProps) => {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  return (
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
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        if (canWrite) {
          void filesFromDataTransfer(event.dataTransfer).then(onUpload, notifyError);
        }
      }}
    >
      {children}
      {canWrite ? (
        <Text size="xs" className="files-muted" mt={4}>
          {uploadSizeMiB ? t('files.dropHintLimit', { limit: uploadSizeMiB }) : t('files.dropHint')}
        </Text>
      ) : null}
    </div>
  );
};
