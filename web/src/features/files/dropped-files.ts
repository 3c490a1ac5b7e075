import { pickedFromPath, type PickedFile } from '@/features/files/upload-queue';

// Files from a drop or a picker, keeping the folders they came in (a dropped folder is walked with
// the File and Directory Entries API; a picker with webkitdirectory gives webkitRelativePath).

const readAll = (reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> =>
  new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    // readEntries answers in batches (100 in Chromium) until an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) {
          resolve(out);
        } else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });

const walk = async (entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> => {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push(pickedFromPath(file, `${prefix}${file.name}`));
  } else if (entry.isDirectory) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const child of children) {
      await walk(child, `${prefix}${entry.name}/`, out);
    }
  }
};

export const filesFromDataTransfer = async (data: DataTransfer): Promise<PickedFile[]> => {
  const out: PickedFile[] = [];
  const items = Array.from(data.items ?? []).filter((item) => item.kind === 'file');
  // Entries must be taken before the first await: the DataTransfer empties after the event.
  const taken = items.map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  for (const { entry, file } of taken) {
    if (entry) {
      await walk(entry, '', out);
    } else if (file) {
      out.push(pickedFromPath(file, file.name));
    }
  }
  if (items.length === 0) {
    for (const file of Array.from(data.files)) {
      out.push(pickedFromPath(file, file.name));
    }
  }
  return out;
};

export const filesFromInput = (files: FileList | null): PickedFile[] =>
  Array.from(files ?? []).map((file) => pickedFromPath(file, file.webkitRelativePath || file.name));
